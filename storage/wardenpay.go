package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"arena/chain/x402"
)

// The warden_payments bucket: the Warden's x402 payment records (warden-games §10.3 steps 5–7,
// §10.8), one per payment id, written before anything is said about the payment:
//
//	<payment id>   WardenPayment JSON
//
// A record is created together with its authorization's claim in x402_replay (one bbolt
// transaction, ClaimWardenPayment), so that a nonce is never claimed without the record saying
// what claimed it, nor a record kept whose nonce another payment holds. It then moves forward
// only: settling → submitted → settled | failed (PutWardenPayment refuses any other step).

// Warden payment statuses as stored (WardenPayment.Status), §10.3.
const (
	// WardenPaySettling is the durable settlement intent: the nonce is claimed, nothing was sent
	// to the chain as far as the record knows (a crash may have come between the send and the
	// record of its hash, which is why recovery asks the token, never just re-sends).
	WardenPaySettling = "settling"
	// WardenPaySubmitted is a transferWithAuthorization sent, its hash in Tx, no receipt read.
	WardenPaySubmitted = "submitted"
	// WardenPaySettled is the transfer mined with status 1 (Tx its hash): the stake cleared.
	WardenPaySettled = "settled"
	// WardenPayFailed is a settlement that cannot happen (Reason says why): nothing moved.
	WardenPayFailed = "failed"
)

// WardenPayment is one payment record (§10.3, §10.5): who paid what for which resource, the
// authorization's replay key and payload as received (the facilitator's input after a crash),
// and how far its settlement went. Amount is in atomic units of the rail's asset.
type WardenPayment struct {
	ID       string `json:"id"`       // wp_<16 hex>
	Resource string `json:"resource"` // the paid resource's path, "/v1/warden/matches/<id>/stake"
	Match    string `json:"match,omitempty"`
	Seat     string `json:"seat,omitempty"`
	Payer    string `json:"payer"` // EIP-55
	Amount   uint64 `json:"amount"`
	Network  string `json:"network"`      // CAIP-2
	Key      string `json:"key"`          // x402.ReplayKey.String()
	Version  int    `json:"x402_version"` // 1 or 2: the answer's header
	Payload  []byte `json:"payload"`      // the payment JSON as received
	Status   string `json:"status"`       // WardenPay*
	Tx       string `json:"tx,omitempty"` // 0x hash once submitted
	Reason   string `json:"reason,omitempty"`
	Created  int64  `json:"created_unix"` // Unix seconds
}

func (p *WardenPayment) check() error {
	switch {
	case !strings.HasPrefix(p.ID, "wp_") || strings.Contains(p.ID, "/"):
		return fmt.Errorf("payment id %q is not wp_…", p.ID)
	case p.Resource == "" || p.Payer == "" || p.Key == "" || len(p.Payload) == 0 || p.Amount == 0:
		return errors.New("payment record lacks resource, payer, key, payload or amount")
	case p.Version != 1 && p.Version != 2:
		return fmt.Errorf("x402 version %d", p.Version)
	}
	switch p.Status {
	case WardenPaySettling:
		if p.Tx != "" {
			return errors.New("a settling payment names a transaction")
		}
	case WardenPaySubmitted, WardenPaySettled:
		if !isLowerHex0x(p.Tx, 32) {
			return fmt.Errorf("%s payment's tx %q is not a 0x hash", p.Status, p.Tx)
		}
	case WardenPayFailed:
		if p.Reason == "" {
			return errors.New("a failed payment gives no reason")
		}
	default:
		return fmt.Errorf("status %q", p.Status)
	}
	return nil
}

// wardenPayNext lists the statuses a record may move to from each status (itself included: a
// repeated write of one step is harmless).
var wardenPayNext = map[string][]string{
	WardenPaySettling:  {WardenPaySettling, WardenPaySubmitted, WardenPaySettled, WardenPayFailed},
	WardenPaySubmitted: {WardenPaySubmitted, WardenPaySettled, WardenPayFailed},
	WardenPaySettled:   {WardenPaySettled},
	WardenPayFailed:    {WardenPayFailed},
}

