package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Break Room's handles (NIP-05 names, breakroom-protocol-v0.md "Identity"), in the breakroom
// bucket beside the reputations:
//
//	breakroom  handle/<name>       BreakroomHandle JSON: who claimed the name, when, and, once an
//	                               operator revoked it, when and why (the name stays taken)
//	           handlekey/<pubkey>  the name the key holds now (BreakroomHandle JSON, its live copy)
//
// A name is claimed once, ever: a revoked name keeps its record, so nobody else can take it up to
// pass as the key that held it. A key holds at most one live handle; once its handle is revoked
// it holds none and may claim another name. transport/breakroom/handles is the one writer.
const (
	brHandle    = "handle/"
	brHandleKey = "handlekey/"
)

// The refusals of ClaimBreakroomHandle (each wrapped with the name or key).
var (
	// ErrHandleTaken: the name has a record (held, or revoked and kept).
	ErrHandleTaken = errors.New("storage: handle taken")
	// ErrHasHandle: the key holds a live handle already.
	ErrHasHandle = errors.New("storage: key already has a handle")
)

// BreakroomHandle is one name's record. Pubkey is the key (64 lower-case hex) it names;
// ClaimedAt when it was claimed; RevokedAt and Reason are set once an operator revoked it.
type BreakroomHandle struct {
	Name      string     `json:"name"`
	Pubkey    string     `json:"pubkey"`
	ClaimedAt time.Time  `json:"claimed_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	Reason    string     `json:"reason,omitempty"`
}

// ClaimBreakroomHandle stores h as claimed, in one transaction, unless h.Name has a record
// (ErrHandleTaken) or h.Pubkey holds a live handle (ErrHasHandle); durable when it returns nil.
// ErrBadKey for an empty name or key, or one holding '/'. The caller checks the name's rules.
func (s *Store) ClaimBreakroomHandle(h BreakroomHandle) error {
	if err := brKey(h.Name, h.Pubkey); err != nil || h.RevokedAt != nil {
		return fmt.Errorf("storage: claim breakroom handle: %w: %q for %q", ErrBadKey, h.Name, h.Pubkey)
	}
	v, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("storage: claim breakroom handle: %w", err)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketBreakroom))
		if b.Get([]byte(brHandle+h.Name)) != nil {
			return fmt.Errorf("%w: %s", ErrHandleTaken, h.Name)
		}
		if b.Get([]byte(brHandleKey+h.Pubkey)) != nil {
			return fmt.Errorf("%w: %s", ErrHasHandle, h.Pubkey)
		}
		if err := b.Put([]byte(brHandle+h.Name), v); err != nil {
			return err
		}
		return b.Put([]byte(brHandleKey+h.Pubkey), v)
	})
	if err != nil {
		return fmt.Errorf("storage: claim breakroom handle: %w", err)
	}
	return nil
}

// BreakroomHandle is name's record (live or revoked), or ErrNotFound.
func (s *Store) BreakroomHandle(name string) (BreakroomHandle, error) {
	return s.brHandleAt("handle", brHandle, name)
}

// BreakroomHandleOf is the live handle key holds, or ErrNotFound.
func (s *Store) BreakroomHandleOf(key string) (BreakroomHandle, error) {
	return s.brHandleAt("handle of", brHandleKey, key)
}

func (s *Store) brHandleAt(what, prefix, part string) (BreakroomHandle, error) {
	if err := brKey(part); err != nil {
		return BreakroomHandle{}, fmt.Errorf("storage: breakroom %s: %w", what, err)
	}
	v, err := s.get(BucketBreakroom, prefix+part)
	if err != nil {
		return BreakroomHandle{}, err
	}
	var h BreakroomHandle
	if err := json.Unmarshal(v, &h); err != nil {
		return BreakroomHandle{}, fmt.Errorf("storage: breakroom %s %s: %w: %v", what, part, ErrCorrupt, err)
	}
	return h, nil
}

// RevokeBreakroomHandle marks name revoked at at for reason, in one transaction: its record
// kept (so the name stays taken) and its key's live copy removed (so the key holds no handle).
// It returns the record as revoked; ErrNotFound when name holds no live handle (none, or revoked
// already). The key's reputation is another record and is not touched.
func (s *Store) RevokeBreakroomHandle(name string, at time.Time, reason string) (BreakroomHandle, error) {
	if err := brKey(name); err != nil {
		return BreakroomHandle{}, fmt.Errorf("storage: revoke breakroom handle: %w", err)
	}
	var h BreakroomHandle
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketBreakroom))
		v := b.Get([]byte(brHandle + name))
		if v == nil {
			return ErrNotFound
		}
		if err := json.Unmarshal(v, &h); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if h.RevokedAt != nil {
			return ErrNotFound
		}
		at := at.UTC()
		h.RevokedAt, h.Reason = &at, reason
		nv, err := json.Marshal(h)
		if err != nil {
			return err
		}
		if err := b.Put([]byte(brHandle+name), nv); err != nil {
			return err
		}
		return b.Delete([]byte(brHandleKey + h.Pubkey))
	})
	if err != nil {
		return BreakroomHandle{}, fmt.Errorf("storage: revoke breakroom handle %s: %w", name, err)
	}
	return h, nil
}

// BreakroomHandles calls fn with every name's record (live and revoked), in name order, until fn
// returns an error.
func (s *Store) BreakroomHandles(fn func(BreakroomHandle) error) error {
	return s.scan(BucketBreakroom, brHandle, func(k string, v []byte) error {
		var h BreakroomHandle
		if err := json.Unmarshal(v, &h); err != nil {
			return fmt.Errorf("%s: %w: %v", k, ErrCorrupt, err)
		}
		return fn(h)
	})
}

// checkBreakroomHandle checks a handle/ or handlekey/ entry: its part a key, its value a record
// naming it (a live copy for handlekey/).
func checkBreakroomHandle(key string, v []byte) error {
	var h BreakroomHandle
	if err := json.Unmarshal(v, &h); err != nil {
		return errors.New("bad handle record")
	}
	switch {
	case len(key) > len(brHandleKey) && key[:len(brHandleKey)] == brHandleKey:
		if brKey(key[len(brHandleKey):]) != nil || h.Pubkey != key[len(brHandleKey):] || h.RevokedAt != nil {
			return errors.New("bad handle key index")
		}
	default:
		if brKey(key[len(brHandle):]) != nil || h.Name != key[len(brHandle):] || h.Pubkey == "" {
			return errors.New("bad handle record")
		}
	}
	return nil
}
