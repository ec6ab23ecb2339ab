package blitz

import "testing"

// TestDroppedInputsMatchHoldsNoRoundLog: a match starts its input log at the size of a whole
// round (logHint), which a round played through Snapshot or the benchmarks fills; a table that
// logs the inputs itself has the match let them go at every step (DropInputs), so from then on
// it holds at most a step's room between steps (journalLogRoom), not the round-sized log (18 KiB
// of a live Blitz table's heap). A snapshotted match keeps its log's room: it is filled again by
// the next inputs.
func TestDroppedInputsMatchHoldsNoRoundLog(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{}`))
	h.next() // seating closes: one input logged, the log made at round size
	if c := cap(h.m.log); c < h.m.logHint() {
		t.Fatalf("the first input's log has room for %d, want the round's %d", c, h.m.logHint())
	}
	if n := len(h.m.log); n != 1 {
		t.Fatalf("seating's close logged %d inputs, want 1", n)
	}
	h.m.DropInputs()
	for i := 0; i < 6; i++ {
		h.next()
		if n := len(h.m.log); n != 1 {
			t.Fatalf("step %d logged %d inputs, want 1", i, n)
		}
		h.m.DropInputs()
		if c := cap(h.m.log); c > journalLogRoom {
			t.Fatalf("after step %d a match that dropped its inputs holds a log with room for %d inputs, want at most %d", i, c, journalLogRoom)
		}
	}

	s := newHarness(t, testSetup("blitz", 6, `{}`))
	s.next()
	if _, err := s.m.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if c := cap(s.m.log); c < s.m.logHint() {
		t.Fatalf("a snapshotted match let its log's room go (%d, want %d)", c, s.m.logHint())
	}
}
