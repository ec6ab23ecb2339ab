package storage

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Showings are kept through a reopen, listed by round (T-1's never T-10's) in start order; a
// later Put replaces one; bad keys are refused; a record under another showing's key fails Check.
func TestShowingsSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	at := time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC)
	a := Showing{Round: "T-1", Table: "tb1", Seq: uint32(at.Unix()), Speed: 2, Started: at, Hash: strings.Repeat("ab", 32)}
	b := Showing{Round: "T-1", Table: "tb1", Seq: uint32(at.Unix()) + 60, Speed: 10, Started: at.Add(time.Minute), Hash: a.Hash}
	c := Showing{Round: "T-10", Table: "tb10", Seq: uint32(at.Unix()), Speed: 1, Started: at, Hash: strings.Repeat("cd", 32)}
	for _, sh := range []Showing{b, a, c} {
		if err := s.PutShowing(sh); err != nil {
			t.Fatal(err)
		}
	}
	a.Tx, a.Ended = strings.Repeat("ef", 32), true
	if err := s.PutShowing(a); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Showing{{Round: "", Seq: 1}, {Round: "T-1/x", Seq: 1}, {Round: "T-1"}} {
		if err := s.PutShowing(bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("put %+v: %v, want ErrBadKey", bad, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s2.Showings("T-1")
	if err != nil || !reflect.DeepEqual(got, []Showing{a, b}) {
		t.Fatalf("showings of T-1: %+v %v, want %+v", got, err, []Showing{a, b})
	}
	all, err := s2.Showings("")
	if err != nil || len(all) != 3 {
		t.Fatalf("every showing: %+v %v", all, err)
	}
	one, err := s2.Showing("T-10", c.Seq)
	if err != nil || !reflect.DeepEqual(one, c) {
		t.Fatalf("showing T-10: %+v %v", one, err)
	}
	if _, err := s2.Showing("T-10", c.Seq+1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no such showing: %v", err)
	}
	if err := s2.Check(); err != nil {
		t.Fatalf("check: %v", err)
	}
	_ = s2.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketShowings)).Put([]byte("T-2/0000000001"), []byte(`{"round":"T-3","seq":1}`))
	})
	_ = db.Close()
	s3, err := Open(path, Options{NoSync: true, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	err = s3.Check()
	_ = s3.Close()
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "showings/") {
		t.Fatalf("a misfiled showing passed the check: %v", err)
	}
	// Mend the file for the cleanup's own check.
	db, err = bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(BucketShowings)).Delete([]byte("T-2/0000000001")) })
	_ = db.Close()
}
