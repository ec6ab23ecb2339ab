package dotdotdot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/actors/ledger"
	"arena/storage"
)

// fullJoin is the join of Badge n of its own owner.
func fullJoin(n int) (AgentJoin, string) {
	owner := fmt.Sprintf("%s:3kBxFullOwner%d", chainID, n)
	return AgentJoin{Agent: fmt.Sprintf("%s/cis-2:AgentFull%d", chainID, n), Name: fmt.Sprintf("Full %d", n),
		Endpoint: "https://full.example/a2a", Owner: owner, Human: true}, owner
}

// pay deposits the entry for h from its owner's account (final, before starts_at).
func (r *paidOpenRig) pay(h PaidHold) {
	r.deps.add(h.SeatToken, EscrowDeposit{Payer: addressOf(h.PayFrom[0]), Amount: h.Entry, At: t0.Add(5 * time.Second), Finalized: true})
}

// A hold costs nothing until it is paid, so holds nobody pays do not fill a paid table: a
// table with every seat held but none paid still takes the next hold, which pays and is
// seated at starts_at, while the unpaid holds are dropped. Once every seat is paid the next
// hold is refused (bad_table), and the holds a table keeps are bounded.
func TestPaidHoldsNobodyPaidDoNotFillTheTable(t *testing.T) {
	r := newPaidOpenRig(t, nil) // short: three seats
	ctx := context.Background()
	hold := func(n int) (PaidHold, error) {
		j, owner := fullJoin(n)
		return r.p.Hold(ctx, j, []string{owner})
	}
	var free []PaidHold
	for n := 1; n <= 3; n++ {
		h, err := hold(n)
		if err != nil {
			t.Fatal(err)
		}
		free = append(free, h)
	}
	payer, err := hold(4)
	if err != nil || payer.Table != free[0].Table {
		t.Fatalf("a hold at a table held by three who paid nothing: %+v %v", payer, err)
	}
	r.pay(payer)
	r.h.clock.Set(t0.Add(time.Minute))
	if o := r.waitOpened(t); o[0] != payer.Table || o[1] == "" {
		t.Fatalf("opened %v", o)
	}
	if c, err := r.p.Check(ctx, payer.Hold, payer.SeatToken); err != nil || c.Status != storage.PaidSeated || c.Seat != 1 {
		t.Fatalf("the paying hold: %+v %v, want seated at seat 1", c, err)
	}
	for _, h := range free {
		if c, err := r.p.Check(ctx, h.Hold, h.SeatToken); err != nil || c.Status != storage.PaidDropped || c.Paid {
			t.Fatalf("an unpaid hold: %+v %v, want dropped", c, err)
		}
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, _ := r.p.Ledger().State(ctx)
	if got := st.Units[PaidUnit]; got != (ledger.Totals{Received: 3 * 100_000_000, Staked: 3 * 100_000_000}) {
		t.Fatalf("ledger totals %+v: one paid seat and two house seats staked", got)
	}
}

// Paid holds take the seats: once the chain has every seat's entry, the next hold is refused
// (bad_table); paid holds past the seats (paid after holding, when the seats were not yet
// paid) are dropped at starts_at, in hold order, and nothing of theirs is received in the
// ledger (the sweep refunds their deposits). A table keeps at most four live holds a seat: a
// hold past them drops the oldest whose entry the chain has not seen.
func TestPaidHoldsPastThePaidSeats(t *testing.T) {
	r := newPaidOpenRig(t, nil) // short: three seats
	ctx := context.Background()
	hold := func(n int) (PaidHold, error) {
		j, owner := fullJoin(n)
		return r.p.Hold(ctx, j, []string{owner})
	}
	var hs []PaidHold
	for n := 1; n <= 12; n++ {
		h, err := hold(n)
		if err != nil {
			t.Fatalf("hold %d: %v", n, err)
		}
		hs = append(hs, h)
	}
	if _, err := hold(13); err != nil {
		t.Fatalf("a thirteenth hold at a three-seat table whose holds nobody paid: %v", err)
	}
	if c, err := r.p.Check(ctx, hs[0].Hold, hs[0].SeatToken); err != nil || c.Status != storage.PaidDropped || c.Dropped != paidEvicted {
		t.Fatalf("the oldest unpaid hold once a thirteenth came: %+v %v, want dropped to make room", c, err)
	}
	recs, err := r.h.arena.Store().PaidTables()
	if err != nil {
		t.Fatal(err)
	}
	var stored []storage.PaidHold
	for _, rec := range recs {
		for _, sh := range rec.Holds {
			if sh.ID == hs[0].Hold {
				stored = append(stored, sh)
			}
		}
	}
	if len(stored) != 1 || stored[0].Status != storage.PaidDropped || stored[0].Dropped != paidEvicted {
		t.Fatalf("the dropped hold in the store before the thirteenth was answered: %+v", stored)
	}
	for _, i := range []int{1, 4, 6, 9} { // four pay, after holding
		r.pay(hs[i])
	}
	r.h.clock.Set(t0.Add(time.Minute))
	if o := r.waitOpened(t); o[1] == "" {
		t.Fatalf("opened %v", o)
	}
	for seat, i := range []int{1, 4, 6} {
		if c, err := r.p.Check(ctx, hs[i].Hold, hs[i].SeatToken); err != nil || c.Status != storage.PaidSeated || c.Seat != seat+1 {
			t.Fatalf("paid hold %d: %+v %v, want seat %d", i, c, err, seat+1)
		}
	}
	if c, err := r.p.Check(ctx, hs[9].Hold, hs[9].SeatToken); err != nil || c.Status != storage.PaidDropped || !c.Paid {
		t.Fatalf("the paid hold past the seats: %+v %v, want paid and dropped", c, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, _ := r.p.Ledger().State(ctx)
	if got := st.Units[PaidUnit]; got != (ledger.Totals{Received: 3 * 100_000_000, Staked: 3 * 100_000_000}) {
		t.Fatalf("ledger totals %+v: three paid seats staked, nothing of the fourth received", got)
	}
	if hl := st.Holds[hs[9].Hold]; hl.Received != 0 {
		t.Fatalf("the dropped paid hold received %d in the ledger", hl.Received)
	}

	// On the next table, once the chain has every seat's entry the next hold is refused.
	r.h.clock.Set(t0.Add(90 * time.Second))
	var next []PaidHold
	for n := 21; n <= 23; n++ {
		h, err := hold(n)
		if err != nil {
			t.Fatalf("hold %d: %v", n, err)
		}
		r.pay(h)
		next = append(next, h)
	}
	if _, err := hold(24); !isCode(err, CodeBadTable) {
		t.Fatalf("a hold at a table whose three seats are paid: %v, want %s", err, CodeBadTable)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
