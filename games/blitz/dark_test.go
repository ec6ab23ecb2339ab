package blitz

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// allByo makes every seat of s a BYO agent (kind "byo", not a walk-in): the seats the §8.2
// step 3 dark check applies to.
func allByo(s games.Setup) games.Setup {
	for i := range s.Seats {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Kind, o.Walkin = "byo", false })
	}
	return s
}

// §8.2 step 3: "Any BYO agent with two consecutive empty turns is marked dark". A silent round
// marks dark exactly the BYO seats (kind "byo", or "" which seat.taken shows as "byo") that are
// not walk-ins, at the settle of turn 2, once each; walk-ins (§4.5 Away is theirs), ots, house
// and arena seats are never marked dark.
func TestDarkOnlyByoSeats(t *testing.T) {
	s := testSetup("blitz", 8, `{"mole":8,"task":{"kind":"broker","named":[]}}`)
	kinds := []struct {
		kind   string
		walkin bool
		human  bool
	}{{"byo", false, false}, {"", false, false}, {"byo", true, false}, {"walkin", true, true},
		{"ots", false, true}, {"house", false, false}, {"arena", false, false}, {"walkin", true, false}}
	for i, k := range kinds {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Kind, o.Walkin, o.Human = k.kind, k.walkin, k.human })
	}
	h := newHarness(t, s)
	h.finish()
	dk := h.events("agent.dark")
	if len(dk) != 2 {
		t.Fatalf("agent.dark events %d, want 2 (seats 1 and 2): %+v", len(dk), dk)
	}
	for i, e := range dk {
		var p struct {
			Seat int  `json:"seat"`
			Dark bool `json:"dark"`
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if p.Seat != i+1 || !p.Dark || e.Turn != 2 || e.Phase != "settle" || e.Visibility != visPublic {
			t.Fatalf("agent.dark %d: %+v payload %s, want seat %d dark at turn 2 settle, public", i, e, e.Payload, i+1)
		}
	}
	for seat := 1; seat <= 8; seat++ {
		if got, want := h.account(seat).Dark, seat <= 2; got != want {
			t.Fatalf("seat %d (%+v) dark %v, want %v", seat, kinds[seat-1], got, want)
		}
	}
}
