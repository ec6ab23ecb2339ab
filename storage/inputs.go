package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The input log. Each table that logs its inputs has a bucket of its own inside BucketInputs
// (on disk "journal"), named by the table id, with one input per key: <seq: 8 bytes BE> →
// the input's bytes (the table's encoding; storage does not read them). Seqs start at 1 and
// follow bbolt's bucket sequence, so they are dense and ordered, and an input once written keeps
// its seq. CommitInputs appends in the same transaction as the step's record and events; a
// table's log is read back whole (Inputs) or in order (ScanInputs), and dropped with
// DeleteInputs.

// Input is one logged input: its seq in the table's log and its bytes.
type Input struct {
	Seq  uint64
	Data []byte
}

// appendInputs appends inputs to tableID's log inside tx.
func appendInputs(tx *bolt.Tx, tableID string, inputs [][]byte) error {
	if len(inputs) == 0 {
		return nil
	}
	lb, err := tx.Bucket([]byte(BucketInputs)).CreateBucketIfNotExists([]byte(tableID))
	if err != nil {
		return err
	}
	for _, in := range inputs {
		n, err := lb.NextSequence()
		if err != nil {
			return err
		}
		if err := lb.Put(binary.BigEndian.AppendUint64(nil, n), in); err != nil {
			return err
		}
	}
	return nil
}

// Inputs returns copies of table tableID's logged inputs in seq order (none when the table logs
// none).
func (s *Store) Inputs(tableID string) ([]Input, error) {
	var out []Input
	err := s.ScanInputs(tableID, func(seq uint64, data []byte) error {
		out = append(out, Input{Seq: seq, Data: data})
		return nil
	})
	return out, err
}

// ScanInputs calls fn with every input of table tableID's log in seq order (data is a copy),
// until fn returns an error, which ScanInputs returns wrapped.
func (s *Store) ScanInputs(tableID string, fn func(seq uint64, data []byte) error) error {
	if err := checkID(tableID); err != nil {
		return fmt.Errorf("storage: inputs of table %q: %w", tableID, err)
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		lb := nested(tx, BucketInputs, tableID)
		if lb == nil {
			return nil
		}
		c := lb.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("input key %x: %w", k, ErrBadKey)
			}
			if err := fn(binary.BigEndian.Uint64(k), bytes.Clone(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: inputs of table %s: %w", tableID, err)
	}
	return nil
}

// DeleteInputs drops table tableID's whole input log; a later CommitInputs starts a new log at
// seq 1. Deleting a log that does not exist is not an error.
func (s *Store) DeleteInputs(tableID string) error {
	if err := checkID(tableID); err != nil {
		return fmt.Errorf("storage: delete inputs of table %q: %w", tableID, err)
	}
	err := s.write(func(tx *bolt.Tx) error {
		err := tx.Bucket([]byte(BucketInputs)).DeleteBucket([]byte(tableID))
		if err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: delete inputs of table %s: %w", tableID, err)
	}
	return nil
}

// nested returns the bucket name inside the top-level bucket top, or nil when either is absent.
func nested(tx *bolt.Tx, top, name string) *bolt.Bucket {
	b := tx.Bucket([]byte(top))
	if b == nil {
		return nil
	}
	return b.Bucket([]byte(name))
}
