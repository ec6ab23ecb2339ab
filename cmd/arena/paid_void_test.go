package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/games"
	"arena/storage"
)

// A paid round whose table an operator stopped, and did not restart, is settled void once
// VoidAfter has passed: every seat's entry goes back to whoever staked it (the player's to its
// paid_by, the house seats' to the arena's account), the part of the deposit above the entry is
// refunded, the escrow ends holding nothing, and the ledger agrees with it. A restart after the
// void pays nothing again.
func TestPaidRoundOfAStoppedTableIsVoided(t *testing.T) {
	dir := t.TempDir()
	slow := games.Pace{Name: "slow", Steps: map[string]time.Duration{"scouting": 10 * time.Minute, "talk": 10 * time.Minute,
		"commit": 10 * time.Minute, "settle": time.Second}}
	o := rigOptions{Pace: slow, VoidAfter: 2 * time.Second}
	r := startPaidRig(t, dir, o)
	ctx := context.Background()
	before := map[string]uint64{}
	for _, n := range []string{"test-1", "arena", "house"} {
		before[n] = r.balance(n)
	}
	h := r.hold(1, "test-1")
	r.deposit("test-1", h.SeatToken, 60_000_000) // over-paid by 10 CCD
	c := r.waitCheck(h, 20*time.Second)
	if c.Status != "seated" {
		t.Fatalf("check %+v", c)
	}
	n, _ := strconv.ParseUint(strings.TrimPrefix(c.Round, "T-"), 10, 64)
	eventually(t, 20*time.Second, 50*time.Millisecond, func() bool {
		_, ok, err := r.node.EscrowRound(n)
		return err == nil && ok
	}, func() string { return "the escrow never held round " + c.Round })
	if err := r.a.StopTable(ctx, c.Table); err != nil {
		t.Fatal(err)
	}
	r.waitQuiet(c.Round, 60*time.Second)

	check := func(when string) {
		t.Helper()
		for name, w := range before {
			if got := r.balance(name); got != w {
				t.Errorf("%s: %s: balance %d, want %d back (%+d)", when, name, got, w, int64(got)-int64(w))
			}
		}
		if bal, _ := r.node.EscrowBalance(); bal != 0 {
			t.Errorf("%s: the escrow holds %d", when, bal)
		}
		if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		lst, err := r.pt.Ledger().State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := ledger.Totals{Received: 3*paidEntry + 10_000_000, Refunded: 10_000_000, PaidOut: paidEntry, House: 2 * paidEntry}
		if got := lst.Units[dotdotdot.PaidUnit]; got != want {
			t.Errorf("%s: ledger totals %+v, want %+v", when, got, want)
		}
		if pot := lst.Pots[c.Round]; pot.Settled == 0 || len(pot.Payouts) != 1 || pot.Payouts[0] != (ledger.Payout{Account: r.caip("test-1"), Amount: paidEntry}) {
			t.Errorf("%s: the round's pot %+v: settled, the entry back to its paid_by", when, pot)
		}
		er, _, _ := r.node.EscrowRound(n)
		if !er.Settled || er.TranscriptHash == ([32]byte{}) || len(er.Payouts) != 2 {
			t.Errorf("%s: the escrow's round %+v: settled, under a transcript hash, the entries back", when, er)
		}
		eventually(t, 10*time.Second, 100*time.Millisecond, func() bool {
			ms, err := r.pt.Reconcile(ctx)
			return err == nil && len(ms) == 0
		}, func() string {
			ms, err := r.pt.Reconcile(ctx)
			return fmt.Sprintf("%s: the ledger and the escrow disagree: %+v %v", when, ms, err)
		})
	}
	check("voided")
	recs, err := r.st.PaidTables()
	if err != nil || len(recs) != 1 || recs[0].Status != storage.PaidSettled || recs[0].Voided == "" || recs[0].VoidHash == "" {
		t.Fatalf("the table's record %+v %v: settled void", recs, err)
	}

	r.stop()
	r = startPaidRig(t, dir, o)
	defer r.stop()
	if err := r.pt.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	check("after a restart")
}
