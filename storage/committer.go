package storage

import (
	"errors"

	bolt "go.etcd.io/bbolt"
)

// Group commit. Every write of the Store goes through one committer goroutine, which takes
// every write waiting, applies them all in one bbolt transaction (one fsync pair for the
// lot) and answers each. While a transaction is being written the next group gathers, so the
// group grows with the disk's latency: under load a commit waits about two transactions, never
// a queue of small ones. (bbolt's own Batch starts a transaction per 10 ms window, each paying
// its fsync in turn, and measured five to ten times slower here: docs/performance.md.)
//
// If one write fails inside a group, the group is rolled back, the failing write is run alone
// (its own error goes to its caller) and the rest run again: a write function may therefore run
// more than once and must be idempotent, as with bolt.DB.Batch.

// maxGroup bounds one transaction's writes.
const maxGroup = 4096

var errClosed = errors.New("storage: store closed")

type writeReq struct {
	fn   func(*bolt.Tx) error
	done chan error
}

func (s *Store) startCommitter() {
	s.reqs = make(chan writeReq, maxGroup)
	s.stopped = make(chan struct{})
	go s.committer()
}

// write runs fn in a write transaction shared with whatever else is waiting.
func (s *Store) write(fn func(*bolt.Tx) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return errClosed
	}
	req := writeReq{fn: fn, done: make(chan error, 1)}
	s.reqs <- req
	s.closeMu.RUnlock()
	return <-req.done
}

func (s *Store) committer() {
	defer close(s.stopped)
	for first := range s.reqs {
		group := append(make([]writeReq, 0, 64), first)
	gather:
		for len(group) < maxGroup {
			select {
			case r, ok := <-s.reqs:
				if !ok {
					break gather
				}
				group = append(group, r)
			default:
				break gather
			}
		}
		s.runGroup(group)
	}
}

func (s *Store) runGroup(group []writeReq) {
	for len(group) > 0 {
		failed := -1
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i, r := range group {
				if err := r.fn(tx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 { // committed, or the commit itself failed: everyone shares the outcome
			if err == nil {
				s.commits.Add(1)
			}
			for _, r := range group {
				r.done <- err
			}
			return
		}
		bad := group[failed]
		group = append(group[:failed:failed], group[failed+1:]...)
		err = s.db.Update(bad.fn)
		if err == nil {
			s.commits.Add(1)
		}
		bad.done <- err
	}
}
