package join

import (
	"bytes"
	"strings"
	"testing"

	"arena/actors/dotdotdot"
)

// FuzzOTSDoor: any body on the off-the-shelf routes is answered (a key, a seat, a playbook or a
// refusal with a code), never a panic or a 500, and nothing is seated but Badges whose cards
// carry the key of the owner_token given for them.
func FuzzOTSDoor(f *testing.F) {
	for _, s := range []string{
		`{"table":"practice","agents":[` + otsAgentJSON(otsA, "") + `]}`,
		`{"table":"practice","agents":[{"agent":"` + otsA + `","owner_token":"` + otsTokenB + `"}]}`,
		`{"table":"practice","agents":[{"agent":"` + otsA + `","owner_token":"ots_` + strings.Repeat("0", 43) + `","playbook":{"text":"x"}}]}`,
		`{"table":"open","agents":[` + otsAgentJSON(otsB, "") + `]}`,
		`{"agent":"` + otsA + `"}`, `{"text":"hi","dials":{"trust":3}}`, `[]`, `null`, `{"a":1,"A":2}`, ``,
		`{"table":"practice","agents":[` + otsAgentJSON(otsA, "") + `],"agents":[]}`,
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
	}
	v := newOTSEnv(f)
	routes := []string{"/v1/ots/key", "/v1/ots/join", "/v1/ots/playbook"}
	f.Fuzz(func(t *testing.T, body string, r uint8) {
		path := routes[int(r)%len(routes)]
		v.seat.mu.Lock()
		before := len(v.seat.seats)
		v.seat.mu.Unlock()
		code, resp := v.do("POST", path, body)
		if code >= 500 {
			t.Fatalf("%s %q: %d %v", path, body, code, resp)
		}
		if code != 200 && (resp["code"] == nil || resp["code"] == "") {
			t.Fatalf("%s %q: %d without a code: %v", path, body, code, resp)
		}
		v.seat.mu.Lock()
		defer v.seat.mu.Unlock()
		for _, s := range v.seat.seats[before:] {
			for _, a := range s.Agents {
				if want := otsTokens[a.Agent.ID]; want == "" || a.Grant != dotdotdot.OTSGrant(want) || !bytes.Equal(a.Agent.SigningKey, otsKeyOf(a.Agent.ID, a.Grant)) {
					t.Fatalf("%s %q seated %s with grant %s, not its owner's", path, body, a.Agent.ID, a.Grant)
				}
			}
		}
	})
}
