package storage

import (
	"bytes"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Commands (bucket commands): idempotency records of a player's commands, <player> "/" <command
// id> → the answer first given to that command (opaque bytes). A command retried with the same
// id gets its first answer back instead of running twice (the Game Master market's commands).

// PutCommand stores answer for player's command id unless an answer is stored already, and
// returns the stored answer (answer itself when this call stored it, with fresh true). Player
// must not contain '/'; neither may be empty (ErrBadKey).
func (s *Store) PutCommand(player, id string, answer []byte) (stored []byte, fresh bool, err error) {
	key, err := commandKey(player, id)
	if err != nil {
		return nil, false, fmt.Errorf("storage: put command %q/%q: %w", player, id, err)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketCommands))
		if v := b.Get(key); v != nil {
			stored, fresh = bytes.Clone(v), false
			return nil
		}
		stored, fresh = answer, true
		return b.Put(key, answer)
	})
	if err != nil {
		return nil, false, fmt.Errorf("storage: put command %s/%s: %w", player, id, err)
	}
	return stored, fresh, nil
}

// Command returns the answer stored for player's command id, or ErrNotFound.
func (s *Store) Command(player, id string) ([]byte, error) {
	key, err := commandKey(player, id)
	if err != nil {
		return nil, fmt.Errorf("storage: command %q/%q: %w", player, id, err)
	}
	return s.get(BucketCommands, string(key))
}

// Commands calls fn with every command id of player and its answer, in id order, until fn
// returns an error, which Commands returns wrapped.
func (s *Store) Commands(player string, fn func(id string, answer []byte) error) error {
	if player == "" || strings.ContainsRune(player, '/') {
		return fmt.Errorf("storage: commands of %q: %w", player, ErrBadKey)
	}
	prefix := player + "/"
	return s.scan(BucketCommands, prefix, func(k string, v []byte) error { return fn(k[len(prefix):], v) })
}

func commandKey(player, id string) ([]byte, error) {
	if player == "" || id == "" || strings.ContainsRune(player, '/') {
		return nil, ErrBadKey
	}
	return []byte(player + "/" + id), nil
}
