package dotdotdot

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/ledger"
	"arena/storage"
)

// paidOpenRig is a short paid table whose opening the test controls: open runs in place of
// Arena.OpenTable.
type paidOpenRig struct {
	h      *harness
	p      *PaidTables
	deps   *fakeDeposits
	opened chan [2]string
}

func newPaidOpenRig(t *testing.T, open func(ctx context.Context, spec actors.TableSpec) (string, error)) *paidOpenRig {
	t.Helper()
	h, _ := blitzHarness(t)
	r := &paidOpenRig{h: h, deps: &fakeDeposits{deps: map[string][]EscrowDeposit{}}, opened: make(chan [2]string, 4)}
	p, err := NewPaidTables(h.arena, PaidOptions{Deposits: r.deps, Entry: 100_000_000, Gather: time.Minute, Format: "short",
		Escrow: chainID + ":12810.0", OnOpen: func(table, round string, err error) {
			if err != nil {
				round = "failed: " + err.Error()
			}
			r.opened <- [2]string{table, round}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if open != nil {
		p.openTable = open
	}
	r.p = p
	return r
}

func (r *paidOpenRig) paidHold(t *testing.T, n string) PaidHold {
	t.Helper()
	ph, err := r.p.Hold(context.Background(), AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n,
		Endpoint: "https://" + n + ".example/a2a", Human: true}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	r.deps.add(ph.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 100_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	return ph
}

func (r *paidOpenRig) waitOpened(t *testing.T) [2]string {
	t.Helper()
	select {
	case o := <-r.opened:
		return o
	case <-time.After(waitMax):
		t.Fatal("the paid table neither opened nor failed")
	}
	return [2]string{}
}

// A table whose record was written though OpenTable answered an error (its actor did not answer
// in time, say) plays its round: it is staked and its seat seated, not closed with its entries
// refunded while the round goes on for nothing.
func TestPaidTableOpenedDespiteAnErrorIsStaked(t *testing.T) {
	var r *paidOpenRig
	r = newPaidOpenRig(t, func(ctx context.Context, spec actors.TableSpec) (string, error) {
		if _, err := r.h.arena.OpenTable(ctx, spec); err != nil {
			return "", err
		}
		return "", errors.New("actors: the table's actor did not answer in time")
	})
	ctx := context.Background()
	ph := r.paidHold(t, "One")
	r.h.clock.Set(t0.Add(time.Minute))
	o := r.waitOpened(t)
	st, err := r.h.arena.Stored(ph.Table)
	if err != nil {
		t.Fatal(err)
	}
	if o[1] != st.Round || st.Status != actors.StatusLive {
		t.Fatalf("the table is %s with round %s; the paid tables said %q", st.Status, st.Round, o[1])
	}
	c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken)
	if err != nil || c.Status != storage.PaidSeated || c.Round != st.Round || c.Seat != 1 {
		t.Fatalf("check %+v %v: the seat plays round %s", c, err, st.Round)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
	lst, err := r.p.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := lst.Units[PaidUnit]; got != (ledger.Totals{Received: 300_000_000, Staked: 300_000_000}) {
		t.Fatalf("ledger totals %+v: the round's three entries staked, nothing refunded", got)
	}
}

// A table that OpenTable refused and that does not exist fails, its entry refunded in the ledger.
func TestPaidTableRefusedByOpenTableFails(t *testing.T) {
	r := newPaidOpenRig(t, func(context.Context, actors.TableSpec) (string, error) {
		return "", actors.ErrBadSpec
	})
	ctx := context.Background()
	ph := r.paidHold(t, "One")
	r.h.clock.Set(t0.Add(time.Minute))
	if o := r.waitOpened(t); o[1] == "" || o[1][:7] != "failed:" {
		t.Fatalf("opened %v: the table must fail", o)
	}
	deadline := time.Now().Add(waitMax)
	for {
		lst, err := r.p.Ledger().State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if lst.Units[PaidUnit] == (ledger.Totals{Received: 100_000_000, Refunded: 100_000_000}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ledger totals %+v: the failed table's entry must be refunded", lst.Units[PaidUnit])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidFailed {
		t.Fatalf("check %+v %v", c, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// A Badge holds one paid seat at a time: while its hold's table is past starts_at and opening, a
// second hold (on the next table) is refused in_a_round, as one on the same table is.
func TestPaidHoldWhileAnotherTableOpens(t *testing.T) {
	release := make(chan struct{})
	var r *paidOpenRig
	r = newPaidOpenRig(t, func(ctx context.Context, spec actors.TableSpec) (string, error) {
		<-release
		return r.h.arena.OpenTable(ctx, spec)
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	ctx := context.Background()
	first := r.paidHold(t, "One")
	r.h.clock.Set(t0.Add(time.Minute))
	// Wait until the table is decided (its paid seat chosen, opening).
	deadline := time.Now().Add(waitMax)
	for {
		recs, err := r.h.arena.Store().PaidTables()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 1 && recs[0].Status == storage.PaidDecided {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table was not decided: %+v", recs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err := r.p.Hold(ctx, AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://One.example/a2a", Human: true}, []string{owner1})
	if !isCode(err, CodeInARound) {
		t.Fatalf("a second hold by a Badge whose first (%s) is opening: %v, want %s", first.Table, err, CodeInARound)
	}
	close(release)
	r.waitOpened(t)
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// A table that fails is said to have failed only once its record says so: while the write is
// on its way, GET {check} still reads the chain (a crash then restarts the table from its
// stored status, and it may open after all).
func TestPaidFailureSaidOnlyOnceWritten(t *testing.T) {
	r := newPaidOpenRig(t, func(context.Context, actors.TableSpec) (string, error) {
		return "", actors.ErrBadSpec
	})
	release, writing := make(chan struct{}), make(chan struct{}, 1)
	put := r.p.putPaidTables
	r.p.putPaidTables = func(ts ...storage.PaidTable) error {
		for _, tt := range ts {
			if tt.Status == storage.PaidClosed {
				writing <- struct{}{}
				<-release
			}
		}
		return put(ts...)
	}
	ctx := context.Background()
	ph := r.paidHold(t, "One")
	r.h.clock.Set(t0.Add(time.Minute))
	select {
	case <-writing:
	case <-time.After(waitMax):
		t.Fatal("the failed table was never written")
	}
	c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken)
	close(release)
	if err != nil || c.Status != storage.PaidHolding || !c.Paid {
		t.Fatalf("check while the failure is being written: %+v %v; want holding, paid (the store does not say failed yet)", c, err)
	}
	r.waitOpened(t)
	if c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidFailed {
		t.Fatalf("check once written: %+v %v", c, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// A table whose closing could not be written refunds nothing yet: the refund rests on the
// closing, which a restart would not find. Once a later tick writes it, the entry goes back.
func TestPaidClosingNotWrittenRefundsNothing(t *testing.T) {
	r := newPaidOpenRig(t, func(context.Context, actors.TableSpec) (string, error) {
		return "", actors.ErrBadSpec
	})
	var mu sync.Mutex
	failing, attempts := true, 0
	put := r.p.putPaidTables
	r.p.putPaidTables = func(ts ...storage.PaidTable) error {
		for _, tt := range ts {
			if tt.Status == storage.PaidClosed {
				mu.Lock()
				attempts++
				f := failing
				mu.Unlock()
				if f {
					return errors.New("injected disk failure")
				}
			}
		}
		return put(ts...)
	}
	tried := func(n int) {
		t.Helper()
		deadline := time.Now().Add(waitMax)
		for {
			mu.Lock()
			a := attempts
			mu.Unlock()
			if a >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the closing was written %d times, want %d", a, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	ctx := context.Background()
	ph := r.paidHold(t, "One")
	r.h.clock.Set(t0.Add(time.Minute))
	tried(1)
	r.h.clock.Set(t0.Add(time.Minute + 30*time.Second)) // a tick: the write fails again
	tried(2)
	if err := r.p.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	lst, err := r.p.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := lst.Units[PaidUnit]; got != (ledger.Totals{Received: 100_000_000, Held: 100_000_000}) {
		t.Fatalf("ledger totals %+v while the closing is not written: the entry stays held", got)
	}
	if c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidHolding {
		t.Fatalf("check %+v %v while the closing is not written", c, err)
	}
	mu.Lock()
	failing = false
	mu.Unlock()
	r.h.clock.Set(t0.Add(2 * time.Minute)) // the next tick writes it
	if o := r.waitOpened(t); o[1] == "" || o[1][:7] != "failed:" {
		t.Fatalf("opened %v: the table fails once written", o)
	}
	deadline := time.Now().Add(waitMax)
	for {
		lst, err := r.p.Ledger().State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if lst.Units[PaidUnit] == (ledger.Totals{Received: 100_000_000, Refunded: 100_000_000}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ledger totals %+v: the entry goes back once the closing is written", lst.Units[PaidUnit])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if c, err := r.p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidFailed {
		t.Fatalf("check %+v %v", c, err)
	}
	if err := ledger.Audit(ctx, r.p.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// flakyDeposits is fakeDeposits whose reads fail while failing is set, counting the reads.
type flakyDeposits struct {
	*fakeDeposits
	failing atomic.Bool
	reads   atomic.Int32
}

func (f *flakyDeposits) Deposits(ctx context.Context, tok string) ([]EscrowDeposit, error) {
	f.reads.Add(1)
	if f.failing.Load() {
		return nil, errors.New("the node did not answer")
	}
	return f.fakeDeposits.Deposits(ctx, tok)
}

// A seat whose deposits cannot be read at starts_at (the node did not answer) is not dropped at
// once: the table waits, and reads again at the next tick; a seat that paid plays.
func TestPaidUnreadableDepositsAreReadAgain(t *testing.T) {
	h, _ := blitzHarness(t)
	deps := &flakyDeposits{fakeDeposits: &fakeDeposits{deps: map[string][]EscrowDeposit{}}}
	opened := make(chan [2]string, 1)
	p, err := NewPaidTables(h.arena, PaidOptions{Deposits: deps, Entry: 100_000_000, Gather: time.Minute, Format: "short",
		Escrow: chainID + ":12810.0", OnOpen: func(table, round string, err error) {
			if err != nil {
				t.Errorf("open: %v", err)
			}
			opened <- [2]string{table, round}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ph, err := p.Hold(ctx, AgentJoin{Agent: chainID + "/cis-2:AgentOne", Name: "Agent One", Endpoint: "https://one.example/a2a", Human: true}, []string{owner1})
	if err != nil {
		t.Fatal(err)
	}
	deps.add(ph.SeatToken, EscrowDeposit{Payer: "3kBxOwnerOne", Amount: 100_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	deps.failing.Store(true)
	before := deps.reads.Load()
	h.clock.Set(t0.Add(time.Minute))
	deadline := time.Now().Add(waitMax)
	for deps.reads.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("the deposits were not read at starts_at")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.Sweep(ctx); err != nil { // the read's continuation has run
		t.Fatal(err)
	}
	deps.failing.Store(false)
	if c, err := p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidHolding {
		t.Fatalf("check after an unreadable starts_at: %+v %v; the seat waits for a read, it is not dropped", c, err)
	}
	h.clock.Set(t0.Add(time.Minute + 30*time.Second)) // the next tick reads again
	select {
	case <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open once its deposits could be read")
	}
	if c, err := p.Check(ctx, ph.Hold, ph.SeatToken); err != nil || c.Status != storage.PaidSeated {
		t.Fatalf("check %+v %v", c, err)
	}
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
}
