package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Paid tables (bucket paid), DOTDOTDOT's tables with an entry on the escrow (§5.7), kept from the
// first hold until the round is settled or the table closed, so that a restart at any step picks
// each table up where it stood (the money itself is the ledger's, bucket ledger):
//
//	paid  <table id>   PaidTable JSON, its holds inside in hold order
//
// The paid-table actor (actors/dotdotdot/paid_actor.go) is the only writer; it writes a table's
// record before it answers what rests on it (a hold, a seat).

// Paid table statuses as stored (PaidTable.Status), in the order a table goes through them.
const (
	PaidFilling = "filling" // taking holds until StartsAt
	PaidDecided = "decided" // StartsAt passed: the holds' deposits were read and the paid seats chosen
	PaidOpen    = "open"    // the table plays Round; the stakes are in the ledger
	PaidSettled = "settled" // the round's pot is settled in the ledger and the settle is queued for the escrow
	PaidClosed  = "closed"  // no round: no paid seat, or the table failed to open (Failed says why)
)

// Paid hold statuses as stored (PaidHold.Status), as GET {check} reports them.
const (
	PaidHolding = "holding"
	PaidSeated  = "seated"
	PaidDropped = "dropped" // not paid at StartsAt
	PaidFailed  = "failed"  // paid, but the table failed to open
)

// PaidTable is one paid table as stored. Entry is every seat's entry in microCCD; House the
// house seats once the table opened; Round its round once opened.
type PaidTable struct {
	ID       string     `json:"id"`
	Format   string     `json:"format"`
	Entry    int64      `json:"entry"`
	StartsAt time.Time  `json:"starts_at"`
	Status   string     `json:"status"`
	Holds    []PaidHold `json:"holds"`
	Round    string     `json:"round,omitempty"`
	House    []int      `json:"house_seats,omitempty"`
	Failed   string     `json:"failed,omitempty"`
	// Reconciled is set once the escrow was read settled exactly as the ledger settled the round
	// (the reconciliation reads it no more).
	Reconciled bool `json:"reconciled,omitempty"`
	// Voided says why an open table's round is settled void (every seat's entry back to whoever
	// staked it) rather than by its result: its table stopped or failed and was not restarted in
	// time. VoidHash is the transcript hash ("sha256:<hex>") of its events when it was voided,
	// the one settle anchors.
	Voided   string `json:"voided,omitempty"`
	VoidHash string `json:"void_transcript_hash,omitempty"`
}

// PaidHold is one hold of a paid table: the agent's join, who may pay, and what the chain said
// at StartsAt. SeatToken is the deposit's parameter (public on chain once a deposit is made).
// Paid, PaidBy and Amount name the counted deposit (its payer, CAIP-10, and amount in microCCD);
// Seat is the seat once seated.
type PaidHold struct {
	ID        string   `json:"id"`
	SeatToken string   `json:"seat_token"`
	Agent     string   `json:"agent"`
	Name      string   `json:"name,omitempty"`
	Endpoint  string   `json:"endpoint"`
	Kind      string   `json:"kind,omitempty"`
	Owner     string   `json:"owner,omitempty"` // the Badge's owner, CAIP-10 (seat.taken's owner)
	Human     bool     `json:"human,omitempty"`
	PayFrom   []string `json:"pay_from"`
	Status    string   `json:"status"`
	Paid      bool     `json:"paid,omitempty"`
	PaidBy    string   `json:"paid_by,omitempty"`
	Amount    int64    `json:"amount,omitempty"`
	Pending   bool     `json:"pending,omitempty"`
	Foreign   int64    `json:"foreign,omitempty"`
	Seat      int      `json:"seat,omitempty"`
	Dropped   string   `json:"dropped,omitempty"` // why the hold was dropped, when that is said
	// Playbook is an off-the-shelf hold's playbook and dials (kind ots), as JSON; empty otherwise.
	Playbook json.RawMessage `json:"playbook,omitempty"`
	// OTSGrant is an off-the-shelf hold's key grant (dotdotdot.OTSGrant of the owner token, hex):
	// the seat signs with the key it names. Empty otherwise.
	OTSGrant string `json:"ots_grant,omitempty"`
}

