package main

import (
	"crypto/ed25519"
	"fmt"

	"arena/chain/badge"
	"arena/storage"
)

// Proven passes the join door's verified signatures on to the Badge resolver's key index
// (join.KeyProver): a Badge that signed with its key holds it for good (§4.2 "a key MUST be
// used by exactly one Badge, ever"; chain/badge KeyIndex), saved before the join is answered.
func (j joinResolver) Proven(agent string, key ed25519.PublicKey) error {
	_, err := j.r.Proven(agent, key)
	return err
}

// storeKeys is badge.KeyStore on the store's badge_keys bucket.
type storeKeys struct{ st *storage.Store }

func (k storeKeys) SaveKey(pub ed25519.PublicKey, b badge.KeyBinding) error {
	return k.st.PutBadgeKey(pub, storage.BadgeKey{Agent: b.Agent, Token: b.Token, Proven: b.Proven})
}

// loadKeyIndex is the Badge key index of `arena serve`: every binding and proof the store keeps,
// and every new one saved there before it counts, so a restart forgets no key's Badge.
func loadKeyIndex(st *storage.Store) (*badge.KeyIndex, error) {
	saved := map[[32]byte]badge.KeyBinding{}
	err := st.BadgeKeys(func(pub []byte, b storage.BadgeKey) error {
		if len(pub) != 32 {
			return fmt.Errorf("a %d-byte key", len(pub))
		}
		saved[[32]byte(pub)] = badge.KeyBinding{Agent: b.Agent, Token: b.Token, Proven: b.Proven}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("serve: the Badge key index: %w", err)
	}
	return badge.LoadKeyIndex(storeKeys{st}, saved), nil
}
