package dotdotdot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/anchors"
	"arena/actors/ledger"
	ccdaddr "arena/chain/ccd"
	"arena/chain/escrow"
	"arena/storage"
)

// The sweep: money on the escrow that does not play goes back to whoever paid it. The escrow
// lists every payer's unspent money under every seat token (view_unspent); the sweep holds
// each against what the paid tables know of the token and refunds what no seat counts on:
//
//   - deposits under a seat token the arena never issued, or under a house seat's;
//   - deposits from an account not in the hold's pay_from (foreign);
//   - deposits made after starts_at (late), or too small, or not final at starts_at (unpaid);
//   - a second deposit of a paid seat, and the part of a counted deposit above the entry
//     (over-paid);
//   - a paid seat's entry when its table failed to open (refunded in the ledger first, by
//     noteClosed).
//
// A token whose table is still filling, or whose paid seats are being chosen, or whose closing
// is not yet written, is left alone.
// Each refund is written to the ledger first (a hold per seat token and payer, money received
// and refunded in one post, under a key naming the payer's refunded total), then sent to the
// escrow as refund(token, payer, total): the call names the total, not the difference, so one
// sent twice (a restart, a retry) pays once, and one whose ledger rows landed but whose call was
// lost is sent again on the next sweep (the ledger's total above the escrow's).

// tokenInfo is what the paid tables know of one seat token when a sweep starts.
type tokenInfo struct {
	hold   string // the hold's id
	paidBy string // the counted deposit's payer (base58), if any
	table  string
	settle bool // the token's fate is decided: what no seat counts on may be refunded
}

// sweep refunds the escrow's unspent money that does not play (on a goroutine: one sweep at a
// time; a sweep asked for meanwhile runs after it). PaidTables.Sweep's callers hear when it
// ends.
func (a *paidActor) sweep(ctx actor.Context) {
	if a.sweeping {
		a.sweepAgain = true
		return
	}
	waiting := a.sweepers
	a.sweepers = nil
	ur, ok := a.p.o.Deposits.(UnspentReader)
	rr, _ := a.p.o.Deposits.(RoundReader)
	if !a.escrowOn() || !ok {
		for _, s := range waiting {
			ctx.Send(s, &paidSwept{})
		}
		return
	}
	var rounds []reconRound
	if rr != nil {
		rounds = a.rounds()
	}
	known := map[string]tokenInfo{}
	for _, t := range a.byID {
		// A closing not yet written is no fate: a restart takes the table up from its stored
		// status, and may open it with the deposits a refund would have sent back.
		fate := t.status == storage.PaidOpen || t.status == storage.PaidSettled || (t.status == storage.PaidClosed && t.written == storage.PaidClosed) ||
			(t.status == storage.PaidDecided && t.received)
		for _, h := range t.holds {
			ti := tokenInfo{hold: h.Hold, table: t.id, settle: fate}
			if h.check.Paid {
				ti.paidBy = addressOf(h.check.PaidBy)
			}
			known[h.SeatToken] = ti
		}
	}
	a.sweeping = true
	a.run(ctx, func() func() {
		out := a.sweepWork(ur, rr, known, rounds)
		return func() {
			a.sweeping = false
			err := out.err
			if err != nil {
				a.p.log.Warn("paid tables: sweep incomplete (tried again at the next)", "err", err)
			} else {
				a.applyMismatches(out.mismatches)
			}
			a.applyEscrow(ctx, out)
			for _, s := range waiting {
				ctx.Send(s, &paidSwept{Err: err})
			}
			if a.sweepAgain || len(a.sweepers) > 0 {
				a.sweepAgain = false
				a.sweep(ctx)
			}
		}
	})
}

// sweepWork is one sweep's work (off the actor: it reads only its arguments, the options and
// the reconciliation's memory): the rounds reconciled with view_round, then the unspent money
// refunded and reconciled with view_unspent.
func (a *paidActor) sweepWork(ur UnspentReader, rr RoundReader, known map[string]tokenInfo, rounds []reconRound) sweepOut {
	var out sweepOut
	rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := a.p.o.Ledger.State(rctx)
	if err != nil {
		out.err = fmt.Errorf("read the ledger: %w", err)
		return out
	}
	errs := a.reconcileRounds(rctx, rr, st, rounds, &out)
	if err := a.refundUnspent(rctx, ur, st, known, &out); err != nil {
		errs = append(errs, err)
	}
	out.err = errors.Join(errs...)
	return out
}

