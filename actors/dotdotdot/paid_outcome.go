package dotdotdot

import (
	"context"

	"arena/actors/anchors"
	ccdaddr "arena/chain/ccd"
	"arena/chain/escrow"
	"arena/games"
	"arena/storage"
)

// What became of a paid seat's entry, for GET {check} (§5.7): the check reports paid and
// paid_by, and once the money has moved, whether it was settled (the seat's payout to paid_by)
// or refunded (to the pay_from account it came from), the amount, and the escrow transaction
// carrying it. It is read from the ledger, which has every payout and refund before the escrow
// hears of it, and the transaction from the chain actor's index of the escrow calls (the same
// call every time it is made: settleJob, the sweep's refund), so the check never says more than
// the ledger recorded nor names a transaction that does not carry it.

// outcome fills c's Outcome, Payout and Refunds for the hold v (its table past starts_at).
func (p *PaidTables) outcome(ctx context.Context, v *paidHoldView, c *PaidCheck) error {
	l := p.o.Ledger
	busy := func(err error) error {
		return &games.Error{Code: "busy", Msg: "the ledger could not be read: " + err.Error(), Retry: true}
	}
	if c.Status == storage.PaidSeated && c.Round != "" {
		pot, ok, err := l.Pot(ctx, c.Round)
		if err != nil {
			return busy(err)
		}
		if ok && pot.Settled != 0 {
			if err := p.settledOutcome(ctx, c); err != nil {
				return err
			}
		}
	}
	for _, acc := range v.Hold.PayFrom {
		addr := addressOf(acc)
		var amount int64
		if acc == c.PaidBy {
			h, ok, err := l.Hold(ctx, v.Hold.Hold)
			if err != nil {
				return busy(err)
			}
			if ok {
				amount += h.Refunded
			}
		}
		rh, ok, err := l.Hold(ctx, refundHoldID(v.Hold.SeatToken, addr))
		if err != nil {
			return busy(err)
		}
		if ok {
			amount += rh.Refunded
		}
		if amount <= 0 {
			continue
		}
		tr := PaidTransfer{To: acc, Amount: amount}
		if payer, err := ccdaddr.ParseAddress(addr); err == nil && p.escrowCalled() {
			p.landing(p.o.Contract.Call("refund", escrow.EncodeRefund(v.Hold.SeatToken, payer, uint64(amount)), 0), &tr)
		}
		c.Refunds = append(c.Refunds, tr)
	}
	if c.Outcome == "" && len(c.Refunds) > 0 && c.Status != storage.PaidSeated {
		c.Outcome = "refunded"
	}
	return nil
}

// settledOutcome fills c for a seat whose round's pot the ledger has settled: its payout to
// paid_by as the settlement has it, and the settle call's transaction.
func (p *PaidTables) settledOutcome(ctx context.Context, c *PaidCheck) error {
	v, err := paidAsk[*paidTableView](ctx, p, &paidTableGet{Round: c.Round})
	if err != nil {
		return err
	}
	if !v.OK {
		return nil
	}
	st, ok := p.settlement(v.Table, v.Round, v.PaidBy, v.Void)
	if !ok {
		return nil
	}
	c.Outcome, c.Voided = "settled", v.Void.why
	for _, py := range st.Paid {
		if py.Seat != c.Seat {
			continue
		}
		tr := PaidTransfer{To: py.Account, Amount: py.Amount}
		if p.escrowCalled() {
			_, house := st.ledgerSettle()
			if job, err := p.settleJob(st, house); err == nil {
				p.landing(job.Call, &tr)
			}
		}
		c.Payout = &tr
	}
	return nil
}

// escrowCalled reports whether the paid tables call the escrow (a chain and the house's account).
func (p *PaidTables) escrowCalled() bool { return p.o.Chain != nil && p.o.House != "" }

// landing fills tr's transaction from the chain actor's index of call, if it was submitted.
func (p *PaidTables) landing(call ccdaddr.ContractCall, tr *PaidTransfer) {
	land, ok, err := anchors.LookupCall(p.a.Store(), call)
	if err != nil || !ok {
		return
	}
	tr.Tx, tr.Final, tr.Rejected = land.Tx, land.Final, land.Rejected
}
