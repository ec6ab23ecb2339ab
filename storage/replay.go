package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/chain/x402"
)

// The x402_replay bucket: one row per EIP-3009 authorization whose nonce a payment claimed
// (warden-games §10.8), never edited or deleted:
//
//	<chainId>/0x<contract>/0x<from>/0x<nonce>   → the id of the payment that claimed it
//
// The key is x402.ReplayKey.String() (decimal chain id, lower-case hex with 0x), one text per
// authorization, so two payments carrying one authorization meet on one key.

// ReplayStore is the durable x402.ReplayStore: a claim is written and fsynced (group-committed
// with the Store's other writes) before Claim returns, and survives a restart.
type ReplayStore struct{ s *Store }

var _ x402.ReplayStore = ReplayStore{}

// Replay returns the Store's x402 replay store.
func (s *Store) Replay() ReplayStore { return ReplayStore{s} }

// Claim makes paymentID the holder of k unless a payment holds it already, and returns k's
// holder (§10.8): paymentID when this call claimed k, else the first claimant's id, unchanged
// (the caller answers that payment's outcome for the same resource and 402 payment_replayed
// otherwise). Concurrent claims of one key have exactly one winner. The claim is durable when
// Claim returns. Errors: ErrBadKey for an empty paymentID, ctx's error if it is done before the
// write, ErrReadOnly, or the commit's error (then nothing is claimed).
func (r ReplayStore) Claim(ctx context.Context, k x402.ReplayKey, paymentID string) (holder string, err error) {
	key := k.String()
	if paymentID == "" {
		return "", fmt.Errorf("storage: claim %s: empty payment id: %w", key, ErrBadKey)
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("storage: claim %s: %w", key, err)
	}
	err = r.s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketReplay))
		if v := b.Get([]byte(key)); v != nil {
			holder = string(v)
			return nil
		}
		holder = paymentID
		return b.Put([]byte(key), []byte(paymentID))
	})
	if err != nil {
		return "", fmt.Errorf("storage: claim %s: %w", key, err)
	}
	return holder, nil
}

// Holder returns the id of the payment that claimed k, or ErrNotFound when none has.
func (r ReplayStore) Holder(k x402.ReplayKey) (string, error) {
	key := k.String()
	var holder string
	err := r.s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket([]byte(BucketReplay)).Get([]byte(key))
		if v == nil {
			return ErrNotFound
		}
		holder = string(v)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("storage: replay holder of %s: %w", key, err)
	}
	return holder, nil
}

// checkReplay checks one x402_replay row: the key in ReplayKey.String()'s form, a payment id.
func checkReplay(k, v []byte, _ *bolt.Bucket) error {
	if len(v) == 0 {
		return fmt.Errorf("claim %q has no payment id", k)
	}
	parts := strings.Split(string(k), "/")
	if len(parts) != 4 {
		return fmt.Errorf("claim key %q is not chainId/contract/from/nonce", k)
	}
	if id, err := strconv.ParseUint(parts[0], 10, 64); err != nil || strconv.FormatUint(id, 10) != parts[0] {
		return fmt.Errorf("claim key %q: chain id is not a canonical decimal", k)
	}
	for i, n := range []int{20, 20, 32} {
		if !isLowerHex0x(parts[i+1], n) {
			return fmt.Errorf("claim key %q: part %d is not 0x and %d lower-case hex bytes", k, i+2, n)
		}
	}
	return nil
}

func isLowerHex0x(s string, n int) bool {
	if len(s) != 2+2*n || s[:2] != "0x" {
		return false
	}
	for _, c := range s[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