// applyEscrow keeps what a sweep read of the escrow (on the actor): the rounds it holds (their
// house seats no longer owed by the arena's account) and the rounds reconciled (written).
func (a *paidActor) applyEscrow(ctx actor.Context, out sweepOut) {
	for _, id := range out.onEscrow {
		if t := a.byID[id]; t != nil {
			t.onEscrow = true
		}
	}
	for _, id := range out.reconciled {
		if t := a.byID[id]; t != nil && !t.reconciled {
			t.reconciled = true
			a.save(ctx, t, nil)
			a.p.log.Info("paid round reconciled: the escrow settled it as the ledger did", "table", t.id, "round", t.round)
		}
	}
}

// refundUnspent refunds the escrow's unspent money that does not play, st being the ledger when
// the sweep began (off the actor).
func (a *paidActor) refundUnspent(rctx context.Context, ur UnspentReader, st *ledger.State, known map[string]tokenInfo, out *sweepOut) error {
	o := a.p.o
	list, err := ur.Unspent(rctx)
	if err != nil {
		return fmt.Errorf("read the escrow: %w", err)
	}
	var errs []error
	for _, u := range list {
		ti, isKnown := known[u.SeatToken]
		if isKnown && !ti.settle {
			continue
		}
		payer, err := ccdaddr.ParseAddress(u.Payer)
		if err != nil || payer == (ccdaddr.Address{}) {
			a.p.log.Error("paid tables: an escrow deposit with no account to refund", "payer", u.Payer)
			continue
		}
		account := a.accountOf(u.Payer)
		var mainRecv, mainRef int64 // what the hold's own entry took from this payer
		if isKnown && ti.paidBy == u.Payer {
			h := st.Holds[ti.hold]
			mainRecv, mainRef = h.Received, h.Refunded
		}
		rid := refundHoldID(u.SeatToken, u.Payer)
		rh, has := st.Holds[rid]
		unclaimed := u.Deposited - mainRecv - rh.Received
		target := mainRef + rh.Refunded
		switch {
		case unclaimed > 0:
			total := rh.Received + unclaimed
			var rows []ledger.Row
			if !has {
				memo, _ := json.Marshal(refundMemo{Token: tokenHash(u.SeatToken), Payer: account, Hold: ti.hold, Table: ti.table})
				rows = append(rows, ledger.OpenHold(rid, PaidUnit, memo))
			}
			n := strconv.FormatInt(total, 10)
			rows = append(rows, ledger.Receive(rid, account, unclaimed, "escrow/"+rid+"/"+n), ledger.Refund(rid, account, unclaimed, "refund/"+rid+"/"+n))
			if err := postRows(o.Ledger, "paid/refund/"+rid+"/"+n, rows); err != nil {
				errs = append(errs, err)
				continue
			}
			target += unclaimed
			if f := o.OnStep; f != nil {
				f("refund", ti.table, "")
			}
		case unclaimed < 0:
			a.report(EscrowMismatch{Kind: MismatchDeposit, Table: ti.table, Payer: account, Token: tokenHash(u.SeatToken),
				Detail: fmt.Sprintf("the ledger counts %s CCD of this payer's deposits under the seat token; the escrow holds %s CCD",
					ccdText(mainRecv+rh.Received), ccdText(u.Deposited))}, out)
			continue
		}
		if target > u.Refunded {
			job := anchors.CallJob{Table: ti.table, Name: "refund",
				Call: o.Contract.Call("refund", escrow.EncodeRefund(u.SeatToken, payer, uint64(target)), 0)}
			m := EscrowMismatch{Kind: MismatchRefund, Table: ti.table, Payer: account, Token: tokenHash(u.SeatToken),
				Detail: fmt.Sprintf("the ledger refunded %s CCD to this payer under the seat token; the escrow %s CCD", ccdText(target), ccdText(u.Refunded))}
			if err := a.chase(job, m, out); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// refundMemo is a refund hold's memo: which seat token (its SHA-256) and payer it refunds, and
// the hold and table the token was issued for ("" when the arena never issued it).
type refundMemo struct {
	Token string `json:"seat_token_sha256"`
	Payer string `json:"payer"`
	Hold  string `json:"hold,omitempty"`
	Table string `json:"table,omitempty"`
}

// refundHoldID is the ledger hold of what is refunded to payer (base58) under token.
func refundHoldID(token, payer string) string { return "refund/" + tokenHash(token)[:32] + "/" + payer }

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// addressOf is the address part (base58) of a CAIP-10 account.
func addressOf(caip10 string) string { return caip10[lastColon(caip10)+1:] }

// accountOf is the CAIP-10 account of an escrow payer (base58), on the escrow's chain.
func (a *paidActor) accountOf(base58 string) string {
	chain := a.p.o.Escrow
	if chain == "" {
		chain = a.p.o.House
	}
	if i := lastColon(chain); i >= 0 {
		return chain[:i+1] + base58
	}
	return base58
}
