package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Records is one protocol's bucket of records: opaque values (the protocol owns their shape)
// under keys it chooses, which it may group by a prefix ("name/", "live/") for Scan. A Records
// reaches its own bucket only. Its methods are safe for concurrent use.
type Records struct {
	s      *Store
	bucket string
}

// Walkins is DOTDOTDOT's records: walk-in records under the token's hash, and the desk's
// name/, live/, board/, revoked/, alias/ and account/ keys (doc.go).
func (s *Store) Walkins() Records { return Records{s: s, bucket: BucketWalkins} }

// Get returns a copy of the value under key, or ErrNotFound.
func (r Records) Get(key string) ([]byte, error) { return r.s.get(r.bucket, key) }

// Put stores value under key (one transaction, coalesced with concurrent writers).
func (r Records) Put(key string, value []byte) error { return r.s.put(r.bucket, key, value) }

// Delete removes key; deleting an absent key is not an error.
func (r Records) Delete(key string) error { return r.s.del(r.bucket, key) }

// Scan calls fn for every key starting with prefix, in key order, with a copy of the value,
// until fn returns an error, which Scan returns wrapped.
func (r Records) Scan(prefix string, fn func(key string, value []byte) error) error {
	return r.s.scan(r.bucket, prefix, fn)
}

// get returns a copy of the value under key in bucket, or ErrNotFound.
func (s *Store) get(bucket, key string) ([]byte, error) {
	if key == "" {
		return nil, fmt.Errorf("storage: get %s/%q: %w", bucket, key, ErrBadKey)
	}
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return ErrNotFound // a read-only file from before the bucket existed
		}
		v := b.Get([]byte(key))
		if v == nil {
			return ErrNotFound
		}
		out = bytes.Clone(v) // bbolt's slice dies with the transaction
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: get %s/%s: %w", bucket, key, err)
	}
	return out, nil
}

// put stores value under key in bucket.
func (s *Store) put(bucket, key string, value []byte) error {
	if key == "" {
		return fmt.Errorf("storage: put %s/%q: %w", bucket, key, ErrBadKey)
	}
	err := s.write(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucket)).Put([]byte(key), value)
	})
	if err != nil {
		return fmt.Errorf("storage: put %s/%s: %w", bucket, key, err)
	}
	return nil
}

// del removes key from bucket; deleting an absent key is not an error.
func (s *Store) del(bucket, key string) error {
	err := s.write(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucket)).Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("storage: delete %s/%s: %w", bucket, key, err)
	}
	return nil
}

// scan calls fn for every key in bucket starting with prefix, in key order, with a copy of the
// value, until fn returns an error, which scan returns wrapped with the bucket and prefix.
func (s *Store) scan(bucket, prefix string, fn func(key string, value []byte) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		p := []byte(prefix)
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			if err := fn(string(k), bytes.Clone(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: scan %s/%s*: %w", bucket, prefix, err)
	}
	return nil
}

// Next increments and returns the counter name kept in the meta bucket (first call returns 1).
func (s *Store) Next(counter string) (uint64, error) {
	var n uint64
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketMeta))
		key := []byte("seq/" + counter)
		n = 0
		if v := b.Get(key); len(v) == 8 {
			n = bytesU64(v)
		}
		n++
		return b.Put(key, u64(n))
	})
	if err != nil {
		return 0, fmt.Errorf("storage: next %s: %w", counter, err)
	}
	return n, nil
}

func bytesU64(b []byte) uint64 {
	var n uint64
	for _, c := range b {
		n = n<<8 | uint64(c)
	}
	return n
}
