package market

import (
	"testing"
)

// A proposal reserves the Offered Assets; approval settles both directions in one step and
// releases the reservation.
func TestExchangeSettles(t *testing.T) {
	st := newMarket(t, testConfig())
	a, b := enrol(t, st, "owner-a"), enrol(t, st, "owner-b")
	var x exView
	must(t, st, "owner-a", t0, proposeBody("offer-01", b, goods("wood", 10), goods("credits", 40), later), &x)
	if x.Status != StatusAwaiting || x.ExchangeVersion != 1 || x.LiveRound != 1 || x.RoundCount != 1 ||
		x.AnsweringPlayerID == nil || *x.AnsweringPlayerID != b || x.ProposerPlayerID != a {
		t.Fatalf("proposed: %+v", x)
	}
	if got := holdingsOf(t, st, "owner-a")["wood"]; got != [2]int64{20, 10} {
		t.Fatalf("a's wood after proposing: %v, want 20 held 10 reserved", got)
	}
	var y exView
	must(t, st, "owner-b", t0, respondBody("answer-01", x.ExchangeID, 1, x.TermsHash, "approve"), &y)
	if y.Status != StatusSettled || y.ExchangeVersion != 2 || y.AnsweringPlayerID != nil || len(y.Approvals) != 2 {
		t.Fatalf("settled: %+v", y)
	}
	ha, hb := holdingsOf(t, st, "owner-a"), holdingsOf(t, st, "owner-b")
	if ha["wood"] != [2]int64{10, 0} || ha["credits"] != [2]int64{140, 0} || hb["wood"] != [2]int64{30, 0} || hb["credits"] != [2]int64{60, 0} {
		t.Fatalf("after settlement: a %v b %v", ha, hb)
	}
}
