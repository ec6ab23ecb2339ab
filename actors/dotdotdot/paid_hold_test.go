package dotdotdot

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors/ledger"
	"arena/storage"
)

// A paid table seats an owner once (§5.7: a hold is "a seat for the agent's Badge owner"): a
// second Badge of the same owner is refused in_a_round, so one person cannot sit two seats of
// one round (and cannot fill a table with holds it never pays from Badges of its own); another
// owner's Badge still gets its seat.
func TestPaidHoldOneSeatPerOwner(t *testing.T) {
	r := newPaidOpenRig(t, nil)
	ctx := context.Background()
	badge := func(n, owner string) AgentJoin {
		return AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n, Endpoint: "https://" + n + ".example/a2a",
			Owner: owner, Human: true}
	}
	first, err := r.p.Hold(ctx, badge("One", owner1), []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.p.Hold(ctx, badge("OneBis", owner1), []string{owner1}); !isCode(err, CodeInARound) {
		t.Fatalf("a second Badge of %s at the table of its first (%s): %v, want %s", owner1, first.Table, err, CodeInARound)
	}
	other, err := r.p.Hold(ctx, badge("Two", owner2), []string{owner2})
	if err != nil || other.Table != first.Table {
		t.Fatalf("another owner's Badge: %+v %v", other, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// slowLedgerStore is the arena's store with ledger appends held while hold is set, until
// release is closed.
type slowLedgerStore struct {
	*storage.Store
	hold    atomic.Bool
	release chan struct{}
}

func (s *slowLedgerStore) AppendLedger(first uint64, rows [][]byte) error {
	if s.hold.Load() {
		<-s.release
	}
	return s.Store.AppendLedger(first, rows)
}

// A hold whose asker stopped waiting before the ledger had it (the join timed out: the seat
// token never reached the agent) is not kept: the Badge is not locked out of the table by a
// hold it never heard of, and its next join gets a seat.
func TestPaidHoldNobodyHeardIsNotKept(t *testing.T) {
	h, _ := blitzHarness(t)
	fs := &slowLedgerStore{Store: h.arena.Store(), release: make(chan struct{})}
	l, err := ledger.Start(h.arena.System(), fs, ledger.Options{Name: "paid-slow-ledger-test"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPaidTables(h.arena, PaidOptions{Deposits: &fakeDeposits{deps: map[string][]EscrowDeposit{}}, Ledger: l,
		Gather: time.Minute, Format: "short", Escrow: chainID + ":12810.0"})
	if err != nil {
		t.Fatal(err)
	}
	join := AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://one.example/a2a", Owner: owner1, Human: true}
	fs.hold.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err = p.Hold(ctx, join, []string{owner1})
	cancel()
	if !isCode(err, "busy") {
		t.Fatalf("a hold the ledger is slow to write: %v, want busy (the asker stops waiting)", err)
	}
	fs.hold.Store(false)
	close(fs.release)
	// The ledger writes the hold now; the paid tables, whose asker has gone, drop it.
	var hold PaidHold
	deadline := time.Now().Add(waitMax)
	for {
		hold, err = p.Hold(context.Background(), join, []string{owner1})
		if err == nil {
			break
		}
		if !isCode(err, CodeInARound) && !isCode(err, "busy") || time.Now().After(deadline) {
			t.Fatalf("the Badge's next join: %v; the hold nobody heard of must not lock it out", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	recs, err := h.arena.Store().PaidTables()
	if err != nil || len(recs) != 1 || len(recs[0].Holds) != 1 || recs[0].Holds[0].ID != hold.Hold {
		t.Fatalf("the stored table %+v %v: the answered hold only", recs, err)
	}
	if c, err := p.Check(context.Background(), hold.Hold, hold.SeatToken); err != nil || c.Status != storage.PaidHolding {
		t.Fatalf("check %+v %v", c, err)
	}
	if err := ledger.Audit(context.Background(), l); err != nil {
		t.Fatal(err)
	}
}
