package storage

import (
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

// A bucket holding MaxFeedbackNotes notes refuses the next with ErrFull.
func TestFeedbackFull(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if err := s.write(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketFeedback)).SetSequence(MaxFeedbackNotes)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFeedback(FeedbackNote{Via: FeedbackHTTP, Text: "one too many"}); !errors.Is(err, ErrFull) {
		t.Fatalf("past the bound: %v", err)
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
