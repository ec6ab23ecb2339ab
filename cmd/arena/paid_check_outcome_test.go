package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
)

// GET {check} says what became of the entry once the money has moved: a seated seat's round
// settled, with its payout to paid_by and the settle's transaction, and the part it over-paid
// refunded; a seat dropped unpaid at starts_at refunded, with the amount and the refund's
// transaction. Each transaction is final once the escrow has paid it.
func TestPaidCheckSaysSettledOrRefunded(t *testing.T) {
	r := startPaidRig(t, t.TempDir(), rigOptions{Gather: 5 * time.Second})
	defer r.stop()
	ctx := context.Background()
	hA, hB := r.hold(1, "test-1"), r.hold(2, "test-2")
	r.deposit("test-1", hA.SeatToken, paidEntry+7_000_000) // over-paid by 7 CCD
	r.deposit("test-2", hB.SeatToken, paidEntry-1)         // short of the entry: dropped
	cA := r.waitCheck(hA, 20*time.Second)
	if cA.Status != "seated" || cA.Outcome != "" || cA.Payout != nil {
		t.Fatalf("seat A playing: %+v", cA)
	}
	r.waitQuiet(cA.Round, 60*time.Second)
	st, ok := r.pt.Finished(cA.Table)
	if !ok || len(st.Paid) != 1 {
		t.Fatalf("settlement %+v %v", st, ok)
	}
	var a, b dotdotdot.PaidCheck
	eventually(t, 20*time.Second, 100*time.Millisecond, func() bool {
		var err error
		if a, err = r.pt.Check(ctx, hA.Hold, hA.SeatToken); err != nil {
			return false
		}
		if b, err = r.pt.Check(ctx, hB.Hold, hB.SeatToken); err != nil {
			return false
		}
		return a.Payout != nil && a.Payout.Final && len(a.Refunds) == 1 && a.Refunds[0].Final && len(b.Refunds) == 1 && b.Refunds[0].Final
	}, func() string {
		return fmt.Sprintf("checks after the settle and refunds: A %+v (payout %+v) / B %+v", a, a.Payout, b)
	})
	if a.Outcome != "settled" || a.Voided != "" || a.Payout.To != r.caip("test-1") || a.Payout.Amount != st.Paid[0].Amount || a.Payout.Tx == "" {
		t.Fatalf("seat A: %+v payout %+v, want settled, %d to %s with its settle's transaction", a, a.Payout, st.Paid[0].Amount, r.caip("test-1"))
	}
	if got := a.Refunds[0]; got.To != r.caip("test-1") || got.Amount != 7_000_000 || got.Tx == "" || got.Tx == a.Payout.Tx || got.Rejected != "" {
		t.Fatalf("seat A's over-payment refund %+v", got)
	}
	if got := b.Refunds[0]; b.Outcome != "refunded" || b.Status != "dropped" || b.Payout != nil || got.To != r.caip("test-2") ||
		got.Amount != paidEntry-1 || got.Tx == "" || got.Rejected != "" {
		t.Fatalf("seat B: %+v refunds %+v, want refunded %d to %s with its refund's transaction", b, b.Refunds, paidEntry-1, r.caip("test-2"))
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, _ := r.pt.Ledger().State(ctx)
	if got := lst.PaidTo(dotdotdot.PaidUnit, r.caip("test-1")); got != a.Payout.Amount {
		t.Fatalf("the ledger paid test-1 %d; the check says %d", got, a.Payout.Amount)
	}
}
