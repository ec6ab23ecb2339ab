package cashier

import (
	"context"
	"testing"

	"arena/chain/lightning/devwallet"
	"arena/games"
)

// TestRestartWithAForgetfulWalletPaysNothingTwice: a match is settled and its payout paid on the
// development wallet; the server restarts with a new development wallet that remembers no
// invoice and no payment (as `arena serve` does). Resume, twice, pays nothing: the pot's durable
// memo says paid, so the forgetful wallet is never asked; the money lines still end with the one
// payout and the invariant holds.
func TestRestartWithAForgetfulWalletPaysNothingTwice(t *testing.T) {
	r := newRig(t, Options{})
	ctx := context.Background()
	var seats []Seat
	for i, k := range []string{"a", "b"} {
		hash := r.stake(k, 100)
		if _, err := r.c.Paid(ctx, k, hash, r.pay.addr(k)); err != nil {
			t.Fatal(err)
		}
		seats = append(seats, Seat{i + 1, hash})
	}
	if err := r.c.Lock(ctx, "m_f", "dilemma", seats); err != nil {
		t.Fatal(err)
	}
	if _, err := r.c.Settle(ctx, "m_f", games.Result{Standings: []games.Standing{{Seat: 1, Rank: 1}, {Seat: 2, Rank: 2}}}); err != nil {
		t.Fatal(err)
	}
	r.c.Wait()
	if got, n := r.pay.received(r.wallet); n != 1 || got["a"] != 160 {
		t.Fatalf("before the restart: received %v in %d payments", got, n)
	}
	before := r.check("paid")

	for round := range 2 {
		fresh, err := devwallet.New(devwallet.Options{Now: r.clock})
		if err != nil {
			t.Fatal(err)
		}
		r.start(Options{Wallet: fresh})
		if refunded, err := r.c.Resume(ctx, 0); err != nil || len(refunded) != 0 {
			t.Fatalf("resume %d: refunded %v, %v", round, refunded, err)
		}
		r.c.Wait()
		if ps := fresh.Payments(); len(ps) != 0 {
			t.Fatalf("resume %d: the new wallet paid %d payments", round, len(ps))
		}
		if tot := r.check("resume"); tot != before {
			t.Fatalf("resume %d: totals %+v, before %+v", round, tot, before)
		}
		lines, err := r.c.Lines(ctx, "m_f")
		if err != nil || lines[len(lines)-1].Type != "payout" {
			t.Fatalf("resume %d: lines %+v %v", round, lines, err)
		}
	}
}
