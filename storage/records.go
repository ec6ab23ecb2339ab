package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Get returns a copy of the value under key in bucket, or ErrNotFound. bucket is one of the
// Bucket* names.
func (s *Store) Get(bucket, key string) ([]byte, error) {
	if key == "" {
		return nil, fmt.Errorf("storage: get %s/%q: %w", bucket, key, ErrBadKey)
	}
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("no bucket %s", bucket)
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

// Put stores value under key in bucket (one transaction, coalesced with concurrent writers).
func (s *Store) Put(bucket, key string, value []byte) error {
	if key == "" {
		return fmt.Errorf("storage: put %s/%q: %w", bucket, key, ErrBadKey)
	}
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("no bucket %s", bucket)
		}
		return b.Put([]byte(key), value)
	})
	if err != nil {
		return fmt.Errorf("storage: put %s/%s: %w", bucket, key, err)
	}
	return nil
}

// Delete removes key from bucket; deleting an absent key is not an error.
func (s *Store) Delete(bucket, key string) error {
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("no bucket %s", bucket)
		}
		return b.Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("storage: delete %s/%s: %w", bucket, key, err)
	}
	return nil
}

// Scan calls fn for every key in bucket starting with prefix, in key order, with a copy of the
// value, until fn returns an error, which Scan returns wrapped with the bucket and prefix.
func (s *Store) Scan(bucket, prefix string, fn func(key string, value []byte) error) error {
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("no bucket %s", bucket)
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
// Round numbers ("T-<n>") come from here.
func (s *Store) Next(counter string) (uint64, error) {
	var n uint64
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketMeta))
		key := []byte("seq/" + counter)
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
