package storage

import (
	bolt "go.etcd.io/bbolt"

	"arena/games"
)

// The untyped forms below are what callers used before each bucket had its own API; they go once
// the last caller has moved to the typed one.

// Get returns a copy of the value under key in bucket, or ErrNotFound.
func (s *Store) Get(bucket, key string) ([]byte, error) { return s.get(bucket, key) }

// Put stores value under key in bucket.
func (s *Store) Put(bucket, key string, value []byte) error { return s.put(bucket, key, value) }

// Delete removes key from bucket.
func (s *Store) Delete(bucket, key string) error { return s.del(bucket, key) }

// Scan calls fn for every key in bucket starting with prefix.
func (s *Store) Scan(bucket, prefix string, fn func(key string, value []byte) error) error {
	return s.scan(bucket, prefix, fn)
}

// DB exposes the bbolt handle. Do not close it.
func (s *Store) DB() *bolt.DB { return s.db }

// CommitJournal is CommitInputs.
func (s *Store) CommitJournal(tableID string, snapshot []byte, entries [][]byte, events []games.Event) error {
	return s.CommitInputs(tableID, snapshot, entries, events)
}

// LoadJournal returns the data of Inputs.
func (s *Store) LoadJournal(tableID string) ([][]byte, error) {
	in, err := s.Inputs(tableID)
	out := make([][]byte, len(in))
	for i := range in {
		out[i] = in[i].Data
	}
	return out, err
}
