package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Break Room's records (bucket breakroom): each key's reputation, the ranked matches counted into
// it (so a match's end, announced again after a crash, is counted once), and the players' notes
// on matches (breakroom-protocol-v0.md "Identity", "Feedback"):
//
//	breakroom  rep/<pubkey>                 a key's reputation (JSON; actors/breakroom owns the shape)
//	           counted/<match id>           a ranked match counted into its players' reputations ("1")
//	           feedback/<match id>/<pubkey> a player's note on a match (JSON; a second replaces it)
//	           table/<table id>             a match's seating: keys, names, spoilers, tier (JSON)
//	           handle/…, handlekey/…        the handles (NIP-05 names): breakroom_handles.go
//
// actors/breakroom is the one writer.

const (
	brRep      = "rep/"
	brCounted  = "counted/"
	brFeedback = "feedback/"
	brTable    = "table/"
)

// brKey refuses an empty part or one holding '/' (the keys' separator).
func brKey(parts ...string) error {
	for _, p := range parts {
		if p == "" || strings.Contains(p, "/") || len(p) > 256 {
			return fmt.Errorf("%w: %q", ErrBadKey, p)
		}
	}
	return nil
}

// BreakroomReputation is key's reputation as stored, or ErrNotFound for a key with none.
func (s *Store) BreakroomReputation(key string) ([]byte, error) {
	if err := brKey(key); err != nil {
		return nil, fmt.Errorf("storage: breakroom reputation: %w", err)
	}
	return s.get(BucketBreakroom, brRep+key)
}

// CountBreakroomMatch counts ranked match into the reputations of keys, once: in one
// transaction, unless the match is counted already, update is called with each key's stored
// reputation (nil for none) and its answer stored, and the match is marked counted. counted is
// false, and nothing written, when the match was counted before. update runs inside the
// transaction: it must be quick and pure. An error from update aborts the whole write.
func (s *Store) CountBreakroomMatch(match string, keys []string, update func(key string, old []byte) ([]byte, error)) (counted bool, err error) {
	if err := brKey(append([]string{match}, keys...)...); err != nil {
		return false, fmt.Errorf("storage: count breakroom match: %w", err)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketBreakroom))
		if b.Get([]byte(brCounted+match)) != nil {
			return nil
		}
		for _, k := range keys {
			var old []byte
			if v := b.Get([]byte(brRep + k)); v != nil {
				old = append([]byte(nil), v...)
			}
			nv, err := update(k, old)
			if err != nil {
				return err
			}
			if !json.Valid(nv) {
				return errors.New("reputation is not JSON")
			}
			if err := b.Put([]byte(brRep+k), nv); err != nil {
				return err
			}
		}
		counted = true
		return b.Put([]byte(brCounted+match), []byte("1"))
	})
	if err != nil {
		return false, fmt.Errorf("storage: count breakroom match %s: %w", match, err)
	}
	return counted, nil
}

// PutBreakroomFeedback stores key's note on match (JSON), replacing an earlier one: durable when
// it returns nil.
func (s *Store) PutBreakroomFeedback(match, key string, note []byte) error {
	if err := brKey(match, key); err != nil {
		return fmt.Errorf("storage: breakroom feedback: %w", err)
	}
	if !json.Valid(note) {
		return fmt.Errorf("storage: breakroom feedback: %w: not JSON", ErrBadKey)
	}
	return s.put(BucketBreakroom, brFeedback+match+"/"+key, note)
}

// BreakroomFeedback is key's note on match, or ErrNotFound.
func (s *Store) BreakroomFeedback(match, key string) ([]byte, error) {
	if err := brKey(match, key); err != nil {
		return nil, fmt.Errorf("storage: breakroom feedback: %w", err)
	}
	return s.get(BucketBreakroom, brFeedback+match+"/"+key)
}

// BreakroomFeedbackNotes calls fn with every stored note, by match id then key (the store's
// order), until fn returns an error: what the operators read (`arena ops feedback --breakroom`).
func (s *Store) BreakroomFeedbackNotes(fn func(match, key string, note []byte) error) error {
	return s.scan(BucketBreakroom, brFeedback, func(k string, v []byte) error {
		match, key, ok := strings.Cut(k[len(brFeedback):], "/")
		if !ok {
			return nil
		}
		return fn(match, key, v)
	})
}

// PutBreakroomTable stores the seating of table id (JSON), written before the table opens so a
// restart finds who sits where: durable when it returns nil.
func (s *Store) PutBreakroomTable(id string, seating []byte) error {
	if err := brKey(id); err != nil {
		return fmt.Errorf("storage: breakroom table: %w", err)
	}
	if !json.Valid(seating) {
		return fmt.Errorf("storage: breakroom table %s: %w: not JSON", id, ErrBadKey)
	}
	return s.put(BucketBreakroom, brTable+id, seating)
}

// BreakroomTables calls fn with every stored seating, by table id, until fn returns an error.
func (s *Store) BreakroomTables(fn func(id string, seating []byte) error) error {
	return s.scan(BucketBreakroom, brTable, func(k string, v []byte) error { return fn(k[len(brTable):], v) })
}

// checkBreakroom checks one key of the breakroom bucket: a known prefix, its parts, a JSON value.
func checkBreakroom(k, v []byte, _ *bolt.Bucket) error {
	key := string(k)
	switch {
	case strings.HasPrefix(key, brRep):
		if brKey(key[len(brRep):]) != nil || !json.Valid(v) {
			return errors.New("bad reputation")
		}
	case strings.HasPrefix(key, brCounted):
		if brKey(key[len(brCounted):]) != nil || string(v) != "1" {
			return errors.New("bad counted mark")
		}
	case strings.HasPrefix(key, brTable):
		if brKey(key[len(brTable):]) != nil || !json.Valid(v) {
			return errors.New("bad seating")
		}
	case strings.HasPrefix(key, brHandle), strings.HasPrefix(key, brHandleKey):
		return checkBreakroomHandle(key, v)
	case strings.HasPrefix(key, brFeedback):
		parts := strings.Split(key[len(brFeedback):], "/")
		if len(parts) != 2 || brKey(parts...) != nil || !json.Valid(v) {
			return errors.New("bad feedback note")
		}
	case strings.HasPrefix(key, brStats), strings.HasPrefix(key, brSeen):
		return checkBreakroomStat(key, v)
	default:
		return errors.New("stray key")
	}
	return nil
}
