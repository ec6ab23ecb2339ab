package dotdotdot

import (
	"fmt"
	"strings"
	"testing"
)

// Found by tester T1: POST /v1/walkin {"name":"Basil"} is accepted (201), and the house seats
// of its Practice table are drawn from the roster Ada, Basil, Cleo, … without regard to the
// walk-in's name, so a table can seat two "Basil"s. §9: "A call names a seat when its text
// contains `seat ` or the seat's display name": a call naming Basil then names two seats (the
// veto task's rung 2 is decided on it), the board and the walk-in's record against "Basil"
// (vs_house, kept by name) mix the two, and the table cannot tell them apart in any brief. The
// round-script runner already refuses seat names equal case-insensitively for this very reason
// (docs/protocol-notes.md, arena sim). Right behaviour: the display names at one table are
// distinct, case-insensitively.
func TestHostileWalkinNamedLikeHouseSeat(t *testing.T) {
	for _, name := range []string{"Basil", "basil", "HANA"} {
		for i := 0; i < 40; i++ {
			id := fmt.Sprintf("p%016x", i)
			spec, _ := walkinTableSpec(id, "practice", "blitz", 6, chatPace, []lobbyWalkin{{Hash: "h", Name: name, Mailbox: "m"}}, nil)
			seen := map[string]int{}
			for _, s := range spec.Seats {
				k := strings.ToLower(s.Seat.Name)
				if prev, dup := seen[k]; dup {
					t.Fatalf("table %s seats %q twice: seat %d and seat %d", id, s.Seat.Name, prev, s.Seat.Seat)
				}
				seen[k] = s.Seat.Seat
			}
		}
	}
}
