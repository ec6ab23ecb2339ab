package wardenpay

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"arena/chain/x402"
	"arena/storage"
)

// Settlement is a finished match's settlement (warden-games §2.2, §12.1): its id and its two
// Ledger rows, seat A then seat B, every member filled by the caller except Seq, PayoutRef,
// SettledAt, PrevHash and RowHash, which are the Ledger's and the payouts' (the SETTLED write
// fills them once every payout has confirmed, §12.2).
type Settlement struct {
	Match string
	Rows  [2]storage.WardenRow
	// Network is the stake rail's network (CAIP-2, "eip155:5042002"): both stakes must have
	// cleared on it (QueueSettlement).
	Network string
}

// pendingRef stands for a payout's transaction hash while Settlement is checked: the Ledger's
// check wants payout_ref set exactly when paid_out > 0.
const pendingRef = "pending"

// Check is the settlement's money invariant before anything is queued: the rows are seats A
// and B of s.Match, the members the Ledger and the payouts fill are empty, and the rows pass
// the Ledger's own check (storage.CheckWardenMatch) as they will be written: conservation
// (Σ paid_out + Σ house_share = 2S, house split with the odd unit to A), rake only on
// winnings and paid_out = G − rake, net = paid_out − S, results by net, each seat the other's
// opponent; and each contender id is a wallet address a payout can be sent to (not the zero
// address, to which a token transfer reverts). The error
// wraps storage.ErrInvalid.
func (s Settlement) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("wardenpay: settlement of %s: %w: "+format, append([]any{s.Match, storage.ErrInvalid}, args...)...)
	}
	rows := s.Rows[:]
	probe := make([]storage.WardenRow, 2)
	for i := range rows {
		r := rows[i]
		switch {
		case r.MatchID != s.Match:
			return bad("row %d names match %q", i, r.MatchID)
		case r.Seq != 0 || r.PayoutRef != nil || r.SettledAt != "" || r.PrevHash != "" || r.RowHash != "":
			return bad("row %s sets seq, payout_ref, settled_at, prev_hash or row_hash, which the SETTLED write fills", r.RowID)
		}
		if a, ok := x402.ParseAddress(r.ContenderID); !ok || a == (x402.Address{}) {
			return bad("row %s: contender id %q is not a wallet address a payout can be sent to", r.RowID, r.ContenderID)
		}
		if r.PaidOut > 0 {
			ref := pendingRef
			r.PayoutRef = &ref
		}
		r.SettledAt = r.FinishedAt
		probe[i] = r
	}
	if err := storage.CheckWardenMatch(probe); err != nil {
		return fmt.Errorf("wardenpay: settlement of %s: %w", s.Match, err)
	}
	return nil
}

// pending is a queued settlement as settle/<match> stores it: the rows the SETTLED write
// appends once every payout of Jobs (their seats) has confirmed.
type pending struct {
	Match string               `json:"match"`
	Rows  [2]storage.WardenRow `json:"rows"`
	Jobs  []string             `json:"jobs"` // seats with a payout job
}

// Keys of a match's settlement and jobs in warden_state (§11).
func settleKey(match string) string    { return "settle/" + match }
func jobKey(match, seat string) string { return "payoutq/" + match + "/" + seat }
func matchKey(match string) string     { return "match/" + match }
func walletKey(a x402.Address) string  { return "wallet/" + a.String() }
func jobPrefix(match string) string    { return "payoutq/" + match + "/" }
func seatIndex(seat string) (int, bool) {
	i := map[string]int{"A": 0, "B": 1}[seat]
	return i, seat == "A" || seat == "B"
}

// Match statuses this package reads and writes (§5.1); the match's other members are left as
// they are.
const (
	StatusStaking   = "STAKING"
	StatusFinished  = "FINISHED"
	StatusSettling  = "SETTLING"
	StatusSettled   = "SETTLED"
	StatusOpen      = "OPEN"
	StatusExpired   = "EXPIRED"
	StatusCanceled  = "CANCELED"
	StatusRefunding = "REFUNDING"
	StatusClosed    = "CLOSED"
)

