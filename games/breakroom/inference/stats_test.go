package inference

import (
	"testing"

	"arena/games"
)

// TestStatsWorkedExample: §2.10's reputation figures (testdata/worked_example.md): seat 2 raised
// once holding 8 and was caught; seats 0 and 1 raised once each, holding 60 and 82, and won.
// bluffs are counted only from the full log (deal_private lines); the public log has none.
func TestStatsWorkedExample(t *testing.T) {
	tb := workedExample(t)
	res, _ := tb.m.Result()
	got := Engine{}.Stats(res, tb.evs)
	want := map[int]map[string]float64{
		1: {"credits": 105, "busted": 0, "timeouts": 0, "raises": 1, "bluffs": 0, "caught": 0},
		2: {"credits": 112, "busted": 0, "timeouts": 1, "raises": 1, "bluffs": 0, "caught": 0},
		3: {"credits": 83, "busted": 0, "timeouts": 0, "raises": 1, "bluffs": 1, "caught": 1},
	}
	for seat, w := range want {
		for k, v := range w {
			if got[seat][k] != v {
				t.Fatalf("seat %d %s = %v, want %v (all: %v)", seat-1, k, got[seat][k], v, got)
			}
		}
		if len(got[seat]) != len(w) {
			t.Fatalf("seat %d figures %v, want %v", seat-1, got[seat], w)
		}
	}
	var public []games.Event
	for _, e := range tb.evs {
		if e.Visibility == games.Public {
			public = append(public, e)
		}
	}
	pub := Engine{}.Stats(res, public)
	if _, ok := pub[3]["bluffs"]; ok || pub[3]["caught"] != 1 || pub[3]["raises"] != 1 {
		t.Fatalf("figures from the public lines: %v (bluffs need the dealt values)", pub)
	}
}
