package blitz

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// A "scripted" input (in Act's contract, though no door sends one) never poisons the snapshot.
// act.go's scripted never reads the body; logged as it came, a body that is not JSON
// (`not json`) would sit in the match's input log and fail every Snapshot from then on
// (json.Marshal of the json.RawMessage refuses it), so the table could never commit again. The
// match either refuses such a body (bad_request, the match unchanged) or logs the input without
// it (a scripted input has no body): in both cases the snapshot is still taken, and a match
// restored from it hands out the same prompts.
func TestScriptedBodyNeverPoisonsSnapshot(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":4,"task":{"kind":"broker","named":[]}}`)
	seatOpts(&s.Seats[5], func(o *SeatOptions) { o.Kind = "house" })
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	_, err := h.m.Act(h.now.Add(1), games.Input{Seat: 6, Kind: "scripted", Move: h.m.Phase(), Body: json.RawMessage(`not json`)})
	if ge, ok := err.(*games.Error); err != nil && (!ok || ge.Code == "") {
		t.Fatalf("scripted refused without a code: %v", err)
	}
	snap, serr := h.m.Snapshot()
	if serr != nil {
		t.Fatalf("after a scripted input with a non-JSON body (Act error: %v), Snapshot fails for good: %v", err, serr)
	}
	m, rerr := NewEngine(DefaultFees()).Restore(snap, h.keys)
	if rerr != nil {
		t.Fatalf("Restore: %v", rerr)
	}
	if promptsOf(m.(*Match)) != promptsOf(h.m) {
		t.Fatal("the restored match's prompts differ")
	}
}