// ErrQueued is QueueSettlement's refusal of a second, different settlement of one match.
var ErrQueued = errors.New("wardenpay: the match's settlement is queued already")

// QueueSettlement queues s inside the caller's warden transaction, the one that moves the
// match FINISHED → SETTLING (§5.1, §11): one payout job per non-zero PaidOut under
// payoutq/<match>/<seat> (to the row's contender, PaidOut atomic units of the stake token), and
// the rows under settle/<match> for the SETTLED write. Durable when the caller's transaction
// commits; nothing is sent until then (the Worker picks the jobs up). A match whose payouts
// are all zero is settled by the Worker without a transaction.
//
// The match's record (match/<id>) must exist with status FINISHED or SETTLING (either order of
// the two writes in the transaction), and the rows must pay its seats' wallets (a, b) for its
// stake (§2.1, §11). Both stakes must have cleared (§10.4, §12.2: nothing is paid out of a bank
// that was never filled): the record's stakes member names, for seat A and for seat B, a
// stored payment record with status settled, amount the match's stake, payer that seat's
// wallet (compared as addresses) and network s.Network. The same settlement queued again is a
// no-op.
// Errors, with nothing written: s breaks Check, or names other wallets or another stake than
// the record, or a stake has not cleared (wraps storage.ErrInvalid); the match has no
// record or another status; the match settled already (its Ledger rows exist, storage.ErrExists);
// another settlement of the match is queued (ErrQueued); the store's.
func QueueSettlement(tx storage.WardenTx, s Settlement) error {
	if err := s.Check(); err != nil {
		return err
	}
	rec, err := matchRecord(tx, s.Match)
	if err != nil {
		return err
	}
	if st := rec.Status; st != StatusFinished && st != StatusSettling {
		return fmt.Errorf("wardenpay: settlement of %s: the match is %s, not FINISHED", s.Match, st)
	}
	for i, seat := range [2]string{rec.A, rec.B} {
		want, _ := x402.ParseAddress(seat)
		got, _ := x402.ParseAddress(s.Rows[i].ContenderID)
		if got != want {
			return fmt.Errorf("wardenpay: settlement of %s: %w: row %s pays %s, the match's seat %s is %q",
				s.Match, storage.ErrInvalid, s.Rows[i].RowID, s.Rows[i].ContenderID, s.Rows[i].Seat, seat)
		}
	}
	if rec.Stake == nil || *rec.Stake != s.Rows[0].Stake {
		return fmt.Errorf("wardenpay: settlement of %s: %w: rows stake %d, the match's stake is %v",
			s.Match, storage.ErrInvalid, s.Rows[0].Stake, rec.Stake)
	}
	if err := stakesCleared(tx, s, rec); err != nil {
		return err
	}
	if tx.WardenSettled(s.Match) {
		return fmt.Errorf("wardenpay: settlement of %s: %w", s.Match, storage.ErrExists)
	}
	p := pending{Match: s.Match, Rows: s.Rows}
	var jobs []Job
	for _, r := range s.Rows {
		if r.PaidOut == 0 {
			continue
		}
		to, _ := x402.ParseAddress(r.ContenderID)
		p.Jobs = append(p.Jobs, r.Seat)
		jobs = append(jobs, Job{Match: s.Match, Seat: r.Seat, Kind: KindPayout, To: to.String(),
			Amount: uint64(r.PaidOut), Status: JobQueued})
	}
	var old pending
	if found, err := tx.Get(settleKey(s.Match), &old); err != nil {
		return err
	} else if found {
		if sameJSON(old, p) {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrQueued, s.Match)
	}
	if err := tx.Scan(jobPrefix(s.Match), func(k string, _ []byte) error {
		return fmt.Errorf("%w: %s holds job %s", ErrQueued, s.Match, k)
	}); err != nil {
		return err
	}
	for _, j := range jobs {
		if err := tx.Put(jobKey(j.Match, j.Seat), j); err != nil {
			return err
		}
	}
	return tx.Put(settleKey(s.Match), p)
}

