package dotdotdot

import (
	"fmt"
	"strings"
	"testing"

	"arena/games/blitz"
)

// The display names at one table are distinct, case-insensitively: a walk-in named "Basil"
// never sits beside a house seat drawn from the roster (Ada, Basil, Cleo, …) as "Basil". §9: "A call names a seat when its text
// contains `seat ` or the seat's display name": a call naming Basil would name two seats (the
// veto task's rung 2 is decided on it), the board and the walk-in's record against "Basil"
// (vs_house, kept by name) would mix the two, and no brief could tell them apart. The
// round-script runner refuses seat names equal case-insensitively for the same reason
// (docs/protocol-notes.md, arena sim).
func TestHostileWalkinNamedLikeHouseSeat(t *testing.T) {
	for _, name := range []string{"Basil", "basil", "HANA"} {
		for i := 0; i < 40; i++ {
			id := fmt.Sprintf("p%016x", i)
			spec, _ := walkinTableSpec(id, "practice", "blitz", 6, blitz.ChatPace(), []lobbyWalkin{{Hash: "h", Name: name, Mailbox: "m"}}, nil)
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
