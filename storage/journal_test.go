package storage

import (
	"arena/games"
	"errors"
	"testing"
)

// CommitJournal appends a table's entries after the ones stored before, in the order given, and
// LoadJournal reads them back so; tables' journals are separate, a table without one has none,
// and a failed commit stores none of its entries.
func TestCommitJournalAppendsInOrder(t *testing.T) {
	s, path := openTest(t, Options{})
	if err := s.CommitJournal("tbl-1", []byte("rec1"), [][]byte{[]byte(`{"n":1}`), []byte(`{"n":2}`)},
		[]games.Event{ev("T-1", 1, "a")}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitJournal("tbl-2", []byte("other"), [][]byte{[]byte(`{"x":1}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitJournal("tbl-1", []byte("rec2"), [][]byte{[]byte(`{"n":3}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitStep("tbl-1", []byte("rec3"), nil); err != nil { // no entries: the journal stays
		t.Fatal(err)
	}
	if err := s.CommitJournal("tbl-1", nil, [][]byte{[]byte(`{"n":4}`)}, []games.Event{ev("T-1", 2, "b")}); err != nil {
		t.Fatal(err) // no record: the stored one stays, the entry and the event are stored
	}
	s.hook = func(string) error { return errors.New("disk full") }
	if err := s.CommitJournal("tbl-1", []byte("rec4"), [][]byte{[]byte(`{"n":5}`)}, nil); err == nil {
		t.Fatal("the hook's failure was not returned")
	}
	s.hook = nil
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.LoadJournal("tbl-1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":4}`}
	if len(got) != len(want) {
		t.Fatalf("journal %q, want %q", got, want)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Fatalf("entry %d %q, want %q", i, got[i], want[i])
		}
	}
	if rec, _ := s2.LoadTable("tbl-1"); string(rec) != "rec3" {
		t.Fatalf("record %q, want rec3", rec)
	}
	if evs, err := s2.Events("T-1"); err != nil || len(evs) != 2 || evs[1].Seq != 2 {
		t.Fatalf("events %v %v", evs, err)
	}
	if other, _ := s2.LoadJournal("tbl-2"); len(other) != 1 || string(other[0]) != `{"x":1}` {
		t.Fatalf("tbl-2 journal %q", other)
	}
	if none, err := s2.LoadJournal("tbl-9"); err != nil || len(none) != 0 {
		t.Fatalf("a table with no journal: %q %v", none, err)
	}
}
