package dotdotdot

import (
	"context"
	"reflect"
	"testing"

	"arena/actors/ledger"
	"arena/games"
)

// TestSeasonPoolSettlement: a paid short round, 100 CCD a seat: seat 1 paid by owner1, seats 2
// and 3 the house's. The game's Result: payouts 80, 150, 60 and 10 CCD of fees; house seat 2's
// collateral gained 55 CCD, its season pool part (§11.3). The round settles in the ledger as
// 80 to owner1, 55 to the season pool and 165 to the house (fees 10, seat 2's 150 − 55, seat
// 3's 60): the pool is never the house's. The ledger invariant holds and the pool's account
// reads 55 CCD.
func TestSeasonPoolSettlement(t *testing.T) {
	const ccd = 1_000_000
	res := games.Result{Unit: "microCCD", Payouts: map[int]int64{1: 80 * ccd, 2: 150 * ccd, 3: 60 * ccd}, House: 10 * ccd,
		Pool: map[int]int64{2: 55 * ccd}}
	st := settlementOf("o1", "T-5", res, map[int]string{1: owner1}, 100*ccd, 3)
	if !reflect.DeepEqual(st.Paid, []PaidPayout{{Seat: 1, Account: owner1, Amount: 80 * ccd}}) ||
		!reflect.DeepEqual(st.House, map[int]int64{2: 95 * ccd, 3: 60 * ccd}) || st.Pool != 55*ccd {
		t.Fatalf("settlement %+v", st)
	}
	pays, house := st.ledgerSettle()
	if want := []ledger.Payout{{Account: owner1, Amount: 80 * ccd}, {Account: SeasonPoolAccount, Amount: 55 * ccd}}; !reflect.DeepEqual(pays, want) || house != 165*ccd {
		t.Fatalf("ledger settle %+v, house %d", pays, house)
	}

	// The same rows through the ledger actor, durable, from the deposits to the settle.
	h := newHarness(t)
	ctx := context.Background()
	l := h.arena.Ledger()
	rows := []ledger.Row{ledger.OpenHold("p1", PaidUnit, nil), ledger.Receive("p1", owner1, 100*ccd, "dep/1"), ledger.OpenPot("T-5", PaidUnit, nil),
		ledger.Stake("p1", "T-5", 100*ccd)}
	for _, id := range []string{houseHold("o1", 2), houseHold("o1", 3)} {
		rows = append(rows, ledger.OpenHold(id, PaidUnit, nil), ledger.Receive(id, "house", 100*ccd, "deposit/"+id), ledger.Stake(id, "T-5", 100*ccd))
	}
	rows = append(rows, ledger.Settle("T-5", pays, house))
	if _, err := l.Post(ctx, &ledger.Post{Key: "test/T-5", Rows: rows}); err != nil {
		t.Fatal(err)
	}
	if err := ledger.Audit(ctx, l); err != nil {
		t.Fatal(err)
	}
	s, err := l.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Units[PaidUnit], (ledger.Totals{Received: 300 * ccd, PaidOut: 135 * ccd, House: 165 * ccd}); got != want {
		t.Fatalf("totals %+v, want %+v", got, want)
	}
	if got := s.PaidTo(PaidUnit, SeasonPoolAccount); got != 55*ccd {
		t.Fatalf("the season pool holds %d, want %d", got, 55*ccd)
	}
}

// TestSeasonPoolPaidInHouseSeat: an in-house agent on a paid seat (its Badge the house's, §3)
// is an arena agent too: its collateral gain goes to the pool, the rest of its payout to its
// paid_by.
func TestSeasonPoolPaidInHouseSeat(t *testing.T) {
	res := games.Result{Payouts: map[int]int64{1: 130, 2: 70, 3: 100}, Pool: map[int]int64{1: 30}}
	st := settlementOf("o1", "T-6", res, map[int]string{1: owner1, 2: owner2}, 100, 3)
	if !reflect.DeepEqual(st.Paid, []PaidPayout{{1, owner1, 100}, {2, owner2, 70}}) || st.Pool != 30 ||
		!reflect.DeepEqual(st.House, map[int]int64{3: 100}) {
		t.Fatalf("settlement %+v", st)
	}
}
