package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The market bucket: the Game Master market's Deltas (games/market), append-only. Key: the
// Delta's sequence number, 8 bytes big endian, from 1 with no gap; value: the Delta as its owner
// encodes it (actors/market owns the shape). A Delta once written is never changed or deleted:
// the market's State is rebuilt by committing every Delta in order. Each Delta holds the
// records one request changed, its command record (the idempotency answer) among them, so the
// market keeps its commands here, in the same transaction as what they changed, and not in the
// commands bucket.

// AppendMarket writes deltas under sequence numbers first, first+1, … in one transaction
// (group-committed with other writers), and returns once they are durable: all of them or none.
// first must be one past the last Delta (1 for none): otherwise nothing is written and the error
// wraps ErrExists (the number is taken: two writers, or a stale one) or ErrBadKey (a gap, or
// first 0). No delta may be empty; an empty list writes nothing.
func (s *Store) AppendMarket(first uint64, deltas [][]byte) error {
	if len(deltas) == 0 {
		return nil
	}
	if first == 0 {
		return fmt.Errorf("storage: append market delta at 0: %w", ErrBadKey)
	}
	for i, d := range deltas {
		if len(d) == 0 {
			return fmt.Errorf("storage: append market delta %d: empty: %w", first+uint64(i), ErrBadKey)
		}
	}
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketMarket))
		// Append-only, keys in order: pages split full rather than half (bbolt's default 0.5),
		// so a group rewrites fewer pages and the file holds about the Deltas' own bytes.
		b.FillPercent = 0.95
		last := lastLedger(b) // the last 8-byte sequence key, as the ledger's
		switch {
		case first <= last:
			return fmt.Errorf("delta %d exists (last %d): %w", first, last, ErrExists)
		case first != last+1:
			return fmt.Errorf("delta %d leaves a gap after %d: %w", first, last, ErrBadKey)
		}
		for i, d := range deltas {
			if err := b.Put(u64(first+uint64(i)), d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: append market deltas %d..%d: %w", first, first+uint64(len(deltas))-1, err)
	}
	return nil
}

// MarketDeltas calls fn for every stored Delta in order, with a copy of it, until fn returns an
// error, which MarketDeltas returns wrapped. A key that is not 8 bytes (never written by
// AppendMarket) fails with ErrCorrupt.
func (s *Store) MarketDeltas(fn func(seq uint64, delta []byte) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(BucketMarket)).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
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
		return fmt.Errorf("storage: market deltas: %w", err)
	}
	return nil
}