// maxPaidID bounds a paid table's or hold's id and a seat token, in bytes.
const maxPaidID = 256

// PutPaidTables stores each table under its id, all in one transaction (coalesced with
// concurrent writers): durable when it returns nil. ErrBadKey for a table that does not fit the
// layout (checkPaid); nothing is written then.
func (s *Store) PutPaidTables(ts ...PaidTable) error {
	vals := make([][]byte, len(ts))
	for i := range ts {
		if err := checkPaid(&ts[i]); err != nil {
			return fmt.Errorf("storage: put paid table %q: %w: %v", ts[i].ID, ErrBadKey, err)
		}
		b, err := json.Marshal(&ts[i])
		if err != nil {
			return fmt.Errorf("storage: put paid table %s: %w", ts[i].ID, err)
		}
		vals[i] = b
	}
	err := s.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(BucketPaid))
		for i := range ts {
			if err := b.Put([]byte(ts[i].ID), vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: put paid tables: %w", err)
	}
	return nil
}

// PaidTables returns every stored paid table, in id order.
func (s *Store) PaidTables() ([]PaidTable, error) {
	var out []PaidTable
	err := s.scan(BucketPaid, "", func(k string, v []byte) error {
		var t PaidTable
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("%w: paid table %s: %v", ErrCorrupt, k, err)
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: paid tables: %w", err)
	}
	return out, nil
}

// checkPaid is the layout of a paid table: an id, a known status, a positive entry, and holds
// with ids and seat tokens unique in the table, known statuses, and a payer for each counted one.
func checkPaid(t *PaidTable) error {
	if t.ID == "" || len(t.ID) > maxPaidID {
		return fmt.Errorf("table id %q", t.ID)
	}
	switch t.Status {
	case PaidFilling, PaidDecided, PaidOpen, PaidSettled, PaidClosed:
	default:
		return fmt.Errorf("status %q", t.Status)
	}
	if t.Entry <= 0 {
		return fmt.Errorf("entry %d", t.Entry)
	}
	if (t.Status == PaidOpen || t.Status == PaidSettled) && t.Round == "" {
		return errors.New("an open table without its round")
	}
	if (t.Voided == "") != (t.VoidHash == "") || (t.Voided != "" && t.Status != PaidOpen && t.Status != PaidSettled) {
		return errors.New("a void without its reason and transcript hash, or on a table not open")
	}
	ids, toks := map[string]bool{}, map[string]bool{}
	for _, h := range t.Holds {
		if h.ID == "" || len(h.ID) > maxPaidID || ids[h.ID] {
			return fmt.Errorf("hold id %q", h.ID)
		}
		if h.SeatToken == "" || len(h.SeatToken) > maxPaidID || toks[h.SeatToken] {
			return fmt.Errorf("hold %s: seat token", h.ID)
		}
		ids[h.ID], toks[h.SeatToken] = true, true
		switch h.Status {
		case PaidHolding, PaidSeated, PaidDropped, PaidFailed:
		default:
			return fmt.Errorf("hold %s: status %q", h.ID, h.Status)
		}
		if h.Paid && (h.PaidBy == "" || h.Amount <= 0) {
			return fmt.Errorf("hold %s: paid without a payer and amount", h.ID)
		}
		if h.Status == PaidSeated && (!h.Paid || h.Seat < 1) {
			return fmt.Errorf("hold %s: seated unpaid or without a seat", h.ID)
		}
	}
	return nil
}

// checkPaidKey is Check's look at one key of the paid bucket.
func checkPaidKey(k, v []byte, _ *bolt.Bucket) error {
	var t PaidTable
	if err := json.Unmarshal(v, &t); err != nil {
		return fmt.Errorf("paid table does not decode: %v", err)
	}
	if t.ID != string(k) {
		return fmt.Errorf("paid table %q under another key", t.ID)
	}
	return checkPaid(&t)
}
