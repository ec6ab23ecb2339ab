package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The ledger bucket: money rows, append-only (docs/design.md, "Storage"). Key: the row's sequence
// number, 8 bytes big endian, from 1 with no gap; value: the row as its owner encodes it
// (actors/ledger owns the shape). A row once written is never changed or deleted: the ledger's
// state is rebuilt by reading every row in order.

// AppendLedger writes rows under the sequence numbers first, first+1, … in one transaction
// (group-committed with other writers), and returns once they are durable. first must be one
// past the last row in the bucket (1 for an empty one): otherwise nothing is written and the
// error wraps ErrExists (the sequence is taken: two writers, or a stale one) or ErrBadKey (a gap,
// or first is 0). An empty rows is a no-op. A row may not be empty.
func (s *Store) AppendLedger(first uint64, rows [][]byte) error {
	if len(rows) == 0 {
		return nil
	}
	if first == 0 {
		return fmt.Errorf("storage: append ledger at 0: %w", ErrBadKey)
	}
	for i, r := range rows {
		if len(r) == 0 {
			return fmt.Errorf("storage: append ledger %d: empty row: %w", first+uint64(i), ErrBadKey)
		}
	}
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketLedger))
		last := lastLedger(b)
		switch {
		case first <= last:
			return fmt.Errorf("row %d exists (last %d): %w", first, last, ErrExists)
		case first != last+1:
			return fmt.Errorf("row %d leaves a gap after %d: %w", first, last, ErrBadKey)
		}
		for i, r := range rows {
			if err := b.Put(u64(first+uint64(i)), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: append ledger %d..%d: %w", first, first+uint64(len(rows))-1, err)
	}
	return nil
}

// LedgerRows calls fn for every row with a sequence number of at least from, in order, with a
// copy of the row, until fn returns an error, which LedgerRows returns wrapped. A key that is not
// 8 bytes (never written by AppendLedger) fails with ErrCorrupt.
func (s *Store) LedgerRows(from uint64, fn func(seq uint64, row []byte) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(BucketLedger)).Cursor()
		for k, v := c.Seek(u64(from)); k != nil; k, v = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("key %x: %w", k, ErrCorrupt)
			}
			if err := fn(binary.BigEndian.Uint64(k), bytes.Clone(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: ledger rows from %d: %w", from, err)
	}
	return nil
}

// LastLedgerSeq is the sequence number of the last ledger row (0: none).
func (s *Store) LastLedgerSeq() (uint64, error) {
	var last uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		last = lastLedger(tx.Bucket([]byte(BucketLedger)))
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storage: last ledger row: %w", err)
	}
	return last, nil
}

func lastLedger(b *bolt.Bucket) uint64 {
	k, _ := b.Cursor().Last()
	if len(k) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}
