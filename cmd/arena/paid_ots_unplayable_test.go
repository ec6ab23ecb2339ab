package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/badge"
	"arena/games/blitz"
	"arena/storage"
)

// An off-the-shelf paid hold that cannot be played is dropped at starts_at and its deposit
// refunded, through the ledger and then the escrow; the other paid seat plays. Two holds pay
// the entry (a registered agent's and an off-the-shelf agent's with its playbook); the arena
// stops before starts_at and the off-the-shelf hold's stored playbook no longer reads back (a
// member the strict reader refuses). After the restart the table opens with the registered
// agent alone; the off-the-shelf hold is dropped as unplayable, its payer gets exactly the
// deposit back, its ledger hold holds nothing, the escrow ends holding nothing and the ledger
// keeps its invariant.
func TestPaidUnplayableOTSHoldIsRefunded(t *testing.T) {
	dir := t.TempDir()
	o := rigOptions{Gather: 12 * time.Second}
	r := startPaidRig(t, dir, o)
	ctx := context.Background()
	before := r.balance("test-2")
	hA := r.hold(1, "test-1")
	pb := blitz.Playbook{Text: "Keep every promise.", Dials: blitz.Dials{Boldness: 3, Trust: 6, Chatter: 4}}
	otsAgent := badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 6001).String()
	hB, err := r.pt.Hold(ctx, dotdotdot.AgentJoin{Agent: otsAgent, Name: "Shelf B", Kind: "ots", Owner: r.caip("test-2"), Human: true,
		Playbook: &pb, OTSGrant: dotdotdot.OTSGrant("ots_unplayable-test-token")}, []string{r.caip("test-2")})
	if err != nil {
		t.Fatal(err)
	}
	r.deposit("test-1", hA.SeatToken, paidEntry)
	r.deposit("test-2", hB.SeatToken, paidEntry)
	r.stop()

	st, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.PaidTables()
	if err != nil || len(recs) != 1 || len(recs[0].Holds) != 2 || recs[0].Status != storage.PaidFilling {
		t.Fatalf("stored paid tables %+v %v: one filling table with two holds", recs, err)
	}
	damaged := false
	for i := range recs[0].Holds {
		if recs[0].Holds[i].ID == hB.Hold {
			recs[0].Holds[i].Playbook = []byte(`{"text":"Keep every promise.","dials":{"nerve":3}}`)
			damaged = true
		}
	}
	if !damaged {
		t.Fatal("the off-the-shelf hold is not stored")
	}
	if err := st.PutPaidTables(recs[0]); err != nil {
		t.Fatal(err)
	}
	st.Close()

	r = startPaidRig(t, dir, o)
	defer r.stop()
	cA := r.waitCheck(hA, 30*time.Second)
	if cA.Status != storage.PaidSeated || cA.Seat != 1 {
		t.Fatalf("the registered agent's seat: %+v", cA)
	}
	r.waitQuiet(cA.Round, 90*time.Second)
	var cB dotdotdot.PaidCheck
	eventually(t, 20*time.Second, 100*time.Millisecond, func() bool {
		cB, err = r.pt.Check(ctx, hB.Hold, hB.SeatToken)
		return err == nil && len(cB.Refunds) == 1 && cB.Refunds[0].Final
	}, func() string { return fmt.Sprintf("the unplayable hold's check %+v (%v)", cB, err) })
	if got := cB.Refunds[0]; cB.Status != storage.PaidDropped || cB.Outcome != "refunded" || !strings.Contains(cB.Dropped, "cannot be read back") ||
		cB.Seat != 0 || cB.PlaybookToken != "" || got.To != r.caip("test-2") || got.Amount != paidEntry || got.Tx == "" {
		t.Fatalf("the unplayable hold: %+v refunds %+v, want dropped as unplayable, %d refunded to %s", cB, cB.Refunds, paidEntry, r.caip("test-2"))
	}
	stored, err := r.a.Stored(cA.Table)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stored.Seats {
		if s.Seat.Agent == otsAgent || s.Kind == "ots" {
			t.Fatalf("the unplayable hold took seat %d: %+v", s.Seat.Seat, s)
		}
	}
	if got := r.balance("test-2"); got != before {
		t.Fatalf("test-2's balance %d, want %d: exactly its deposit back", got, before)
	}
	if bal, _ := r.node.EscrowBalance(); bal != 0 {
		t.Fatalf("the escrow holds %d after the round and the refund", bal)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, err := r.pt.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if h := lst.Holds[hB.Hold]; h.Balance != 0 || h.Received != 0 {
		t.Fatalf("the unplayable hold in the ledger %+v: it received nothing and holds nothing", h)
	}
	if got := lst.Units[dotdotdot.PaidUnit]; got.Refunded != paidEntry || got.Staked != 0 || got.Received != 4*paidEntry {
		t.Fatalf("ledger totals %+v: three entries played, one deposit received and refunded", got)
	}
}
