package join

import "testing"

// A paid join's format and seats reach the paid tables as sent (they refuse what they do not
// play), never dropped at the door.
func TestPaidJoinHandsOnFormatAndSeats(t *testing.T) {
	v := newEnv(t)
	fp := &fakePaid{token: "st_secret"}
	v.paid = fp
	v.mount(t)
	o := v.joinObj("nonce-paid-format-001")
	o["table"], o["format"], o["seats"] = "open", "blitz", 7
	if code, body := v.do("POST", "/v1/join", signed(t, v.key, o), nil); code != 200 {
		t.Fatalf("%d %v", code, body)
	}
	if fp.seat.Table != "open" || fp.seat.Format != "blitz" || fp.seat.Seats != 7 || fp.seat.Agent.ID != agentID {
		t.Fatalf("the paid tables were handed %+v", fp.seat)
	}
}
