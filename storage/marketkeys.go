package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The market_keys bucket: the Game Master market's operator-issued API keys, stored hashed.
//
//	market_keys  <hash>  MarketKey JSON: the key's SHA-256 (64 lower-case hex; the key itself is
//	                     never stored), its public id, the Owner it speaks for, its Delegate
//	                     name, when it was issued and, once revoked, when
//
// A key's record is never deleted: a revoked key keeps it, so its id cannot be issued again.
// transport/market is the one writer.

// MarketKey is one API key's record. ID is the handle operators list and revoke it by ("mk_" and
// the first 16 hex digits of Hash): it tells nothing of the key. Owner is the Owner ID the key
// authenticates as; several keys (Delegates) of one Owner act as one Player. Name is the
// Delegate's name ("" none). Owner and Name are operator data: never public.
type MarketKey struct {
	ID        string     `json:"id"`
	Hash      string     `json:"hash"`
	Owner     string     `json:"owner"`
	Name      string     `json:"name,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// PutMarketKey stores k, issued, in one transaction; durable when it returns nil. ErrBadKey for a
// hash that is not 64 lower-case hex, an empty Owner or ID, or a record already revoked;
// ErrExists when the hash or the id has a record.
func (s *Store) PutMarketKey(k MarketKey) error {
	if !isHex64(k.Hash) || strings.TrimSpace(k.Owner) == "" || k.ID == "" || k.RevokedAt != nil {
		return fmt.Errorf("storage: put market key %q: %w", k.ID, ErrBadKey)
	}
	v, err := json.Marshal(k)
	if err != nil {
		return fmt.Errorf("storage: put market key %s: %w", k.ID, err)
	}
	err = s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketMarketKeys))
		if b.Get([]byte(k.Hash)) != nil {
			return ErrExists
		}
		if err := b.ForEach(func(_, raw []byte) error {
			var o MarketKey
			if err := json.Unmarshal(raw, &o); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			if o.ID == k.ID {
				return ErrExists
			}
			return nil
		}); err != nil {
			return err
		}
		return b.Put([]byte(k.Hash), v)
	})
	if err != nil {
		return fmt.Errorf("storage: put market key %s: %w", k.ID, err)
	}
	return nil
}

// MarketKeyByHash returns the record of the key whose SHA-256 is hash (revoked or not), or
// ErrNotFound.
func (s *Store) MarketKeyByHash(hash string) (MarketKey, error) {
	var k MarketKey
	err := s.db.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket([]byte(BucketMarketKeys)).Get([]byte(hash))
		if raw == nil {
			return ErrNotFound
		}
		if err := json.Unmarshal(raw, &k); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return nil
	})
	if err != nil {
		return MarketKey{}, fmt.Errorf("storage: market key: %w", err)
	}
	return k, nil
}

// MarketKeys returns every key's record, sorted by CreatedAt then ID.
func (s *Store) MarketKeys() ([]MarketKey, error) {
	var out []MarketKey
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketMarketKeys)).ForEach(func(_, raw []byte) error {
			var k MarketKey
			if err := json.Unmarshal(raw, &k); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			out = append(out, k)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: market keys: %w", err)
	}
	slices.SortFunc(out, func(a, b MarketKey) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// RevokeMarketKey marks the key with id revoked at at, in one transaction, and returns its
// record; a key already revoked keeps its first RevokedAt. ErrNotFound when no key has id.
func (s *Store) RevokeMarketKey(id string, at time.Time) (MarketKey, error) {
	var k MarketKey
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketMarketKeys))
		var found []byte
		if err := b.ForEach(func(h, raw []byte) error {
			var o MarketKey
			if err := json.Unmarshal(raw, &o); err != nil {
				return fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			if o.ID == id {
				k, found = o, slices.Clone(h)
			}
			return nil
		}); err != nil {
			return err
		}
		if found == nil {
			return ErrNotFound
		}
		if k.RevokedAt != nil {
			return nil
		}
		t := at.UTC()
		k.RevokedAt = &t
		v, err := json.Marshal(k)
		if err != nil {
			return err
		}
		return b.Put(found, v)
	})
	if err != nil {
		return MarketKey{}, fmt.Errorf("storage: revoke market key %s: %w", id, err)
	}
	return k, nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
