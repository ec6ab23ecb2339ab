package storage

import (
	"errors"
	"testing"
	"testing/synctest"

	bolt "go.etcd.io/bbolt"
)

// A write that fails inside a group is rolled back with the group and run alone; the group's
// other writes run again, so each must leave the same result however often it runs: a counter
// taken in a group with a failing write is the next one, not two past it, and the group's
// commits are counted once. It runs in a synctest bubble, so "the writes are queued" is read once
// every goroutine is blocked (synctest.Wait), not polled.
func TestGroupWithFailingWriteRunsTheRestAgain(t *testing.T) {
	synctest.Test(t, groupWithFailingWriteRunsTheRestAgain)
}

func groupWithFailingWriteRunsTheRestAgain(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	started, release := make(chan struct{}), make(chan struct{})
	busy := make(chan error, 1)
	go func() { // holds the committer so that the next two writes queue into one group
		busy <- s.write(func(*bolt.Tx) error { close(started); <-release; return nil })
	}()
	waitQueued := func(n int) {
		t.Helper()
		synctest.Wait() // the writer goroutines are blocked: on the queue, or queued
		if len(s.reqs) != n {
			t.Fatalf("%d writes queued, want %d", len(s.reqs), n)
		}
	}
	<-started // the committer is inside the holding write's transaction
	got := make(chan uint64, 1)
	go func() {
		n, err := s.Next("c")
		if err != nil {
			t.Error(err)
		}
		got <- n
	}()
	waitQueued(1)
	boom := errors.New("boom")
	failed := make(chan error, 1)
	go func() { failed <- s.write(func(*bolt.Tx) error { return boom }) }()
	waitQueued(2)
	close(release)
	if err := <-busy; err != nil {
		t.Fatal(err)
	}
	if err := <-failed; !errors.Is(err, boom) {
		t.Fatalf("the failing write returned %v", err)
	}
	if n := <-got; n != 1 {
		t.Fatalf("Next in a group with a failing write = %d, want 1", n)
	}
	if n, _ := s.Next("c"); n != 2 {
		t.Fatalf("the following Next = %d, want 2", n)
	}
	if c := s.Stats().Commits; c != 3 { // the holding write, the group, the last Next
		t.Fatalf("commits = %d, want 3", c)
	}
}
