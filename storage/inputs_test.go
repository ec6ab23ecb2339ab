package storage

import (
	"errors"
	"fmt"
	"testing"

	"arena/games"
)

// CommitInputs appends a table's inputs after the ones stored before, in the order given, and
// Inputs reads them back so; tables' logs are separate, a table without one has none, and a
// failed commit stores none of its inputs.
func TestCommitInputsAppendsInOrder(t *testing.T) {
	s, path := openTest(t, Options{})
	if err := s.CommitInputs("tbl-1", []byte("rec1"), [][]byte{[]byte(`{"n":1}`), []byte(`{"n":2}`)},
		[]games.Event{ev("T-1", 1, "a")}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitInputs("tbl-2", []byte("other"), [][]byte{[]byte(`{"x":1}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitInputs("tbl-1", []byte("rec2"), [][]byte{[]byte(`{"n":3}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitStep("tbl-1", []byte("rec3"), nil); err != nil { // no entries: the journal stays
		t.Fatal(err)
	}
	if err := s.CommitInputs("tbl-1", nil, [][]byte{[]byte(`{"n":4}`)}, []games.Event{ev("T-1", 2, "b")}); err != nil {
		t.Fatal(err) // no record: the stored one stays, the entry and the event are stored
	}
	s.hook = func(string) error { return errors.New("disk full") }
	if err := s.CommitInputs("tbl-1", []byte("rec4"), [][]byte{[]byte(`{"n":5}`)}, nil); err == nil {
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
	got, err := s2.Inputs("tbl-1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":4}`}
	if len(got) != len(want) {
		t.Fatalf("inputs %+v, want %q", got, want)
	}
	for i := range want {
		if string(got[i].Data) != want[i] || got[i].Seq != uint64(i+1) {
			t.Fatalf("input %d %d %q, want %d %q", i, got[i].Seq, got[i].Data, i+1, want[i])
		}
	}
	if rec, _ := s2.LoadTable("tbl-1"); string(rec) != "rec3" {
		t.Fatalf("record %q, want rec3", rec)
	}
	if evs, err := s2.Events("T-1"); err != nil || len(evs) != 2 || evs[1].Seq != 2 {
		t.Fatalf("events %v %v", evs, err)
	}
	if other, _ := s2.Inputs("tbl-2"); len(other) != 1 || string(other[0].Data) != `{"x":1}` {
		t.Fatalf("tbl-2 inputs %+v", other)
	}
	if none, err := s2.Inputs("tbl-9"); err != nil || len(none) != 0 {
		t.Fatalf("a table with no inputs: %+v %v", none, err)
	}
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}

// ScanInputs stops at fn's error; DeleteInputs drops one table's log only, and the next commit
// starts a fresh log at seq 1.
func TestScanAndDeleteInputs(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	for _, tbl := range []string{"a", "b"} {
		if err := s.CommitInputs(tbl, []byte("r"), [][]byte{[]byte("1"), []byte("2"), []byte("3")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	stop := errors.New("enough")
	var seen []uint64
	err := s.ScanInputs("a", func(seq uint64, data []byte) error {
		seen = append(seen, seq)
		if string(data) == "2" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || fmt.Sprint(seen) != "[1 2]" {
		t.Fatalf("scan: %v %v", seen, err)
	}
	if err := s.DeleteInputs("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteInputs("never"); err != nil {
		t.Fatalf("deleting an absent log: %v", err)
	}
	if in, _ := s.Inputs("a"); len(in) != 0 {
		t.Fatalf("deleted log still holds %+v", in)
	}
	if in, _ := s.Inputs("b"); len(in) != 3 {
		t.Fatalf("the other table's log: %+v", in)
	}
	if err := s.CommitInputs("a", nil, [][]byte{[]byte("x")}, nil); err != nil {
		t.Fatal(err)
	}
	if in, _ := s.Inputs("a"); len(in) != 1 || in[0].Seq != 1 || string(in[0].Data) != "x" {
		t.Fatalf("log after delete: %+v", in)
	}
	if _, err := s.Inputs("a/b"); !errors.Is(err, ErrBadKey) {
		t.Fatalf("bad table id: %v", err)
	}
}
