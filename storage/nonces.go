package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Nonces (bucket join_nonces): a used nonce's key → its expiry (unix seconds, u64 BE). A key is
// used until its expiry has passed; SweepNonces drops the expired ones.

// UseNonce records key as used until until, unless it is already recorded with an expiry not
// before now; fresh reports whether this call recorded it. The record is durable when UseNonce
// returns, so a replay after a restart is still refused.
func (s *Store) UseNonce(key string, now, until time.Time) (fresh bool, err error) {
	if key == "" {
		return false, fmt.Errorf("storage: use nonce %q: %w", key, ErrBadKey)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketNonces))
		fresh = false
		if v := b.Get([]byte(key)); len(v) == 8 && int64(bytesU64(v)) >= now.Unix() {
			return nil
		}
		fresh = true
		return b.Put([]byte(key), u64(uint64(until.Unix())))
	})
	if err != nil {
		return false, fmt.Errorf("storage: use nonce: %w", err)
	}
	return fresh, nil
}

// SweepNonces deletes every nonce whose expiry is before now (and any record that is not an
// expiry), and returns how many it deleted.
func (s *Store) SweepNonces(now time.Time) (int, error) {
	var n int
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketNonces))
		var dead [][]byte
		_ = b.ForEach(func(k, v []byte) error {
			if len(v) != 8 || int64(bytesU64(v)) < now.Unix() {
				dead = append(dead, append([]byte(nil), k...))
			}
			return nil
		})
		n = len(dead)
		for _, k := range dead {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storage: sweep nonces: %w", err)
	}
	return n, nil
}
