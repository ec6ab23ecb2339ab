package dotdotdot

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors/ledger"
	"arena/storage"
)

// failingStore is the arena's store with ledger appends that fail while fail is set.
type failingStore struct {
	*storage.Store
	fail atomic.Bool
}

func (f *failingStore) AppendLedger(first uint64, rows [][]byte) error {
	if f.fail.Load() {
		return errors.New("injected disk failure")
	}
	return f.Store.AppendLedger(first, rows)
}

// A hold is answered only once the ledger has it: when the ledger cannot write, the join is
// refused busy (retry) and no hold is left behind, neither in the ledger nor on the table.
func TestPaidHoldWaitsForTheLedger(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	fs := &failingStore{Store: h.arena.Store()}
	l, err := ledger.Start(h.arena.System(), fs, ledger.Options{Name: "paid-ledger-test"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPaidTables(h.arena, PaidOptions{Deposits: &fakeDeposits{deps: map[string][]EscrowDeposit{}}, Ledger: l,
		Gather: time.Minute, Format: "short", Escrow: chainID + ":12810.0"})
	if err != nil {
		t.Fatal(err)
	}
	join := AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://one.example/a2a", Human: true}
	fs.fail.Store(true)
	if _, err := p.Hold(ctx, join, []string{owner1}); !isCode(err, "busy") {
		t.Fatalf("hold with the ledger failing: %v", err)
	}
	if st, err := l.State(ctx); err != nil || len(st.Holds) != 0 {
		t.Fatalf("ledger after the refused hold: %+v %v", st, err)
	}
	fs.fail.Store(false)
	hold, err := p.Hold(ctx, join, []string{owner1})
	if err != nil {
		t.Fatalf("the same Badge again once the ledger writes (the refused hold left nothing): %v", err)
	}
	hl, ok, err := l.Hold(ctx, hold.Hold)
	if err != nil || !ok || hl.Unit != PaidUnit || hl.Balance != 0 {
		t.Fatalf("the hold in the ledger: %+v %v %v", hl, ok, err)
	}
	if c, err := p.Check(ctx, hold.Hold, hold.SeatToken); err != nil || c.Status != "holding" {
		t.Fatalf("check %+v %v", c, err)
	}
	if err := ledger.Audit(ctx, l); err != nil {
		t.Fatal(err)
	}
}
