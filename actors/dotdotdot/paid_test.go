package dotdotdot

import (
	"context"
	"sync"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/ledger"
	"arena/games"
)

// fakeDeposits is the escrow's deposits by seat token.
type fakeDeposits struct {
	mu   sync.Mutex
	deps map[string][]EscrowDeposit
}

func (f *fakeDeposits) Deposits(_ context.Context, tok string) ([]EscrowDeposit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]EscrowDeposit(nil), f.deps[tok]...), nil
}

func (f *fakeDeposits) add(tok string, d EscrowDeposit) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deps[tok] = append(f.deps[tok], d)
}

const (
	chainID = "ccd:4221332d34e1694168c2a0c0b3fd0f27"
	owner1  = chainID + ":3kBxOwnerOne"
	wallet1 = chainID + ":4WalletOne"
	owner2  = chainID + ":3kBxOwnerTwo"
	owner3  = chainID + ":3kBxOwnerThree"
)

func TestPaidTableReadsTheChain(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	deps := &fakeDeposits{deps: map[string][]EscrowDeposit{}}
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
	join := func(n string) AgentJoin {
		return AgentJoin{Agent: chainID + "/cis-2:Agent" + n, Name: "Agent " + n, Endpoint: "https://" + n + ".example/a2a", Human: true}
	}
	h1, err := p.Hold(ctx, join("One"), []string{owner1, wallet1})
	if err != nil {
		t.Fatal(err)
	}
	h2, err := p.Hold(ctx, join("Two"), []string{owner2})
	if err != nil {
		t.Fatal(err)
	}
	h3, err := p.Hold(ctx, join("Three"), []string{owner3})
	if err != nil {
		t.Fatal(err)
	}
	if h1.Table != h2.Table || !h1.StartsAt.Equal(t0.Add(time.Minute)) || h1.Entry != 100_000_000 || len(h1.PayFrom) != 2 || h1.SeatToken == h2.SeatToken {
		t.Fatalf("holds %+v %+v", h1, h2)
	}
	if _, err := p.Hold(ctx, join("One"), []string{owner1}); !isCode(err, CodeInARound) {
		t.Fatalf("second hold by one Badge: %v", err)
	}
	// Three unpaid holds do not fill the short table (paid_full_test.go): a fourth is held.
	if h, err := p.Hold(ctx, join("Four"), []string{owner3}); err != nil || h.Table != h1.Table {
		t.Fatalf("fourth hold: %+v %v", h, err)
	}

	// Nothing on chain yet: unpaid. A claim is nothing; only deposits count.
	c, err := p.Check(ctx, h1.Hold, h1.SeatToken)
	if err != nil || c.Paid || c.Status != "holding" {
		t.Fatalf("check %+v %v", c, err)
	}
	if _, err := p.Check(ctx, h1.Hold, h2.SeatToken); !isCode(err, "forbidden") {
		t.Fatalf("check with another seat's token: %v", err)
	}
	// Seat 1 pays from its agent wallet (a pay_from account) — paid, paid_by the wallet.
	deps.add(h1.SeatToken, EscrowDeposit{Payer: "4WalletOne", Amount: 100_000_000, At: t0.Add(10 * time.Second), Finalized: true})
	// Seat 2: a stranger pays the full entry (not counted), then the owner pays too little.
	deps.add(h2.SeatToken, EscrowDeposit{Payer: "StrangerAcct", Amount: 100_000_000, At: t0.Add(5 * time.Second), Finalized: true})
	deps.add(h2.SeatToken, EscrowDeposit{Payer: "3kBxOwnerTwo", Amount: 99_999_999, At: t0.Add(6 * time.Second), Finalized: true})
	// Seat 3: the owner pays, not yet finalized.
	deps.add(h3.SeatToken, EscrowDeposit{Payer: "3kBxOwnerThree", Amount: 100_000_000, At: t0.Add(7 * time.Second)})

	c1, _ := p.Check(ctx, h1.Hold, h1.SeatToken)
	c2, _ := p.Check(ctx, h2.Hold, h2.SeatToken)
	c3, _ := p.Check(ctx, h3.Hold, h3.SeatToken)
	if !c1.Paid || c1.PaidBy != wallet1 || c1.Amount != 100_000_000 {
		t.Fatalf("seat 1: %+v", c1)
	}
	if c2.Paid || c2.Foreign != 100_000_000 {
		t.Fatalf("seat 2: %+v", c2)
	}
	if c3.Paid || !c3.Pending {
		t.Fatalf("seat 3: %+v", c3)
	}

	// At starts_at the table opens with the paid seat and house seats; the rest are dropped.
	h.clock.Set(t0.Add(time.Minute))
	var tr [2]string
	select {
	case tr = <-opened:
	case <-time.After(waitMax):
		t.Fatal("the paid table did not open")
	}
	if tr[0] != h1.Table || tr[1] == "" {
		t.Fatalf("opened %v", tr)
	}
	ti, err := h.arena.Table(ctx, tr[0])
	if err != nil {
		t.Fatal(err)
	}
	if ti.Kind != "open" || len(ti.Seats) != 3 || ti.Seats[0].Agent != join("One").Agent || ti.Seats[0].Channel != ChannelA2A ||
		ti.Seats[1].Channel != actors.ChannelHouse || ti.Seats[2].Channel != actors.ChannelHouse {
		t.Fatalf("table %+v", ti)
	}
	c1, _ = p.Check(ctx, h1.Hold, h1.SeatToken)
	c2, _ = p.Check(ctx, h2.Hold, h2.SeatToken)
	if c1.Status != "seated" || c1.Round != tr[1] || c1.Seat != 1 || c2.Status != "dropped" {
		t.Fatalf("after start: %+v / %+v", c1, c2)
	}
	// A deposit landing after starts_at changes nothing.
	deps.add(h2.SeatToken, EscrowDeposit{Payer: "3kBxOwnerTwo", Amount: 100_000_000, At: t0.Add(2 * time.Minute), Finalized: true})
	if c2, _ = p.Check(ctx, h2.Hold, h2.SeatToken); c2.Paid || c2.Status != "dropped" {
		t.Fatalf("late deposit counted: %+v", c2)
	}
	// Payouts go to paid_by.
	pays, ok := p.Payouts(tr[1], games.Result{Payouts: map[int]int64{1: 123_000_000, 2: 50, 3: 60}})
	if !ok || len(pays) != 1 || pays[0] != (PaidPayout{Seat: 1, Account: wallet1, Amount: 123_000_000}) {
		t.Fatalf("payouts %+v", pays)
	}
	if _, ok := p.Payouts("T-999999", games.Result{}); ok {
		t.Fatal("payouts for a round this lobby did not open")
	}
	// The next hold starts a new table.
	h4, err := p.Hold(ctx, join("Four"), []string{owner3})
	if err != nil || h4.Table == h1.Table {
		t.Fatalf("next table: %+v %v", h4, err)
	}
	// The money is in the ledger: the paid seat's deposit and the two house seats' entries are
	// staked in the round's pot; the unpaid holds received nothing.
	if err := ledger.Audit(ctx, p.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, err := p.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Units[PaidUnit]; got != (ledger.Totals{Received: 300_000_000, Staked: 300_000_000}) {
		t.Fatalf("ledger totals %+v", got)
	}
	if pot := st.Pots[tr[1]]; pot.Balance != 300_000_000 || pot.Stakes[h1.Hold] != 100_000_000 || len(pot.Stakes) != 3 {
		t.Fatalf("the round's pot %+v", pot)
	}
	for _, hh := range []PaidHold{h2, h3, h4} {
		if hl, ok := st.Holds[hh.Hold]; !ok || hl.Received != 0 {
			t.Fatalf("hold %s: %+v %v", hh.Hold, hl, ok)
		}
	}
}
