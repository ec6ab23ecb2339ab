package wardenpay

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/storage"
)

// Books are the Warden's money as the store records it (§2, §11), in the stake token's atomic
// units: stakes in (settled stake payments), paid out and refunded (confirmed jobs), and the
// house's shares of settled matches.
type Books struct {
	StakesIn int64
	PaidOut  int64
	Refunded int64
	House    int64
}

// Audit is the Warden's ledger invariant, for every test that moves Warden money: for every
// match, stakes in = payouts + refunds + house once it is SETTLED or CLOSED, and never less
// than what left while it is open; a Ledger row exists only for a SETTLED match, and each of
// its payouts is a confirmed payout job of the same seat, amount and transaction (no row is
// written before its money moved); a SETTLED match was paid nothing but its rows' payouts
// and a CLOSED one nothing but refunds of its cleared stakes; a queued settlement's confirmed
// jobs are payouts of its rows' amounts (one that is not keeps the match SETTLING for good);
// and storage.VerifyWarden holds.
// It returns the totals, whose Σ stakes in − Σ paid out − Σ refunded is what the escrow
// wallet holds of the matches' money (the test compares it with the chain).
func Audit(st *storage.Store) (Books, error) {
	type acct struct {
		in, paid, refunded int64
		status             string
		jobs               map[string]Job
	}
	per := map[string]*acct{}
	get := func(m string) *acct {
		if per[m] == nil {
			per[m] = &acct{jobs: map[string]Job{}}
		}
		return per[m]
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := st.WardenPayments(func(p storage.WardenPayment) error {
		if p.Match != "" && p.Status == storage.WardenPaySettled {
			get(p.Match).in += int64(p.Amount)
		}
		return nil
	}); err != nil {
		return Books{}, err
	}
	if err := st.WardenKeys("payoutq/", func(k string, v []byte) error {
		var j Job
		if err := json.Unmarshal(v, &j); err != nil {
			return err
		}
		a := get(j.Match)
		a.jobs[j.Seat] = j
		if j.Status == JobConfirmed {
			if j.Kind == KindRefund {
				a.refunded += int64(j.Amount)
			} else {
				a.paid += int64(j.Amount)
			}
		}
		return nil
	}); err != nil {
		return Books{}, err
	}
	if err := st.WardenKeys("match/", func(k string, v []byte) error {
		var m struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		get(strings.TrimPrefix(k, "match/")).status = m.Status
		return nil
	}); err != nil {
		return Books{}, err
	}
	queued := map[string]pending{}
	if err := st.WardenKeys("settle/", func(k string, v []byte) error {
		var p pending
		if err := json.Unmarshal(v, &p); err != nil {
			return err
		}
		queued[p.Match] = p
		return nil
	}); err != nil {
		return Books{}, err
	}
	house := map[string]int64{}
	rows := map[string][]storage.WardenRow{}
	if err := st.WardenRows(1, func(r storage.WardenRow) error {
		rows[r.MatchID] = append(rows[r.MatchID], r)
		house[r.MatchID] += r.HouseShare
		return nil
	}); err != nil {
		return Books{}, err
	}
	var b Books
	for id, a := range per {
		b.StakesIn += a.in
		b.PaidOut += a.paid
		b.Refunded += a.refunded
		b.House += house[id]
		if out := a.paid + a.refunded; out > a.in {
			bad("match %s: %d left (paid %d, refunded %d), only %d came in", id, out, a.paid, a.refunded, a.in)
		}
		if p, ok := queued[id]; ok {
			for _, seat := range p.Jobs {
				i, _ := seatIndex(seat)
				if j, ok := a.jobs[seat]; ok && j.Status == JobConfirmed && (j.Kind != KindPayout || int64(j.Amount) != p.Rows[i].PaidOut) {
					bad("match %s seat %s: %s job confirmed %d, its Ledger row pays %d (the match cannot settle)", id, seat, j.Kind, j.Amount, p.Rows[i].PaidOut)
				}
			}
		}
		rs := rows[id]
		switch {
		case a.status == StatusSettled:
			if len(rs) != 2 {
				bad("match %s is SETTLED with %d Ledger rows", id, len(rs))
				continue
			}
			if a.in != a.paid+house[id] || a.refunded != 0 {
				bad("match %s: stakes in %d ≠ paid %d + house %d (refunded %d)", id, a.in, a.paid, house[id], a.refunded)
			}
			for _, r := range rs {
				j, ok := a.jobs[r.Seat]
				switch {
				case r.PaidOut == 0 && ok:
					bad("match %s seat %s: paid nothing, yet has a %s job", id, r.Seat, j.Kind)
				case r.PaidOut == 0:
				case !ok || j.Kind != KindPayout || j.Status != JobConfirmed || int64(j.Amount) != r.PaidOut || r.PayoutRef == nil || *r.PayoutRef != j.Tx:
					bad("match %s seat %s: Ledger row pays %d by %v, its job is %+v", id, r.Seat, r.PaidOut, r.PayoutRef, j)
				}
			}
		case len(rs) != 0:
			bad("match %s is %s, yet has %d Ledger rows (written before its payouts confirmed)", id, a.status, len(rs))
		case a.status == StatusClosed:
			if a.in != a.refunded || a.paid != 0 {
				bad("match %s is CLOSED: stakes in %d, refunded %d, paid %d", id, a.in, a.refunded, a.paid)
			}
		}
	}
	if _, err := st.VerifyWarden(); err != nil {
		errs = append(errs, err)
	}
	return b, errors.Join(errs...)
}
