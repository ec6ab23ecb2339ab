package blitz

import (
	"reflect"
	"strings"
	"testing"

	"arena/games"
)

// A round that anchors its opening alone (Options.Anchors "opened": §5.5, "Free play anchors its
// opening and nothing more") asks for the open-round anchor, seq 1, and no other anchor, sealed
// commitments, exchanges and the reveal included; round.created says so, and the anchor plan a
// transcript's reader rebuilds holds the opened anchor alone. Every other round's round.created
// is unchanged.
func TestAnchorsOpenedAlone(t *testing.T) {
	s := testSetup("blitz", 6, `{"anchors":"opened"}`)
	h := newHarness(t, s)
	h.next()
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(c(2, 2*ccd, 1)))
	h.finish()
	var all []games.AnchorRequest
	for _, st := range h.steps {
		all = append(all, st.Anchors...)
	}
	if len(all) != 1 || all[0].Kind != "opened" || all[0].Seq != 1 || all[0].Hash != h.m.openH {
		t.Fatalf("anchors %+v", all)
	}
	if len(h.events("commitment.sealed")) == 0 {
		t.Fatal("no commitment was sealed: the round tests nothing")
	}
	created := h.events("round.created")
	if len(created) != 1 || !strings.Contains(string(created[0].Payload), `"anchors":"opened"`) {
		t.Fatalf("round.created %s", created[0].Payload)
	}
	evs, err := h.m.Events()
	if err != nil {
		t.Fatal(err)
	}
	plan := NewEngine(DefaultFees()).AnchorPlan(evs)
	if len(plan) != 1 || plan[0].Kind != "opened" {
		t.Fatalf("plan %+v", plan)
	}
	// The same round anchoring everything plans every anchor, and its round.created says nothing.
	full := newHarness(t, testSetup("blitz", 6, ""))
	full.finish()
	if strings.Contains(string(full.events("round.created")[0].Payload), `"anchors"`) {
		t.Fatal("a round anchoring everything names its anchors")
	}
	kinds := map[string]int{}
	fevs, err := full.m.Events()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range NewEngine(DefaultFees()).AnchorPlan(fevs) {
		kinds[a.Kind]++
	}
	if !reflect.DeepEqual(kinds, map[string]int{"opened": 1, "exchange": 15, "turn": 1, "transcript": 1}) {
		t.Fatalf("full plan %v", kinds)
	}
	// The input log replays to the same match.
	if got, err := h.replayLog().Events(); err != nil || !reflect.DeepEqual(got, evs) {
		t.Fatalf("the replayed round differs (%v)", err)
	}
}

func TestAnchorsOptionRefused(t *testing.T) {
	for _, bad := range []string{`{"anchors":"none"}`, `{"anchors":"exchange"}`, `{"anchors":1}`} {
		if _, err := NewEngine(DefaultFees()).New(testSetup("blitz", 6, bad), nil); !isCode(err, games.CodeBadRequest, false) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
