package cashier

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnurl"
)

// Payouts pays match's unfinished payouts in the background, one match at a time (a second call
// while one runs does nothing). Each payout: its Lightning address resolved to an invoice for
// exactly its sats (lnurl: min/maxSendable, the description hash), decoded and checked again here
// (amount, network, expiry, description hash present), recorded as sending, then paid. A failure
// is retried up to Attempts times with Backoff doubling; then failed, final.
func (c *Cashier) Payouts(ctx context.Context, match string) {
	c.mu.Lock()
	if c.running[match] {
		c.mu.Unlock()
		return
	}
	c.running[match] = true
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.running, match)
			c.mu.Unlock()
		}()
		c.payAll(context.WithoutCancel(ctx), match)
	}()
}

// Wait waits for every running payout to finish (tests, shutdown).
func (c *Cashier) Wait() { c.wg.Wait() }

func (c *Cashier) payAll(ctx context.Context, match string) {
	pm, err := c.notePot(ctx, match, func(*potMemo) bool { return false })
	if err != nil || pm.Settlement == nil {
		c.log.Error("breakroom payouts: no settlement", "match", match, "err", err)
		return
	}
	for i, p := range pm.Settlement.Payouts {
		if p.Status == PayoutPending || p.Status == PayoutSending {
			c.payOne(ctx, match, i)
		}
	}
}

// payOne drives payout i of match to paid or failed.
func (c *Cashier) payOne(ctx context.Context, match string, i int) {
	wait := c.o.Backoff
	for {
		pm, err := c.notePot(ctx, match, func(*potMemo) bool { return false })
		if err != nil {
			return
		}
		p := pm.Settlement.Payouts[i]
		if p.Status == PayoutPaid || p.Status == PayoutFailed {
			return
		}
		done, final, why := c.attempt(ctx, match, i, p)
		if done {
			return
		}
		attempts := p.Attempts + 1
		fail := final || attempts >= c.o.Attempts
		_, _ = c.notePot(ctx, match, func(m *potMemo) bool {
			q := &m.Settlement.Payouts[i]
			q.Attempts, q.Error, q.At = attempts, why, c.o.Now().UTC()
			if fail {
				q.Status = PayoutFailed
			}
			return true
		})
		if fail {
			c.log.Warn("breakroom payout failed", "match", match, "seat", p.Seat, "sats", p.Sats, "err", why)
			return
		}
		if c.o.Sleep(ctx, wait) != nil {
			return
		}
		wait *= 2
	}
}

// attempt makes one try at payout p (index i): done when it is paid; final when it can never be
// (a bad address, or an invoice whose fate is unknown: it stays credited); why the failure.
func (c *Cashier) attempt(ctx context.Context, match string, i int, p payoutMemo) (done, final bool, why string) {
	msat := uint64(p.Sats) * 1000
	b11 := p.Bolt11
	if p.Status == PayoutPending || b11 == "" {
		pr, _, err := c.o.Resolver.Invoice(ctx, p.Lnaddr, msat)
		if err != nil {
			return false, errors.Is(err, lnurl.ErrBadAddress), err.Error()
		}
		inv, err := c.checkPayout(pr, msat)
		if err != nil {
			return false, true, err.Error()
		}
		b11 = pr
		hx := hex.EncodeToString(inv.PaymentHash[:])
		// Durable before paying: after a crash the same invoice is paid again (the node answers
		// ErrAlreadyPaid for one it paid), never a second one.
		if _, err := c.notePot(ctx, match, func(m *potMemo) bool {
			q := &m.Settlement.Payouts[i]
			q.Status, q.Bolt11, q.Hash = PayoutSending, pr, hx
			return true
		}); err != nil {
			return false, false, err.Error()
		}
	} else if _, err := c.checkPayout(b11, msat); err != nil {
		// A sending payout's invoice that no longer passes (expired): whether it was paid is
		// not known here, so it is failed and stays credited for an operator.
		return false, true, "the invoice of an interrupted payout: " + err.Error()
	}
	pay, err := c.o.Wallet.Pay(ctx, lightning.PayRequest{Bolt11: b11, Msat: msat, MaxFeeMsat: maxFee(msat)})
	switch {
	case errors.Is(err, lightning.ErrAlreadyPaid):
	case err != nil:
		return false, errors.Is(err, lightning.ErrBadInvoice), err.Error()
	case pay.Status != lightning.PaymentSucceeded:
		// Failed for good at the node: this invoice was not paid; the next try fetches another.
		_, _ = c.notePot(ctx, match, func(m *potMemo) bool {
			q := &m.Settlement.Payouts[i]
			q.Status, q.Bolt11, q.Hash = PayoutPending, "", ""
			return true
		})
		return false, false, "payment failed: " + pay.FailureReason
	}
	_, err = c.notePot(ctx, match, func(m *potMemo) bool {
		q := &m.Settlement.Payouts[i]
		q.Status, q.At, q.Error = PayoutPaid, c.o.Now().UTC(), ""
		return true
	})
	if err != nil {
		return false, false, err.Error()
	}
	c.log.Info("breakroom payout paid", "match", match, "seat", p.Seat, "sats", p.Sats)
	return true, false, ""
}

