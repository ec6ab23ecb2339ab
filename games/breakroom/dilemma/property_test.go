package dilemma

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestScoreRules: over many random matches (3 to 6 seats, some abandoned), every pair's points
// follow the matrix; every seat meets every other exactly once; each round plays H_r (§5.3)
// iterations; each seat's ranking entry sums its pair results (points, iterations, cooperated,
// defected); its score is points/iterations rounded half-up to 3 decimals; ranks are competition
// ranks by the exact fraction, ties in seat order; at 4 seats every seat plays Σ H_r iterations.
func TestScoreRules(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 17))
	pay := DefaultConfig().Payoffs
	for k := range 80 {
		n := 3 + k%4
		seed := randomSeed(rnd)
		abandon := 0
		if k%7 == 6 {
			abandon = 1 + rnd.IntN(40)
		}
		tb := randomMatch(t, n, seed, `{"stop_one_in":4,"max_iterations":7}`, rnd, abandon)
		type tally struct{ points, iterations, coop, def int64 }
		sum := make([]tally, n)
		for _, p := range tb.ofType("iteration_private") {
			var ip struct {
				Pair    [2]int
				Choices [2]string
				Points  [2]int64
				Seat    int
				To      []int
			}
			b, _ := json.Marshal(p)
			json.Unmarshal(b, &ip)
			if ip.Seat != ip.Pair[0] || len(ip.To) != 1 || ip.To[0] != ip.Pair[1] {
				t.Fatalf("iteration_private %v: seat/to are not its pair", p)
			}
			for side := range 2 {
				mine, theirs := ip.Choices[side][0], ip.Choices[1-side][0]
				if got := pay.Points(mine, theirs); ip.Points[side] != got {
					t.Fatalf("match %d: %v: %c against %c gives %d, not %d", k, p, mine, theirs, got, ip.Points[side])
				}
				s := &sum[ip.Pair[side]]
				s.points += ip.Points[side]
				s.iterations++
				if mine == 'C' {
					s.coop++
				} else {
					s.def++
				}
			}
		}
		met := map[[2]int]int{}
		for _, rs := range tb.ofType("round_start") {
			for _, p := range rs["pairs"].([]any) {
				a, b := int(p.([]any)[0].(float64)), int(p.([]any)[1].(float64))
				if a >= b {
					t.Fatalf("pair %v not written [low, high]", p)
				}
				met[[2]int{a, b}]++
			}
		}
		ends := tb.ofType("round_end")
		for _, re := range ends {
			r := int(re["round"].(float64))
			if got, want := int(re["iterations"].(float64)), Horizon(seed, r, 4, 7); got != want {
				t.Fatalf("match %d: round %d played %d iterations, H_r is %d", k, r, got, want)
			}
		}
		end := tb.ofType("match_end")
		if len(end) == 1 {
			if len(met) != n*(n-1)/2 || len(ends) != len(Schedule(n)) {
				t.Fatalf("match %d: %d pairs met, %d rounds ended", k, len(met), len(ends))
			}
			for p, c := range met {
				if c != 1 {
					t.Fatalf("match %d: %v met %d times", k, p, c)
				}
			}
		} else {
			end = tb.ofType("match_abandoned")
		}
		if len(end) != 1 {
			t.Fatalf("match %d: %d end lines", k, len(end))
		}
		var ranking []struct {
			Rank, Seat                               int
			Score                                    float64
			Points, Iterations, Cooperated, Defected int64
		}
		b, _ := json.Marshal(end[0]["ranking"])
		json.Unmarshal(b, &ranking)
		if len(ranking) != n {
			t.Fatalf("match %d: %d ranking entries", k, len(ranking))
		}
		for i, r := range ranking {
			s := sum[r.Seat]
			if r.Points != s.points || r.Iterations != s.iterations || r.Cooperated != s.coop || r.Defected != s.def {
				t.Fatalf("match %d: seat %d's entry %+v, its pair results sum to %+v", k, r.Seat, r, s)
			}
			if n == 4 && len(tb.ofType("match_end")) == 1 {
				var h int64
				for r := range Schedule(4) {
					h += int64(Horizon(seed, r+1, 4, 7))
				}
				if r.Iterations != h {
					t.Fatalf("match %d: seat %d played %d iterations, Σ H_r = %d", k, r.Seat, r.Iterations, h)
				}
			}
			exact := big.NewRat(0, 1)
			if r.Iterations > 0 {
				exact = big.NewRat(r.Points, r.Iterations)
			}
			half := new(big.Rat).Add(new(big.Rat).Mul(exact, big.NewRat(1000, 1)), big.NewRat(1, 2))
			thousandths := new(big.Int).Quo(half.Num(), half.Denom()) // floor: half is not negative
			if want, _ := new(big.Rat).SetFrac(thousandths, big.NewInt(1000)).Float64(); r.Score != want {
				t.Fatalf("match %d: score %v for %d/%d", k, r.Score, r.Points, r.Iterations)
			}
			if i > 0 {
				prev := ranking[i-1]
				pe := big.NewRat(0, 1)
				if prev.Iterations > 0 {
					pe = big.NewRat(prev.Points, prev.Iterations)
				}
				switch c := pe.Cmp(exact); {
				case c < 0:
					t.Fatalf("match %d: %+v ranked above %+v", k, prev, r)
				case c == 0 && (r.Rank != prev.Rank || r.Seat < prev.Seat):
					t.Fatalf("match %d: a tie %+v %+v not sharing a rank in seat order", k, prev, r)
				case c > 0 && r.Rank != i+1:
					t.Fatalf("match %d: rank %d at place %d", k, r.Rank, i+1)
				}
			}
		}
		res, ok := tb.m.Result()
		if !ok || res.Unit != Unit || len(res.Standings) != n || res.Standings[0].Rank != 1 {
			t.Fatalf("match %d: result %+v", k, res)
		}
	}
}
