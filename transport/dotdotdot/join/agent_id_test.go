package join

import (
	"testing"
	"time"
)

// An agent id that is not a Badge's CAIP-19 form is refused at the door, 400, on every route
// that takes one, before anything is issued or resolved (§3: "MUST be refused at the door
// rather than later").
func TestMalformedAgentIDIsRefusedAtTheDoor(t *testing.T) {
	const chain = "ccd:4221332d34e1694168c2a0c0b3fd0f27"
	for _, tt := range []struct {
		name, agent, code string
	}{
		{"outside base58", chain + "/cis-2:0OIl", "agent_id_not_base58"},
		{"bad checksum", chain + "/cis-2:JyP9TuVfyJhJganGq2W8e", "bad_agent_id"},
		{"no cis-2", chain + "/erc-721:JyP9TuVfyJhJganGq2W8d", "bad_agent_id"},
		{"no chain", "cis-2:JyP9TuVfyJhJganGq2W8d", "bad_agent_id"},
		{"plain text", "Ada", "bad_agent_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			code, body := v.do("POST", "/v1/session/challenge", []byte(`{"agent":"`+tt.agent+`"}`), nil)
			wantRefusal(t, code, body, 400, tt.code)
			join := v.joinObj("nonce-0000000000001")
			join["agent"] = tt.agent
			code, body = v.do("POST", "/v1/join", signed(t, v.key, join), nil)
			wantRefusal(t, code, body, 400, tt.code)
			code, body = v.do("POST", "/v1/session", signed(t, v.key, map[string]any{"agent": tt.agent,
				"challenge": "c_0123456789abcdef0123", "issued_at": v.now.Format(time.RFC3339)}), nil)
			wantRefusal(t, code, body, 400, tt.code)
			if v.res.calls != 0 || len(v.seat.joins) != 0 {
				t.Fatalf("a malformed id reached the resolver (%d calls) or the seater (%d joins)", v.res.calls, len(v.seat.joins))
			}
		})
	}
}

// A malformed agent id is the first thing the join and session doors judge after the body's
// JSON: whatever else is wrong beside it (no table, a table this arena does not serve, no
// challenge), the answer is the id's 400, never a 409 for the table.
func TestMalformedAgentIDComesBeforeTheOtherMembers(t *testing.T) {
	bad := "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:0OIl"
	v := newEnv(t)
	for _, body := range []string{
		`{"agent":"` + bad + `"}`,
		`{"agent":"` + bad + `","table":"free"}`,
		`{"agent":"` + bad + `","table":"open"}`,
	} {
		code, b := v.do("POST", "/v1/join", []byte(body), nil)
		wantRefusal(t, code, b, 400, "agent_id_not_base58")
	}
	code, b := v.do("POST", "/v1/session", []byte(`{"agent":"`+bad+`"}`), nil)
	wantRefusal(t, code, b, 400, "agent_id_not_base58")
	if v.res.calls != 0 || len(v.seat.joins) != 0 {
		t.Fatalf("a malformed id reached the resolver (%d calls) or the seater (%d joins)", v.res.calls, len(v.seat.joins))
	}
}
