package main

import (
	"context"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
)

// A paid hold past a table's seats (four paid for a three-seat table, each after holding) is
// dropped at starts_at and its whole deposit goes back to its payer on the escrow; the three
// seated play and the round settles from its own pool, and the escrow ends empty.
func TestPaidHoldPastTheSeatsIsRefunded(t *testing.T) {
	r := startPaidRig(t, t.TempDir(), rigOptions{Gather: 6 * time.Second})
	defer r.stop()
	ctx := context.Background()
	b4 := r.balance("test-4")
	hs := []dotdotdot.PaidHold{r.hold(1, "test-1"), r.hold(2, "test-2"), r.hold(3, "test-3"), r.hold(4, "test-4")}
	for i, h := range hs {
		r.deposit([]string{"test-1", "test-2", "test-3", "test-4"}[i], h.SeatToken, paidEntry)
	}
	c1 := r.waitCheck(hs[0], 20*time.Second)
	if c1.Status != "seated" {
		t.Fatalf("seat 1: %+v", c1)
	}
	if c4 := r.waitCheck(hs[3], 5*time.Second); c4.Status != "dropped" || !c4.Paid {
		t.Fatalf("the fourth paid hold: %+v, want paid and dropped", c4)
	}
	r.waitQuiet(c1.Round, 60*time.Second)
	if got := r.balance("test-4"); got != b4 {
		t.Fatalf("test-4 balance %d, want %d: its whole deposit back", got, b4)
	}
	if bal, _ := r.node.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow holds %d", bal)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, _ := r.pt.Ledger().State(ctx)
	if got := lst.Units[dotdotdot.PaidUnit]; got.Received != 4*paidEntry || got.Refunded != paidEntry || got.Staked != 0 {
		t.Fatalf("ledger totals %+v: three entries played, the fourth refunded", got)
	}
}
