package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/badge"
	"arena/games"
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

// Holds nobody pays cannot lock a paid table: twelve unpaid holds (four to each of three
// seats, the bound) and a thirteenth is still taken, dropping the oldest unpaid hold (its
// check says dropped and why; that Badge does not hold again at the table). The thirteenth
// pays, is seated and plays, the round settles from its own pool; a deposit made for the
// dropped hold after it was dropped goes back whole to its payer; the escrow ends empty.
func TestUnpaidHoldsCannotLockAPaidTable(t *testing.T) {
	r := startPaidRig(t, t.TempDir(), rigOptions{Gather: 10 * time.Second})
	defer r.stop()
	ctx := context.Background()
	b1 := r.balance("test-1")
	var hs []dotdotdot.PaidHold
	for n := 1; n <= 12; n++ {
		hs = append(hs, r.hold(n, "test-1"))
	}
	last := r.hold(13, "test-2")
	c, err := r.pt.Check(ctx, hs[0].Hold, hs[0].SeatToken)
	if err != nil || c.Status != "dropped" || c.Paid || !strings.Contains(c.Dropped, "make room") {
		t.Fatalf("the oldest unpaid hold once a thirteenth came: %+v %v, want dropped to make room", c, err)
	}
	for _, h := range hs[1:] {
		if c, err := r.pt.Check(ctx, h.Hold, h.SeatToken); err != nil || c.Status != "holding" {
			t.Fatalf("hold %s: %+v %v, want still holding", h.Hold, c, err)
		}
	}
	again := dotdotdot.AgentJoin{Agent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 5001).String(),
		Name: "Payer 1", Endpoint: "http://127.0.0.1:1/a2a", Human: true}
	var ge *games.Error
	if _, err := r.pt.Hold(ctx, again, []string{r.caip("test-1")}); !errors.As(err, &ge) || ge.Code != dotdotdot.CodeBadTable {
		t.Fatalf("the dropped hold's Badge holding again at the table: %v, want %s", err, dotdotdot.CodeBadTable)
	}
	r.deposit("test-1", hs[0].SeatToken, paidEntry) // too late: the hold is dropped
	r.deposit("test-2", last.SeatToken, paidEntry)
	cl := r.waitCheck(last, 30*time.Second)
	if cl.Status != "seated" || cl.Seat != 1 || !cl.Paid || cl.Round == "" {
		t.Fatalf("the thirteenth hold, paid: %+v, want seated at seat 1", cl)
	}
	for _, h := range hs[1:] {
		if c := r.waitCheck(h, 5*time.Second); c.Status != "dropped" || c.Paid {
			t.Fatalf("unpaid hold %s: %+v, want dropped", h.Hold, c)
		}
	}
	r.waitQuiet(cl.Round, 60*time.Second)
	if got := r.balance("test-1"); got != b1 {
		t.Fatalf("test-1 balance %d, want %d: the dropped hold's whole deposit back", got, b1)
	}
	if bal, _ := r.node.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow holds %d", bal)
	}
	c, err = r.pt.Check(ctx, hs[0].Hold, hs[0].SeatToken)
	if err != nil || c.Status != "dropped" || c.Outcome != "refunded" || len(c.Refunds) != 1 || c.Refunds[0].Amount != paidEntry ||
		c.Refunds[0].To != r.caip("test-1") {
		t.Fatalf("the dropped hold once its deposit went back: %+v %v, want refunded %d to test-1", c, err, paidEntry)
	}
	if cl, err := r.pt.Check(ctx, last.Hold, last.SeatToken); err != nil || cl.Outcome != "settled" || cl.Payout == nil {
		t.Fatalf("the thirteenth hold after its round: %+v %v, want settled", cl, err)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, _ := r.pt.Ledger().State(ctx)
	if err := ledger.Check(lst); err != nil {
		t.Fatal(err)
	}
	if hl := lst.Holds[hs[0].Hold]; hl.Received != 0 {
		t.Fatalf("the dropped hold received %d in the ledger", hl.Received)
	}
	if got := lst.Units[dotdotdot.PaidUnit]; got.Received != 4*paidEntry || got.Refunded != paidEntry || got.Staked != 0 {
		t.Fatalf("ledger totals %+v: one paid seat and two house seats played, the dropped hold's deposit refunded", got)
	}
}
