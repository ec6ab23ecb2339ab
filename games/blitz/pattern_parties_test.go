package blitz

import (
	"reflect"
	"testing"

	"arena/games"
)

// The match's pattern counter keeps no map of the round's commitments (its settlements name
// their parties), yet counts what PatternOf counts from the public log, breaches included.
func TestPatternCounterWithoutParties(t *testing.T) {
	h, _ := playHouseRound(t)
	if h.m.pattern.parties != nil {
		t.Error("the match's counter keeps a map of the commitments")
	}
	evs := mustEvents(h.m.Events())
	var pub []games.Event
	for _, e := range evs {
		if e.Visibility == visPublic {
			pub = append(pub, e)
		}
	}
	got, want := h.m.pattern.patterns(), PatternOf(pub)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the match counted\n%+v\nPatternOf counts\n%+v", got, want)
	}
	breaches := 0
	for _, p := range got {
		breaches += p.Breaches
		if p.Breaches < 0 || p.CounterpartyBreaches < 0 {
			t.Fatalf("%+v", p)
		}
	}
	if breaches == 0 {
		t.Fatal("the house round has no breach: the test counts none")
	}
}
