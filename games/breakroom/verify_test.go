package breakroom

import "testing"

// TestInOrder: a verified log with a line stamped before the line above it fails at that line;
// a failure the re-simulation found earlier is kept, and so is an unverifiable report; a line
// whose t is no instant is left to the re-simulation.
func TestInOrder(t *testing.T) {
	lines := SplitLog([]byte(`{"seq":0,"t":"2026-10-02T08:00:01.000Z","type":"match_start"}
{"seq":1,"t":"not a time","type":"a"}
{"seq":2,"t":"2026-10-02T08:00:02.000Z","type":"b"}
{"seq":3,"t":"2026-10-02T08:00:01.500Z","type":"c"}
{"seq":4,"t":"2026-10-02T08:00:03.000Z","type":"match_end"}
`))
	ok := Report{OK: true, Lines: 5, Checked: 5, End: "match_end", At: -1, Seq: -1}
	if r := InOrder(lines, ok); r.OK || r.At != 3 || r.Seq != 3 || r.Type != "c" || r.Checked != 3 || r.End != "match_end" {
		t.Fatalf("verified log: %+v, want a failure at line 3 (seq 3)", r)
	}
	for _, rep := range []Report{
		{Lines: 5, Checked: 2, At: 2, Seq: 2, Type: "b", Reason: "the re-simulation writes another line here"},
		{Lines: 5, At: 4, Seq: 4, Unverifiable: true},
	} {
		if r := InOrder(lines, rep); r != rep {
			t.Fatalf("%+v became %+v", rep, r)
		}
	}
	if r := InOrder(lines[:3], ok); r != ok {
		t.Fatalf("in order: %+v", r)
	}
}