// checkPayout decodes a payout invoice and checks it itself: this network, exactly msat, not
// expired, a description hash (LUD-06; lnurl checked it is the metadata's).
func (c *Cashier) checkPayout(pr string, msat uint64) (*bolt11.Invoice, error) {
	inv, err := bolt11.Decode(pr)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the payout invoice: %v", err)
	case inv.Currency != c.o.Currency:
		return nil, fmt.Errorf("the payout invoice is on %q, not %q", inv.Currency, c.o.Currency)
	case inv.Msat != msat:
		return nil, fmt.Errorf("the payout invoice asks %d msat, not %d", inv.Msat, msat)
	case inv.Expired(c.o.Now()):
		return nil, errors.New("the payout invoice has expired")
	case inv.DescriptionHash == nil:
		return nil, errors.New("the payout invoice has no description hash")
	}
	return inv, nil
}

// maxFee is the routing-fee budget of a payout of msat: 1 % and at least 10 sats, paid by the
// house on top of the payout.
func maxFee(msat uint64) uint64 { return max(msat/100, 10_000) }

// Retry puts match's failed payouts back to pending and pays them (the operator's retry). It
// answers how many it retried.
func (c *Cashier) Retry(ctx context.Context, match string) (int, error) {
	n := 0
	_, err := c.notePot(ctx, match, func(m *potMemo) bool {
		if m.Settlement == nil {
			return false
		}
		for i := range m.Settlement.Payouts {
			if q := &m.Settlement.Payouts[i]; q.Status == PayoutFailed {
				q.Status, q.Attempts, q.Bolt11, q.Hash = PayoutPending, 0, "", ""
				n++
			}
		}
		return n > 0
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		c.Payouts(ctx, match)
	}
	return n, nil
}

// Resume reconciles the ledger with the wallet after a start (package doc): holds paid but not
// received are received, holds with a balance in no pot are refunded ("restart"), staked holds'
// invoices still held are settled, and every settled pot's unfinished payouts resume. Pots locked
// but never settled are the Room's (their matches restore or are abandoned, then Settle). Only
// holds opened at or before ledger row upTo are looked at (0: all): the caller passes the last
// row at its start, so a stake of a join after the start is never taken for a queued one. It
// answers the payment hashes refunded.
func (c *Cashier) Resume(ctx context.Context, upTo uint64) ([]string, error) {
	st, err := c.led.State(ctx)
	if err != nil {
		return nil, walletError("the ledger", err)
	}
	if upTo == 0 {
		upTo = st.Last
	}
	var refunded []string
	for id, h := range st.Holds {
		hx, ok := strings.CutPrefix(id, "ln:")
		if !ok || h.Unit != Unit || (upTo > 0 && h.Opened > upTo) {
			continue
		}
		var m holdMemo
		if json.Unmarshal(h.Memo, &m) != nil {
			continue
		}
		hash, _ := parseHash(hx)
		switch {
		case h.Staked > 0:
			pre, _ := parseHash(m.Preimage)
			if err := c.settleInvoice(ctx, pre); err != nil {
				c.log.Error("breakroom resume: settle a staked invoice", "payment_hash", hx, "err", err)
			}
		case h.Refunded > 0:
		case h.Received > 0:
			if _, err := c.Refund(ctx, hx, "restart"); err != nil {
				c.log.Error("breakroom resume: refund", "payment_hash", hx, "err", err)
				continue
			}
			refunded = append(refunded, hx)
		default:
			// Never received: if the payer's HTLC is held, release it; the stake was never ours.
			if inv, err := c.o.Wallet.LookupInvoice(ctx, hash); err == nil && (inv.State == lightning.InvoiceAccepted || inv.State == lightning.InvoiceOpen) {
				_ = c.o.Wallet.CancelInvoice(ctx, hash)
			}
		}
	}
	for _, p := range sortedPots(st) {
		var pm potMemo
		if p.Settled != 0 && json.Unmarshal(p.Memo, &pm) == nil && pm.Settlement != nil {
			c.Payouts(ctx, strings.TrimPrefix(p.ID, "match:"))
		}
	}
	return refunded, nil
}
