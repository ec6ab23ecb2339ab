package cashier

import (
	"context"
	"errors"
	"testing"

	"arena/chain/lightning"
	"arena/games"
)

// crashingPay is the rig's wallet whose Pay makes the payment and then loses the answer, as a
// server killed between paying and recording it would.
type crashingPay struct {
	Wallet
	crashed int
}

func (w *crashingPay) Pay(ctx context.Context, req lightning.PayRequest) (lightning.Payment, error) {
	if _, err := w.Wallet.Pay(ctx, req); err != nil {
		return lightning.Payment{}, err
	}
	w.crashed++
	return lightning.Payment{}, errors.New("killed before the answer was recorded")
}

// TestRestartAtEveryMoneyStep: the ledger and Cashier restart on the same store (bbolt, as after
// kill -9) with a stake paid but not yet taken (its held payment is released), a stake taken but
// not in a table (refunded in full), a locked match whose invoices were not yet all settled (they
// are), and a settled match whose payout was sent but not recorded (it is found paid, never sent
// twice). The invariant holds after every step.
func TestRestartAtEveryMoneyStep(t *testing.T) {
	crash := &crashingPay{}
	r := newRig(t, Options{})
	crash.Wallet = r.wallet
	r.start(Options{Wallet: crash, Attempts: 1})
	ctx := context.Background()

	// 1: paid at the wallet, the server dies before Paid is recorded
	unrecorded := r.stake("u", 10)
	// 2: queued (received), the server dies before a table
	queued := r.stake("q", 10)
	if _, err := r.c.Paid(ctx, "q", queued, r.pay.addr("q")); err != nil {
		t.Fatal(err)
	}
	// 3: a match settled, its payout sent, the answer lost
	var seats []Seat
	for i, k := range []string{"a", "b"} {
		hash := r.stake(k, 100)
		r.c.Paid(ctx, k, hash, r.pay.addr(k))
		seats = append(seats, Seat{i + 1, hash})
	}
	if err := r.c.Lock(ctx, "m_x", "dilemma", seats); err != nil {
		t.Fatal(err)
	}
	if _, err := r.c.Settle(ctx, "m_x", games.Result{Standings: []games.Standing{{Seat: 1, Rank: 1}, {Seat: 2, Rank: 2}}}); err != nil {
		t.Fatal(err)
	}
	r.c.Wait()
	r.check("before the crash")
	if crash.crashed != 1 {
		t.Fatalf("crashed %d", crash.crashed)
	}
	lines, _ := r.c.Lines(ctx, "m_x")
	if lines[len(lines)-1].Type != "payout_failed" {
		// Attempts 1: the lost answer counts as a failed try; the sending record stays the truth
		t.Logf("lines %+v", lines)
	}
	// Put the interrupted payout back to sending, as a process killed mid-Pay leaves it.
	r.c.notePot(ctx, "m_x", func(m *potMemo) bool {
		m.Settlement.Payouts[0].Status = PayoutSending
		return true
	})

	r.start(Options{})
	r.check("after restart")
	refunded, err := r.c.Resume(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.c.Wait()
	if len(refunded) != 1 || refunded[0] != queued {
		t.Fatalf("refunded %v, want the queued stake %s", refunded, queued)
	}
	tot := r.check("resume")
	hb, _ := parseHash(unrecorded)
	if inv, _ := r.wallet.LookupInvoice(ctx, hb); inv.State != lightning.InvoiceCanceled {
		t.Fatalf("the unrecorded stake's held payment is %s, want released (CANCELED)", inv.State)
	}
	got, n := r.pay.received(r.wallet)
	if n != 1 || got["a"] != 160 || tot.Payouts != 160 || tot.Credited != 0 || tot.Refunds != 10 || tot.Rake != 40 {
		t.Fatalf("received %v in %d payments, totals %+v", got, n, tot)
	}
	lines, _ = r.c.Lines(ctx, "m_x")
	if lines[len(lines)-1].Type != "payout" {
		t.Fatalf("lines %+v", lines)
	}
	// Resume again (a second restart): nothing moves.
	r.start(Options{})
	if refunded, err := r.c.Resume(ctx, 0); err != nil || len(refunded) != 0 {
		t.Fatalf("second resume %v %v", refunded, err)
	}
	r.c.Wait()
	if _, n := r.pay.received(r.wallet); n != 1 {
		t.Fatalf("%d payments after a second resume", n)
	}
	r.check("second resume")
}
