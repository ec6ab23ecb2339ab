package inference

import (
	"testing"
)

// TestBustsOfOneRoundShareBustOrder (§2.3 step 6: "seats that bust in the same round share the
// number"): a seat back from sitting out with fewer credits than the ante busts at the start of
// hand 2, and the seats left short by hand 2's showdown bust at its end; every bust line of
// round 2 carries the same bustOrder (hand 1's loser has its own), and the ranking ties them.
func TestBustsOfOneRoundShareBustOrder(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), seq0(), `{"rounds":10,"starting_credits":5,"strikes_limit":1}`))
	// Hand 1, dealer 0: seat 1 raises 2 (1 credit left), seat 2 calls, seat 3 raises 1, seats 4
	// and 0 fold; seat 1 misses its deadline, so folds and sits out (strikes_limit 1) with 1
	// credit; its key comes back while seat 2 still has to call, so it sits in at hand 2.
	tb.move(1, `{"action":"raise","amount":2}`)
	tb.move(2, `{"action":"call"}`)
	tb.move(3, `{"action":"raise","amount":1}`)
	tb.move(4, `{"action":"fold"}`)
	tb.move(0, `{"action":"fold"}`)
	tb.expire(1)
	if err := tb.presence(1, false); err != nil {
		t.Fatal(err)
	}
	tb.move(2, `{"action":"call"}`)
	// Hand 2: everyone checks; seats 4 and 0 hold 1 credit after the ante, so whoever of them
	// loses the showdown busts at its end.
	for tb.m.phase == phasePlaying && tb.m.round == 2 {
		tb.move(tb.m.open.seat, `{"action":"check"}`)
	}
	var second []map[string]any
	for _, b := range tb.ofType("bust") {
		if b["round"].(float64) == 2 {
			second = append(second, b)
		} else if b["round"].(float64) != 1 || b["bustOrder"].(float64) != 1 {
			t.Fatalf("bust %v: hand 1's loser busts first, bustOrder 1", b)
		}
	}
	if len(second) < 2 || second[0]["seat"].(float64) != 1 || second[0]["credits"].(float64) != 1 {
		t.Fatalf("round 2's bust lines %v, want seat 1's (1 credit) at its start and at least one at its end", second)
	}
	for _, b := range second {
		if b["bustOrder"].(float64) != 2 {
			t.Fatalf("round 2's bust lines %v: the second round with a bust, so every bustOrder is 2", second)
		}
	}
	for tb.m.phase == phasePlaying { // the rest: every seat misses, sits out, and the match ends
		tb.expire(tb.m.open.seat)
	}
	rank := map[float64]float64{}
	for _, e := range tb.ofType("match_end")[0]["ranking"].([]any) {
		e := e.(map[string]any)
		rank[e["seat"].(float64)] = e["rank"].(float64)
	}
	for _, b := range second[1:] {
		if rank[b["seat"].(float64)] != rank[1] {
			t.Fatalf("ranking %v: seat 1 and seat %v busted in the same round, so share a rank", rank, b["seat"])
		}
	}
	if rep := VerifyJSONL(tb.publicLog()); !rep.OK {
		t.Fatalf("verify: %+v", rep)
	}
}
