package cashier

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// TestEscrowCapConcurrentJoins: a cashier capped at 1000 sats holds a paid stake of 100 and an
// unpaid invoice of 100 (its promise counts); 40 joins of 100 then arrive at once (released
// together by a barrier). Exactly 8 get an invoice; the other 32 are escrow_full and wrote
// nothing (the ledger's state is the one before plus the 8 holds). Paying every invoice fills the
// escrow to exactly 1000; one more join of the smallest tier is escrow_full. The invariant holds
// after each step.
func TestEscrowCapConcurrentJoins(t *testing.T) {
	r := newRig(t, Options{MaxEscrow: 1000})
	ctx := context.Background()
	first := r.stake("a", 100)
	if _, err := r.c.Paid(ctx, "a", first, r.pay.addr("a")); err != nil {
		t.Fatal(err)
	}
	open, err := r.c.Invoice(ctx, "b", "dilemma", 100)
	if err != nil {
		t.Fatal(err)
	}
	r.check("before")
	before, err := r.led.State(ctx)
	if err != nil {
		t.Fatal(err)
	}

	const n = 40
	type answer struct {
		key string
		inv Invoice
		err error
	}
	answers := make([]answer, n)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-gate
			key := fmt.Sprintf("j%d", i)
			inv, err := r.c.Invoice(ctx, key, "dilemma", 100)
			answers[i] = answer{key, inv, err}
		})
	}
	close(gate)
	wg.Wait()

	var got []answer
	for i, a := range answers {
		switch {
		case a.err == nil:
			got = append(got, a)
		case codeOf(a.err) != CodeEscrowFull:
			t.Fatalf("join %d: %v, want escrow_full", i, a.err)
		}
	}
	if len(got) != 8 {
		t.Fatalf("%d joins got an invoice, want 8 (1000 − 100 held − 100 promised, in 100s)", len(got))
	}
	after, err := r.led.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Last != before.Last+uint64(2*len(got)) || len(after.Holds) != len(before.Holds)+len(got) ||
		!reflect.DeepEqual(after.Units, before.Units) {
		t.Fatalf("the refused joins changed the ledger: rows %d→%d, holds %d→%d, totals %+v→%+v",
			before.Last, after.Last, len(before.Holds), len(after.Holds), before.Units, after.Units)
	}
	for _, a := range got {
		if _, ok := after.Holds[HoldID(a.inv.PaymentHash)]; !ok {
			t.Fatalf("invoice %s has no hold", a.inv.PaymentHash)
		}
	}
	r.check("joins")

	for i, a := range append(got, answer{key: "b", inv: open}) {
		if _, err := r.wallet.PayInvoice(a.inv.Bolt11); err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Paid(ctx, a.key, a.inv.PaymentHash, r.pay.addr(a.key)); err != nil {
			t.Fatalf("paid %d: %v", i, err)
		}
	}
	full, err := r.led.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if esc := full.Units[Unit].Held + full.Units[Unit].Staked; esc != 1000 {
		t.Fatalf("escrow %d, want exactly 1000", esc)
	}
	if tot := r.check("paid"); tot.Held != 1000 || tot.StakesIn != 1000 {
		t.Fatalf("totals %+v, want 1000 held and in", tot)
	}
	if _, err := r.c.Invoice(ctx, "late", "dilemma", 10); codeOf(err) != CodeEscrowFull {
		t.Fatalf("join at a full escrow: %v", err)
	}
	if again, _ := r.led.State(ctx); again.Last != full.Last {
		t.Fatal("a refused join wrote a row")
	}
	r.check("end")
}
