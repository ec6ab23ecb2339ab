package join

import (
	"testing"
)

// TestOTSJoinNeedsTheOwnersSession: POST /v1/ots/join seats only the caller's own Badges. With no
// session, a forged or expired one, it is unauthorized (401); a session of another account's
// Badge, or a list with one foreign agent among the caller's own, is forbidden (403) as a whole;
// each refusal seats and holds nothing. The owner's session seats both of its Badges.
func TestOTSJoinNeedsTheOwnersSession(t *testing.T) {
	v := newOTSEnv(t)
	own := v.tok
	both := `{"table":"practice","agents":[{"agent":"` + otsA + `"},{"agent":"` + otsB + `"}]}`
	mixed := `{"table":"practice","agents":[{"agent":"` + otsA + `"},{"agent":"` + otsForeign + `"}]}`
	stranger := v.signIn(t, strangerKey, strangerBdg)
	for _, c := range []struct {
		name, tok, body string
		code            int
		want            string
	}{
		{"no session", "", both, 401, "unauthorized"},
		{"forged session", "s_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", both, 401, "unauthorized"},
		{"not a session", "pb_good", both, 401, "unauthorized"},
		{"another account's session", stranger, both, 403, "forbidden"},
		{"one foreign agent in the list", own, mixed, 403, "forbidden"},
		{"only the foreign agent", own, `{"table":"practice","agents":[{"agent":"` + otsForeign + `"}]}`, 403, "forbidden"},
	} {
		v.tok = c.tok
		if code, m := v.do("POST", "/v1/ots/join", c.body); code != c.code || m["code"] != c.want {
			t.Errorf("%s: %d %v, want %d %s", c.name, code, m, c.code, c.want)
		}
	}
	if len(v.seat.seats) != 0 {
		t.Fatalf("a refused join seated %+v", v.seat.seats)
	}
	v.tok = own
	if code, m := v.do("POST", "/v1/ots/join", both); code != 200 || m["status"] != "seated" || len(v.seat.seats) != 1 ||
		len(v.seat.seats[0].Agents) != 2 || v.seat.seats[0].Agents[0].Agent.Owner != otsOwner {
		t.Fatalf("the owner's join: %d %v %+v", code, m, v.seat.seats)
	}
	// The stranger seats its own off-the-shelf Badge.
	v.tok = stranger
	if code, m := v.do("POST", "/v1/ots/join", `{"table":"practice","agents":[{"agent":"`+otsForeign+`"}]}`); code != 200 || len(v.seat.seats) != 2 ||
		v.seat.seats[1].Agents[0].Agent.ID != otsForeign {
		t.Fatalf("the stranger's own: %d %v", code, m)
	}
	// Expired, the owner's session seats nothing.
	v.now = v.now.Add(SessionTTL)
	v.tok = own
	if code, m := v.do("POST", "/v1/ots/join", both); code != 401 || m["code"] != "unauthorized" || len(v.seat.seats) != 2 {
		t.Fatalf("expired session: %d %v", code, m)
	}
}

// TestOTSSessionCannotBeForgedOrReplayed: the session an ots join needs is opened only by a
// signature of the signing-in Badge's own card key, once per challenge: a signature by another
// key is invalid_signature (422), and the same signed sign-in sent again opens no second session.
func TestOTSSessionCannotBeForgedOrReplayed(t *testing.T) {
	v := newOTSEnv(t)
	v.tok = ""
	if code, m := v.do("POST", "/v1/session", v.sessionBody(t, strangerKey, ownBadge)); code != 422 || m["code"] != CodeBadSignature || m["session"] != nil {
		t.Fatalf("sign-in signed by another key: %d %v", code, m)
	}
	body := v.sessionBody(t, ownKey, ownBadge)
	if code, m := v.do("POST", "/v1/session", body); code != 200 || m["session"] == nil {
		t.Fatalf("sign-in: %d %v", code, m)
	}
	if code, m := v.do("POST", "/v1/session", body); code != 409 || m["code"] != CodeReplayed || m["session"] != nil {
		t.Fatalf("replayed sign-in: %d %v", code, m)
	}
}

// TestOTSPaidHoldNeedsTheOwnersSession: a paid seat's hold (table "open") for another account's
// Badge, or with no session, is refused and holds nothing.
func TestOTSPaidHoldNeedsTheOwnersSession(t *testing.T) {
	v := newOTSEnv(t)
	fp := &fakePaid{token: "st_ots"}
	v.mount(func(o *Options) { o.Paid = fp })
	if code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[{"agent":"`+otsForeign+`"}]}`); code != 403 || m["code"] != "forbidden" {
		t.Fatalf("a foreign Badge's hold: %d %v", code, m)
	}
	v.tok = ""
	if code, m := v.do("POST", "/v1/ots/join", `{"table":"open","agents":[{"agent":"`+otsA+`"}]}`); code != 401 || m["code"] != "unauthorized" {
		t.Fatalf("a hold with no session: %d %v", code, m)
	}
	if fp.seat.Agent.ID != "" {
		t.Fatalf("held %+v", fp.seat)
	}
}
