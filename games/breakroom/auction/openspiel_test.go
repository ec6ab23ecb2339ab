package auction

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// spielTrace is what the OpenSpiel playthrough records of one first-price sealed-bid lot.
type spielTrace struct {
	values  []int64   // "Player i value: v" chance outcomes, in player order
	bids    []int64   // "Player i bid: b" actions, in player order
	winner  int       // "Chose winner w" (the trace's tie-break chance node, applied even without a tie)
	returns []float64 // the terminal Returns()
}

func readSpiel(t *testing.T, path string) spielTrace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tr spielTrace
	applied := regexp.MustCompile(`^# Apply action "(Player (\d+) value: (\d+)|Player (\d+) bid: (\d+)|Chose winner (\d+))"$`)
	returns := regexp.MustCompile(`^Returns\(\) = \[(.*)\]$`)
	sc := bufio.NewScanner(f)
	var last string
	for sc.Scan() {
		l := sc.Text()
		if m := applied.FindStringSubmatch(l); m != nil {
			switch {
			case m[3] != "":
				v, _ := strconv.ParseInt(m[3], 10, 64)
				tr.values = append(tr.values, v)
			case m[5] != "":
				b, _ := strconv.ParseInt(m[5], 10, 64)
				tr.bids = append(tr.bids, b)
			default:
				tr.winner, _ = strconv.Atoi(m[6])
			}
		}
		if m := returns.FindStringSubmatch(l); m != nil {
			last = m[1]
		}
	}
	for _, s := range strings.Split(last, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			t.Fatalf("returns %q: %v", last, err)
		}
		tr.returns = append(tr.returns, r)
	}
	if len(tr.values) != 2 || len(tr.bids) != 2 || len(tr.returns) != 2 {
		t.Fatalf("trace %+v", tr)
	}
	return tr
}

// TestOpenSpielFirstPriceLot cross-checks one sealed first-price lot against OpenSpiel's
// independent playthrough (testdata/openspiel/first_sealed_auction.txt, copied unchanged; see
// its README): for the trace's values (9, 10) and bids (3, 5) our lot goes to the same player at
// the same price, and each seat's score less its starting cash is the trace's return (value −
// bid for the winner, 0 for the loser).
//
// What it checks: first-price settlement (winner = highest bid, price = its own bid) and the
// payoff arithmetic, through a whole match of the engine. Our values come from the seed, not a
// chance node, so the test searches seeds (value_max 10, the trace's max_value) for one whose lot
// 1 deals exactly the trace's values to seats 0 and 1; a third seat (our minimum table is 3)
// passes, which takes no part in a first-price lot.
//
// What it does not check: OpenSpiel offers a bid of 0 and lets an all-zero lot be won for
// nothing, where our minimum bid is 1 and a lot nobody bids on is unsold; its bids are capped
// at value − 1 where ours may exceed the value (up to the cash); its tie-break is a uniform chance
// node, ours a seeded draw (rand(seed, "auction/r{r}/tie", k), checked by the worked example);
// and it has one lot with no budget, so cash carried across lots is not covered.
func TestOpenSpielFirstPriceLot(t *testing.T) {
	tr := readSpiel(t, "testdata/openspiel/first_sealed_auction.txt")
	var seed [32]byte
	found := false
	for c := 0; c < 100_000 && !found; c++ {
		seed = [32]byte{byte(c), byte(c >> 8), byte(c >> 16), 0x5e}
		found = Value(seed, 1, 0, 10) == tr.values[0] && Value(seed, 1, 1, 10) == tr.values[1]
	}
	if !found {
		t.Fatal("no seed deals the trace's values")
	}
	tb := newTable(t, setupN(3, seed, `{"lots":1,"value_max":10}`))
	tb.bid(0, tr.bids[0])
	tb.bid(1, tr.bids[1])
	tb.pass(2)
	res := tb.ofType("lot_result")
	if len(res) != 1 || res[0]["winner"] != float64(tr.winner) || res[0]["price"] != float64(tr.bids[tr.winner]) {
		t.Fatalf("lot_result %v, the trace's winner %d pays %d", res, tr.winner, tr.bids[tr.winner])
	}
	for s := range 2 {
		got := float64(tb.m.seats[s].score() - DefaultConfig().StartingCash)
		if got != tr.returns[s] {
			t.Errorf("seat %d: score − starting cash = %v, the trace's return %v", s, got, tr.returns[s])
		}
	}
	if fmt.Sprint(tr.returns) != "[0 5]" {
		t.Fatalf("the trace's returns %v", tr.returns)
	}
}
