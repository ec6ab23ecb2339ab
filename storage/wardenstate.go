package storage

import (
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/games/canon"
)

// The warden_state bucket: the Warden door's working state (warden-games §6, §5, §7), JSON
// values under prefixed keys, written before the door answers:
//
//	challenge/<hex>          a registration challenge not yet used (§6.1), single use
//	contender/<wallet>       a registered Contender (§6.1): its temperament and name
//	token/<sha256 hex>       a bearer token, stored only as its hash → wallet and expiry
//	match/<wm_…>             a match: game, stake, seats, stake deadline, cleared stakes (§5.1)
//	idem/<wallet>/<key>      an Idempotency-Key's stored answer (§7)
//	queue/<game>/<stake>/…   a matchmaking queue entry, FIFO by key (§5.5)
//	ticket/<ticket>          a queue ticket's state: queued, matched (its match and seat) or left
//	payoutq/<wm_…>/<seat>    a payout or refund job: its signed transaction and how far it got (§11)
//	settle/<wm_…>            a match's Ledger rows waiting for its payouts to confirm (§12.2)
//	wallet/<address>         the Warden wallet's next local nonce (§11)
//	play/<wm_…>              a played match's play record (actors/warden): setup, input log, clock
//
// The door owns the values' shapes; the store checks only that a key has one of these
// prefixes and a JSON value, and runs a door's read-modify-write in one transaction.

var wardenStatePrefixes = []string{"challenge/", "contender/", "token/", "match/", "idem/", "queue/", "ticket/",
	"payoutq/", "settle/", "wallet/", "play/"}

// WardenTx is a write transaction on warden_state and warden_payments, as WardenUpdate hands it.
type WardenTx struct {
	tx  *bolt.Tx
	fed *bool // set when AppendFeed wrote (nil in WardenView)
}

// Get decodes key's value into v; found is false when the key has none.
func (w WardenTx) Get(key string, v any) (found bool, err error) {
	b := w.tx.Bucket([]byte(BucketWardenState)).Get([]byte(key))
	if b == nil {
		return false, nil
	}
	return true, json.Unmarshal(b, v)
}

// Put stores v (JSON) under key, which must have one of the bucket's prefixes (ErrBadKey).
func (w WardenTx) Put(key string, v any) error {
	if !wardenStateKey(key) {
		return fmt.Errorf("warden state key %q: %w", key, ErrBadKey)
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return w.tx.Bucket([]byte(BucketWardenState)).Put([]byte(key), enc)
}

// Delete removes key.
func (w WardenTx) Delete(key string) error {
	return w.tx.Bucket([]byte(BucketWardenState)).Delete([]byte(key))
}

// Payment reads a payment record in the transaction; found is false when there is none.
func (w WardenTx) Payment(id string) (p WardenPayment, found bool, err error) {
	v := w.tx.Bucket([]byte(BucketWardenPay)).Get([]byte(id))
	if v == nil {
		return WardenPayment{}, false, nil
	}
	return p, true, json.Unmarshal(v, &p)
}

// PutPayment writes the next step of an existing payment record, with PutWardenPayment's
// checks, in the transaction: so a stake's settled record and its match's cleared seat are one
// write.
func (w WardenTx) PutPayment(p WardenPayment) error {
	return putWardenPayment(w.tx, p)
}

// AppendWardenMatch is Store.AppendWardenMatch inside the transaction: the match's Ledger rows
// are appended (with the aggregates and indexes) in the same commit as fn's other writes, so a
// match's SETTLED state and its rows are one write (§12.2). Errors as Store.AppendWardenMatch's.
func (w WardenTx) AppendWardenMatch(rows []WardenRow) ([]WardenRow, error) {
	if err := CheckWardenMatch(rows); err != nil {
		return nil, fmt.Errorf("storage: append warden match: %w", err)
	}
	out, err := appendWardenMatch(w.tx, rows)
	if err != nil {
		return nil, fmt.Errorf("storage: append warden match %s: %w", rows[0].MatchID, err)
	}
	return out, nil
}

// WardenAggregate is Store.WardenAggregate inside the transaction (a Contender's, or a
// temperament's with temperament true): after AppendWardenMatch in the same transaction, the
// aggregate with the new rows folded in.
func (w WardenTx) WardenAggregate(id string, temperament bool) (WardenAggregate, error) {
	key := wardenAggKey(id)
	if temperament {
		key = wardenTaggKey(id)
	}
	var a WardenAggregate
	if v := w.tx.Bucket([]byte(BucketWarden)).Get(key); v != nil {
		if err := canon.Decode(v, &a); err != nil {
			return WardenAggregate{}, fmt.Errorf("storage: warden aggregate %s: %w: %v", key, ErrCorrupt, err)
		}
	}
	return a, nil
}

// WardenSettled reports whether the match has Ledger rows (it settled).
func (w WardenTx) WardenSettled(match string) bool {
	b := w.tx.Bucket([]byte(BucketWarden))
	return b.Get(wardenMatchKey(match, "A")) != nil || b.Get(wardenMatchKey(match, "B")) != nil
}

// WardenUpdate runs fn in one write transaction (durable when it returns nil); fn's error
// aborts it and is returned. fn may be run more than once (the group commit retries a failed
// group member alone), so it must not keep state between runs.
func (s *Store) WardenUpdate(fn func(WardenTx) error) error {
	var fed bool
	err := s.write(func(tx *bolt.Tx) error {
		fed = false
		return fn(WardenTx{tx, &fed})
	})
	if err == nil && fed {
		s.wakeFeed()
	}
	return err
}

// WardenView runs fn in a read transaction (Put, Delete and PutPayment fail in it).
func (s *Store) WardenView(fn func(WardenTx) error) error {
	return s.db.View(func(tx *bolt.Tx) error { return fn(WardenTx{tx: tx}) })
}

// Scan calls fn with every key under prefix and its raw JSON value, in key order, in the
// transaction.
func (w WardenTx) Scan(prefix string, fn func(key string, v []byte) error) error {
	c := w.tx.Bucket([]byte(BucketWardenState)).Cursor()
	for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
		if err := fn(string(k), v); err != nil {
			return err
		}
	}
	return nil
}

// WardenKeys calls fn with every key under prefix and its raw JSON value, in key order.
func (s *Store) WardenKeys(prefix string, fn func(key string, v []byte) error) error {
	return s.db.View(func(tx *bolt.Tx) error { return WardenTx{tx: tx}.Scan(prefix, fn) })
}

func wardenStateKey(k string) bool {
	for _, p := range wardenStatePrefixes {
		if strings.HasPrefix(k, p) && len(k) > len(p) {
			return true
		}
	}
	return false
}

// checkWardenState checks one warden_state row: a known prefix and a JSON value.
func checkWardenState(k, v []byte, _ *bolt.Bucket) error {
	if !wardenStateKey(string(k)) {
		return fmt.Errorf("key %q has no warden state prefix", k)
	}
	if !json.Valid(v) {
		return fmt.Errorf("value of %q is not JSON", k)
	}
	return nil
}
