package blitz

import (
	"encoding/json"
	"testing"
)

// seat.taken (§15) carries each seat's owner, the CAIP-10 account that owns its Badge, and its
// kind in the spec's words: ots (on the house model), byo (the player's own agent: a walk-in's
// too, whose answers are its own), arena (the roster: the house's agents). An owner the table
// was not told is null, never a guess.
func TestSeatTakenOwnerAndKind(t *testing.T) {
	const house = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBxHouse"
	const alice = "ccd:4221332d34e1694168c2a0c0b3fd0f27:3kBxAlice"
	seats := []struct {
		opts      SeatOptions
		wantKind  string
		wantOwner any
	}{
		{SeatOptions{Kind: "walkin", Walkin: true, Human: true, Owner: house}, "byo", house},
		{SeatOptions{Kind: "house", Walkin: true, Owner: house}, "arena", house},
		{SeatOptions{Kind: "arena", Owner: house}, "arena", house},
		{SeatOptions{Kind: "ots", Human: true, Owner: alice}, "ots", alice},
		{SeatOptions{Kind: "byo", Human: true, Owner: alice}, "byo", alice},
		{SeatOptions{}, "byo", nil},
	}
	s := testSetup("blitz", len(seats), `{}`)
	for i, c := range seats {
		c.opts.Collateral = 100 * ccd
		s.Seats[i].Options = c.opts.JSON()
	}
	h := newHarness(t, s)
	st := h.next()
	n := 0
	for _, e := range st.Events {
		if e.Type != "seat.taken" {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		c := seats[n]
		n++
		owner, has := p["owner"]
		if p["kind"] != c.wantKind || !has || owner != c.wantOwner {
			t.Errorf("seat %v (kind %q): seat.taken kind %v owner %v (present %v), want kind %q owner %v",
				p["seat"], c.opts.Kind, p["kind"], owner, has, c.wantKind, c.wantOwner)
		}
		for _, m := range []string{"seat", "agent", "name", "rating", "arena", "owner", "human", "kind"} {
			if _, ok := p[m]; !ok {
				t.Errorf("seat %v: seat.taken has no %q (§15)", p["seat"], m)
			}
		}
	}
	if n != len(seats) {
		t.Fatalf("%d seat.taken events, want %d", n, len(seats))
	}
}
