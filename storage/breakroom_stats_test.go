package storage

import (
	"errors"
	"testing"
)

// Break Room's counters add up across writes and a reopen; a day's seen marks are dropped once a
// later day writes one; bad days and parts are refused; the file checks clean.
func TestBreakroomStatsAddUpAndForgetYesterday(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.AddBreakroomStats([]BreakroomStatDelta{{Day: "2026-12-01", Counter: "join_ws", N: 2},
		{Day: "2026-12-01", Seen: "aaaa"}, {Day: "2026-12-01", Seen: "bbbb"}}))
	must(s.AddBreakroomStats([]BreakroomStatDelta{{Day: "2026-12-01", Counter: "join_ws", N: 3}}))
	for _, bad := range []BreakroomStatDelta{{Day: "2026-1-01", Counter: "x", N: 1}, {Day: "2026-12-01", Counter: "a/b", N: 1},
		{Day: "2026-12-01", Counter: "", N: 1}, {Day: "2026-12-01", Seen: "a/b"}} {
		if err := s.AddBreakroomStats([]BreakroomStatDelta{bad}); !errors.Is(err, ErrBadKey) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	must(err)
	defer s2.Close()
	must(s2.AddBreakroomStats([]BreakroomStatDelta{{Day: "2026-12-02", Counter: "join_http", N: 1}, {Day: "2026-12-02", Seen: "cccc"}}))
	got := map[string]int64{}
	must(s2.BreakroomStats("2026-12-01", "2026-12-02", func(day, c string, n int64) error { got[day+" "+c] = n; return nil }))
	if len(got) != 2 || got["2026-12-01 join_ws"] != 5 || got["2026-12-02 join_http"] != 1 {
		t.Fatalf("counters %v", got)
	}
	var seen []string
	must(s2.BreakroomSeen("2026-12-01", func(h string) error { seen = append(seen, h); return nil }))
	must(s2.BreakroomSeen("2026-12-02", func(h string) error { seen = append(seen, "today:"+h); return nil }))
	if len(seen) != 1 || seen[0] != "today:cccc" {
		t.Fatalf("seen marks %v, want only today's", seen)
	}
	must(s2.Check())
}
