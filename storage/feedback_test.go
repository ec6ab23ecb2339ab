package storage

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Notes are kept in arrival order through a reopen, numbered from 1; a note outside its bounds
// is refused and writes nothing; a read pages by seq.
func TestFeedbackNotesSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	at := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	for i, n := range []FeedbackNote{
		{At: at, Via: FeedbackHTTP, Text: "the bell rang late"},
		{At: at.Add(time.Second), Via: FeedbackMCP, From: "walkin:" + strings.Repeat("ab", 32), Round: "T-7", Text: "é 😀 fine"},
		{At: at.Add(2 * time.Second), Via: FeedbackHTTP, Text: strings.Repeat("é", MaxFeedbackText)},
	} {
		got, err := s.AddFeedback(n)
		if err != nil || got.Seq != uint64(i+1) {
			t.Fatalf("note %d: seq %d, %v", i, got.Seq, err)
		}
	}
	for _, bad := range []FeedbackNote{
		{Via: FeedbackHTTP},
		{Via: FeedbackHTTP, Text: strings.Repeat("x", MaxFeedbackText+1)},
		{Via: FeedbackHTTP, Text: "bad \xff utf-8"},
		{Via: "fax", Text: "hello"},
		{Via: FeedbackHTTP, Text: "hi", Round: strings.Repeat("T", MaxFeedbackFrom+1)},
	} {
		if _, err := s.AddFeedback(bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("note %+v: %v, want ErrBadKey", bad, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	all, err := s2.FeedbackNotes(0, 0)
	if err != nil || len(all) != 3 || all[1].Round != "T-7" || all[1].Via != FeedbackMCP || !all[0].At.Equal(at) || all[2].Seq != 3 {
		t.Fatalf("notes %+v, %v", all, err)
	}
	page, err := s2.FeedbackNotes(1, 1)
	if err != nil || len(page) != 1 || page[0].Seq != 2 {
		t.Fatalf("page after 1: %+v, %v", page, err)
	}
	if rest, err := s2.FeedbackNotes(3, 10); err != nil || len(rest) != 0 {
		t.Fatalf("after the last: %+v, %v", rest, err)
	}
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}

// A bucket holding MaxFeedbackNotes notes refuses the next with ErrFull; once an operator has
// trimmed the notes it read, it takes new ones again, under sequence numbers never used before.
// The bound is on the notes kept, not on every note ever sent: a box that was once full is not
// full for good.
func TestFeedbackFullUntilTrimmed(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	if err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketFeedback))
		for seq := uint64(1); seq <= MaxFeedbackNotes; seq++ {
			v, _ := json.Marshal(FeedbackNote{Seq: seq, Via: FeedbackHTTP, Text: "n"})
			if err := b.Put(u64(seq), v); err != nil {
				return err
			}
		}
		return b.SetSequence(MaxFeedbackNotes)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFeedback(FeedbackNote{Via: FeedbackHTTP, Text: "one too many"}); !errors.Is(err, ErrFull) {
		t.Fatalf("past the bound: %v", err)
	}
	if n, err := s.TrimFeedback(10); err != nil || n != 10 {
		t.Fatalf("trim through 10: %d %v", n, err)
	}
	if n, err := s.TrimFeedback(10); err != nil || n != 0 {
		t.Fatalf("trim through 10 again: %d %v", n, err)
	}
	for i := 0; i < 10; i++ {
		n, err := s.AddFeedback(FeedbackNote{Via: FeedbackHTTP, Text: "room again"})
		if err != nil || n.Seq != MaxFeedbackNotes+uint64(i)+1 {
			t.Fatalf("note %d after the trim: %+v %v", i, n, err)
		}
	}
	if _, err := s.AddFeedback(FeedbackNote{Via: FeedbackHTTP, Text: "full again"}); !errors.Is(err, ErrFull) {
		t.Fatalf("past the bound again: %v", err)
	}
	first, err := s.FeedbackNotes(0, 1)
	if err != nil || len(first) != 1 || first[0].Seq != 11 {
		t.Fatalf("the oldest note kept: %+v %v", first, err)
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}

// A box never full, whose sequence passed MaxFeedbackNotes long ago, takes notes.
func TestFeedbackBoundIsOnNotesKept(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if err := s.write(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketFeedback)).SetSequence(3 * MaxFeedbackNotes)
	}); err != nil {
		t.Fatal(err)
	}
	n, err := s.AddFeedback(FeedbackNote{Via: FeedbackHTTP, Text: "still room"})
	if err != nil || n.Seq != 3*MaxFeedbackNotes+1 {
		t.Fatalf("%+v %v", n, err)
	}
}

// Check names every note out of the layout: a key not an 8-byte seq, past the bucket's sequence
// or holding another note's seq, a note that does not decode or breaks a bound.
func TestFeedbackCheckFindsDamage(t *testing.T) {
	checkDamage(t, BucketFeedback, []damaged{
		{string(u64(1)), []byte("{"), "note does not decode"},
		{"seven", mustJSON(FeedbackNote{Seq: 7, Via: FeedbackHTTP, Text: "x"}), "not an 8-byte seq"},
		{string(u64(2)), mustJSON(FeedbackNote{Seq: 3, Via: FeedbackHTTP, Text: "x"}), "note 3 under key 2"},
		{string(u64(4)), mustJSON(FeedbackNote{Seq: 4, Via: FeedbackHTTP}), "text of 0 bytes"},
		{string(u64(99)), mustJSON(FeedbackNote{Seq: 99, Via: FeedbackHTTP, Text: "x"}), "not a note's seq"},
	})
}
