package play

import (
	"strings"
	"testing"
)

// TestSocketRefusalEchoingALongMatchID: a frame under the 8 KB cap whose match_id is nearly all
// of it is refused with its own code (not_joined before a join, unknown_match after), the error
// frame cut to fit the cap, never turned into an internal error.
func TestSocketRefusalEchoingALongMatchID(t *testing.T) {
	r := newRig(t, nil)
	long := strings.Repeat("a", 8100)
	s := r.dial()
	ch := s.expect("challenge")
	s.sendRaw(`{"type":"state","v":0,"match_id":"` + long + `"}`)
	if e := s.expect("error"); e["code"] != CodeNotJoined {
		t.Fatalf("state before join: %v", e["code"])
	}
	s.send(newKey(t, 7).joinMsg(t, "coin", ch["nonce"].(string), true))
	s.expect("queued")
	s.sendRaw(`{"type":"move","v":0,"match_id":"` + long + `","round":1,"turn":0,"action":"cooperate"}`)
	if e := s.expect("error"); e["code"] != "unknown_match" {
		t.Fatalf("move for a long match id: %v", e["code"])
	}
}