// seatRecord is the part of match/<id> a settlement is checked against (§5.1): the seats'
// wallets, the stake S in atomic units, the status.
type seatRecord struct {
	Status string            `json:"status"`
	A      string            `json:"a"`
	B      string            `json:"b"`
	Stake  *int64            `json:"stake"`
	Stakes map[string]string `json:"stakes"` // seat → cleared payment id
}

// stakesCleared checks that each seat of rec has a settled payment record of the match's
// stake from its wallet on s.Network (§10.4); rec's stake equals the rows' (checked before).
// The error wraps storage.ErrInvalid, or is the store's.
func stakesCleared(tx storage.WardenTx, s Settlement, rec seatRecord) error {
	for _, seat := range [2]string{"A", "B"} {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("wardenpay: settlement of %s: %w: seat %s's stake "+format,
				append([]any{s.Match, storage.ErrInvalid, seat}, args...)...)
		}
		id := rec.Stakes[seat]
		if id == "" {
			return bad("names no payment")
		}
		p, found, err := tx.Payment(id)
		if err != nil {
			return fmt.Errorf("wardenpay: settlement of %s: payment %s: %w", s.Match, id, err)
		}
		wallet := map[string]string{"A": rec.A, "B": rec.B}[seat]
		want, _ := x402.ParseAddress(wallet)
		payer, ok := x402.ParseAddress(p.Payer)
		switch {
		case !found:
			return bad("payment %s has no record", id)
		case p.Status != storage.WardenPaySettled:
			return bad("payment %s is %s, not settled", id, p.Status)
		case p.Amount != uint64(*rec.Stake):
			return bad("payment %s is of %d, the match's stake is %d", id, p.Amount, *rec.Stake)
		case !ok || payer != want:
			return bad("payment %s is from %s, the seat's wallet is %s", id, p.Payer, wallet)
		case s.Network == "" || p.Network != s.Network:
			return bad("payment %s is on network %q, the rail's is %q", id, p.Network, s.Network)
		}
	}
	return nil
}

// matchRecord is match/<id>'s seats, stake and status; a match with no record is an error.
func matchRecord(tx storage.WardenTx, match string) (seatRecord, error) {
	var m seatRecord
	found, err := tx.Get(matchKey(match), &m)
	if err != nil {
		return m, fmt.Errorf("wardenpay: match %s: %w", match, err)
	}
	if !found {
		return m, fmt.Errorf("wardenpay: match %s has no record", match)
	}
	return m, nil
}

// matchStatus is the status member of match/<id>.
func matchStatus(tx storage.WardenTx, match string) (string, error) {
	var m struct {
		Status string `json:"status"`
	}
	found, err := tx.Get(matchKey(match), &m)
	if err != nil {
		return "", fmt.Errorf("wardenpay: match %s: %w", match, err)
	}
	if !found {
		return "", fmt.Errorf("wardenpay: match %s has no record", match)
	}
	return m.Status, nil
}

// setMatchStatus rewrites match/<id>'s status member, keeping every other member as stored.
func setMatchStatus(tx storage.WardenTx, match, status string) error {
	var m map[string]json.RawMessage
	found, err := tx.Get(matchKey(match), &m)
	if err != nil {
		return fmt.Errorf("wardenpay: match %s: %w", match, err)
	}
	if !found {
		return fmt.Errorf("wardenpay: match %s has no record", match)
	}
	m["status"], _ = json.Marshal(status)
	return tx.Put(matchKey(match), m)
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var u, v any
	_ = json.Unmarshal(x, &u)
	_ = json.Unmarshal(y, &v)
	return reflect.DeepEqual(u, v)
}