// ClaimWardenPayment is §10.3 step 5 in one bbolt transaction: it claims k for p.ID in
// x402_replay and stores p (status settling) unless k is claimed already, in which case nothing
// is written and the holder's record is returned with claimed false (the caller answers the
// holder's outcome when it is for the same resource and payer, 402 payment_replayed otherwise).
// Durable when it returns. Errors: ErrBadKey for a record that does not check or a key other
// than p.Key, ErrExists for an id taken by another key, ErrReadOnly, or the commit's.
func (s *Store) ClaimWardenPayment(k x402.ReplayKey, p WardenPayment) (holder WardenPayment, claimed bool, err error) {
	if p.Status != WardenPaySettling || p.Key != k.String() {
		return WardenPayment{}, false, fmt.Errorf("storage: claim payment %s: not a settling record of key %s: %w", p.ID, k, ErrBadKey)
	}
	if err := p.check(); err != nil {
		return WardenPayment{}, false, fmt.Errorf("storage: claim payment %s: %v: %w", p.ID, err, ErrBadKey)
	}
	enc, err := json.Marshal(p)
	if err != nil {
		return WardenPayment{}, false, err
	}
	err = s.write(func(tx *bolt.Tx) error {
		replay, pays := tx.Bucket([]byte(BucketReplay)), tx.Bucket([]byte(BucketWardenPay))
		if id := replay.Get([]byte(p.Key)); id != nil {
			v := pays.Get(id)
			if v == nil {
				return fmt.Errorf("nonce %s is held by %s, which has no record", p.Key, id)
			}
			claimed = false
			return json.Unmarshal(v, &holder)
		}
		if pays.Get([]byte(p.ID)) != nil {
			return ErrExists
		}
		if err := replay.Put([]byte(p.Key), []byte(p.ID)); err != nil {
			return err
		}
		claimed, holder = true, p
		return pays.Put([]byte(p.ID), enc)
	})
	if err != nil {
		return WardenPayment{}, false, fmt.Errorf("storage: claim payment %s: %w", p.ID, err)
	}
	return holder, claimed, nil
}

// PutWardenPayment writes the next step of an existing record (settling → submitted → settled
// or failed). The record's identity (resource, payer, amount, key, payload) cannot change.
// Errors: ErrNotFound for an unknown id, ErrBadKey for a record that does not check, a step
// backwards or a changed identity; ErrReadOnly; the commit's.
func (s *Store) PutWardenPayment(p WardenPayment) error {
	err := s.write(func(tx *bolt.Tx) error { return putWardenPayment(tx, p) })
	if err != nil {
		return fmt.Errorf("storage: put payment %s: %w", p.ID, err)
	}
	return nil
}

// WardenPayment reads one record; ErrNotFound when there is none.
func (s *Store) WardenPayment(id string) (WardenPayment, error) {
	var p WardenPayment
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket([]byte(BucketWardenPay)).Get([]byte(id))
		if v == nil {
			return ErrNotFound
		}
		return json.Unmarshal(v, &p)
	})
	if err != nil {
		return WardenPayment{}, fmt.Errorf("storage: payment %s: %w", id, err)
	}
	return p, nil
}

// WardenPayments calls fn for every record in id order until fn returns an error.
func (s *Store) WardenPayments(fn func(WardenPayment) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketWardenPay)).ForEach(func(_, v []byte) error {
			var p WardenPayment
			if err := json.Unmarshal(v, &p); err != nil {
				return err
			}
			return fn(p)
		})
	})
}

// checkWardenPay checks one warden_payments row: a record that checks, under its own id.
func checkWardenPay(k, v []byte, _ *bolt.Bucket) error {
	var p WardenPayment
	if err := json.Unmarshal(v, &p); err != nil {
		return err
	}
	if p.ID != string(k) {
		return fmt.Errorf("record of %q under key %q", p.ID, k)
	}
	return p.check()
}

func putWardenPayment(tx *bolt.Tx, p WardenPayment) error {
	if err := p.check(); err != nil {
		return fmt.Errorf("%v: %w", err, ErrBadKey)
	}
	enc, err := json.Marshal(p)
	if err != nil {
		return err
	}
	b := tx.Bucket([]byte(BucketWardenPay))
	v := b.Get([]byte(p.ID))
	if v == nil {
		return ErrNotFound
	}
	var old WardenPayment
	if err := json.Unmarshal(v, &old); err != nil {
		return err
	}
	next := false
	for _, st := range wardenPayNext[old.Status] {
		next = next || st == p.Status
	}
	if !next || old.Key != p.Key || old.Resource != p.Resource || old.Payer != p.Payer ||
		old.Amount != p.Amount || string(old.Payload) != string(p.Payload) {
		return fmt.Errorf("%s → %s or a changed identity: %w", old.Status, p.Status, ErrBadKey)
	}
	return b.Put([]byte(p.ID), enc)
}
