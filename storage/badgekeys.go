package storage

import (
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The Badge key index (bucket badge_keys): which Badge holds each signing key (§4.2 "a key MUST
// be used by exactly one Badge, ever"; chain/badge KeyIndex), so a restart forgets no binding and
// above all no proof (a signature with the key verified for its Badge, which makes the binding
// final):
//
//	badge_keys  <ed25519 public key: 32 bytes>   BadgeKey JSON
//
// chain/badge's KeyIndex, through cmd/arena's wiring, is the only writer.

// BadgeKey is the Badge a key is bound to: its canonical agent id, its registry token id (lower
// is the earlier registration) and whether a signature with the key verified for it.
type BadgeKey struct {
	Agent  string `json:"agent"`
	Token  uint64 `json:"token"`
	Proven bool   `json:"proven,omitempty"`
}

// PutBadgeKey binds the 32-byte public key pub to b: durable when it returns nil. ErrBadKey
// for a key of another length or an empty agent.
func (s *Store) PutBadgeKey(pub []byte, b BadgeKey) error {
	if len(pub) != 32 || b.Agent == "" {
		return fmt.Errorf("storage: put badge key %x (%q): %w", pub, b.Agent, ErrBadKey)
	}
	v, err := json.Marshal(&b)
	if err != nil {
		return fmt.Errorf("storage: put badge key %x: %w", pub, err)
	}
	return s.put(BucketBadgeKeys, string(pub), v)
}

// BadgeKeys calls fn for every stored binding, in key order, until fn returns an error, which
// it returns wrapped.
func (s *Store) BadgeKeys(fn func(pub []byte, b BadgeKey) error) error {
	return s.scan(BucketBadgeKeys, "", func(k string, v []byte) error {
		var b BadgeKey
		if err := json.Unmarshal(v, &b); err != nil {
			return fmt.Errorf("badge key %x: %w", k, err)
		}
		return fn([]byte(k), b)
	})
}

// checkBadgeKey is Check's reading of one binding.
func checkBadgeKey(k, v []byte, _ *bolt.Bucket) error {
	if len(k) != 32 {
		return errors.New("key is not a 32-byte public key")
	}
	var b BadgeKey
	if err := json.Unmarshal(v, &b); err != nil {
		return fmt.Errorf("binding does not decode: %v", err)
	}
	if b.Agent == "" {
		return errors.New("binding names no Badge")
	}
	return nil
}
