package blitz

import (
	"testing"

	"arena/games"
)

// playHouseRound plays a whole walk-in round with every seat on the house policy (talk,
// commitments under always, survives and backs conditions, accusations) and returns every
// anchor request its steps handed out, in order.
func playHouseRound(t *testing.T) (*harness, []games.AnchorRequest) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	e := NewEngine(DefaultFees())
	var asked []games.AnchorRequest
	take := func(st games.Step) {
		asked = append(asked, st.Anchors...)
	}
	for i := 0; i < 500; i++ {
		if _, ok := h.m.Deadline(); !ok {
			break
		}
		take(h.next())
		for _, p := range h.m.Prompts() {
			st, err := h.m.Act(h.now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: e.HouseAnswer(p, uint64(i))})
			if err != nil {
				t.Fatalf("seat %d %+v: %v", p.Seat, p.Move, err)
			}
			take(st)
		}
	}
	if _, ok := h.m.Result(); !ok {
		t.Fatal("the round did not finish")
	}
	return h, asked
}
