package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
)

// waitCheck waits for hold h's check to leave "holding".
func (r *paidRig) waitCheck(h dotdotdot.PaidHold, within time.Duration) dotdotdot.PaidCheck {
	r.t.Helper()
	var c dotdotdot.PaidCheck
	eventually(r.t, within, 100*time.Millisecond, func() bool {
		var err error
		c, err = r.pt.Check(context.Background(), h.Hold, h.SeatToken)
		return err == nil && c.Status != "holding"
	}, func() string { return fmt.Sprintf("hold %s: %+v after %s", h.Hold, c, within) })
	return c
}

// Money that does not play goes back to whoever paid it, exactly: the part of a counted
// deposit above the entry (over-paid), a stranger's deposit under a seat's token (foreign), a
// deposit too small at starts_at (unpaid), one made after starts_at (late), and one under a seat
// token the arena never issued; the round itself settles from its own pool, and the escrow ends
// empty.
func TestPaidRefundsMoneyThatDoesNotPlay(t *testing.T) {
	r := startPaidRig(t, t.TempDir(), rigOptions{Gather: 6 * time.Second})
	defer r.stop()
	ctx := context.Background()
	before := map[string]uint64{}
	for _, n := range []string{"test-1", "test-2", "test-3", "test-4", "arena", "house"} {
		before[n] = r.balance(n)
	}
	hA, hB, hC := r.hold(1, "test-1"), r.hold(2, "test-2"), r.hold(3, "test-3")
	r.deposit("test-1", hA.SeatToken, 60_000_000)     // over-paid by 10 CCD
	r.deposit("test-4", hA.SeatToken, 5_000_000)      // foreign: not a pay_from account
	r.deposit("test-2", hB.SeatToken, 49_999_999)     // unpaid: short of the entry
	r.deposit("test-4", "st_never_issued", 3_000_000) // under a token the arena never issued
	cA := r.waitCheck(hA, 20*time.Second)
	if cA.Status != "seated" || cA.PaidBy != r.caip("test-1") || cA.Amount != 60_000_000 || cA.Foreign != 5_000_000 {
		t.Fatalf("seat A: %+v", cA)
	}
	if cB := r.waitCheck(hB, 5*time.Second); cB.Status != "dropped" || cB.Paid {
		t.Fatalf("seat B: %+v", cB)
	}
	r.deposit("test-3", hC.SeatToken, paidEntry) // late: after starts_at
	r.waitQuiet(cA.Round, 60*time.Second)

	st, ok := r.pt.Finished(cA.Table)
	if !ok || len(st.Paid) != 1 {
		t.Fatalf("settlement %+v %v", st, ok)
	}
	pay, pool := uint64(st.Paid[0].Amount), uint64(st.Pool)
	want := map[string]uint64{
		"test-1": before["test-1"] - 60_000_000 + 10_000_000 + pay,
		"test-2": before["test-2"],
		"test-3": before["test-3"],
		"test-4": before["test-4"],
		"arena":  before["arena"] - 2*paidEntry + (3*paidEntry - pay - pool),
		"house":  before["house"] + pool, // the season pool (§11.3)
	}
	for n, w := range want {
		if got := r.balance(n); got != w {
			t.Errorf("%s: balance %d, want %d (%+d)", n, got, w, int64(got)-int64(before[n]))
		}
	}
	if bal, _ := r.node.EscrowBalance(); bal != 0 {
		t.Fatalf("escrow holds %d", bal)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, _ := r.pt.Ledger().State(ctx)
	refunded := int64(10_000_000 + 5_000_000 + 49_999_999 + paidEntry + 3_000_000)
	if got := lst.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 3*paidEntry + refunded, Refunded: refunded, PaidOut: int64(pay + pool), House: 3*paidEntry - int64(pay+pool)}) {
		t.Fatalf("ledger totals %+v", got)
	}
	if got := lst.PaidTo(dotdotdot.PaidUnit, dotdotdot.SeasonPoolAccount); got != int64(pool) {
		t.Fatalf("the ledger's season pool %d, the round's %d", got, pool)
	}
}

// refusingResolver refuses every Badge's key: a table with a BYO seat fails to open.
type refusingResolver struct{}

func (refusingResolver) Resolve(context.Context, string) (ed25519.PublicKey, error) {
	return nil, errors.New("the Badge was revoked")
}

// A paid table that fails to open gives every paid seat its deposit back, in the ledger and on
// the escrow, and the check says failed.
func TestPaidRefundsATableThatFailedToOpen(t *testing.T) {
	r := startPaidRig(t, t.TempDir(), rigOptions{Resolver: refusingResolver{}})
	defer r.stop()
	ctx := context.Background()
	b1 := r.balance("test-1")
	h := r.hold(1, "test-1")
	r.deposit("test-1", h.SeatToken, 70_000_000)
	if c := r.waitCheck(h, 20*time.Second); c.Status != "failed" || !c.Paid {
		t.Fatalf("check %+v", c)
	}
	r.waitQuiet("", 30*time.Second)
	if got := r.balance("test-1"); got != b1 {
		t.Fatalf("test-1 balance %d, want %d back", got, b1)
	}
	// The check says refunded, with the amount and the refund's transaction (paid_outcome.go).
	var c dotdotdot.PaidCheck
	eventually(t, 20*time.Second, 100*time.Millisecond, func() bool {
		var err error
		c, err = r.pt.Check(ctx, h.Hold, h.SeatToken)
		return err == nil && len(c.Refunds) == 1 && c.Refunds[0].Final
	}, func() string { return fmt.Sprintf("check %+v", c) })
	if got := c.Refunds[0]; c.Outcome != "refunded" || got.To != r.caip("test-1") || got.Amount != 70_000_000 || got.Tx == "" {
		t.Fatalf("check %+v refunds %+v, want refunded 70 CCD to test-1 with its transaction", c, c.Refunds)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, _ := r.pt.Ledger().State(ctx)
	if got := lst.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 70_000_000, Refunded: 70_000_000}) {
		t.Fatalf("ledger totals %+v", got)
	}
}
