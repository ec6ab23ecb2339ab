package rating

import (
	"math"
	"testing"
)

// The reduction of a round to pairs: every player gets one game against each other player,
// scored by rank, against the ratings before the round. A three-seat round with a tie for
// first is, for the first seat, a draw with the second and a win over the third.
func TestRoundIsPairwiseByRank(t *testing.T) {
	s := Default()
	ps := []Rating{glickmanPlayer, {Rating: 1400, RD: 30, Volatility: 0.06}, {Rating: 1700, RD: 300, Volatility: 0.06}}
	ranks := []int{1, 1, 3}
	got, err := s.Round(ps, ranks)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Game{
		{{ps[1], 0.5}, {ps[2], 1}},
		{{ps[0], 0.5}, {ps[2], 1}},
		{{ps[0], 0}, {ps[1], 0}},
	}
	for i := range ps {
		w, err := s.Update(ps[i], want[i])
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != w {
			t.Errorf("player %d: %+v, want %+v", i, got[i], w)
		}
	}
	if !(got[0].Rating > ps[0].Rating && got[2].Rating < ps[2].Rating) {
		t.Errorf("the co-winner should rise and the last fall: %+v", got)
	}
}

// Glickman's example as a round: the player ranked between the 1400 (last) and the 1550 and 1700
// (ahead) gets exactly the paper's period.
func TestRoundCarriesGlickmanExample(t *testing.T) {
	ps := append([]Rating{glickmanPlayer}, glickmanGames[0].Opponent, glickmanGames[1].Opponent, glickmanGames[2].Opponent)
	got, err := Default().Round(ps, []int{3, 4, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rating", got[0].Rating, 1464.0506705, 1e-6)
	near(t, "RD", got[0].RD, 151.5165241, 1e-6)
}

// Listing the players in another order gives each the same new rating.
func TestRoundOrderFree(t *testing.T) {
	ps := []Rating{
		{Rating: 1500, RD: 350, Volatility: 0.06}, {Rating: 1620, RD: 80, Volatility: 0.059},
		{Rating: 1380, RD: 120, Volatility: 0.061}, {Rating: 1500, RD: 200, Volatility: 0.06},
		{Rating: 1710, RD: 60, Volatility: 0.058}, {Rating: 1450, RD: 300, Volatility: 0.06},
	}
	ranks := []int{2, 5, 1, 2, 6, 4}
	a, err := Default().Round(ps, ranks)
	if err != nil {
		t.Fatal(err)
	}
	perm := []int{5, 3, 0, 4, 1, 2}
	qs, qr := make([]Rating, len(ps)), make([]int, len(ps))
	for i, p := range perm {
		qs[i], qr[i] = ps[p], ranks[p]
	}
	b, err := Default().Round(qs, qr)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range perm {
		if b[i] != a[p] {
			t.Errorf("player %d: %+v listed elsewhere, %+v in order", p, b[i], a[p])
		}
	}
}

// Six newcomers: the first gains what the last loses, the middle two move by equal and opposite
// amounts, and every RD falls from 350 (five games each).
func TestRoundOfNewcomers(t *testing.T) {
	s := Default()
	ps := make([]Rating, 6)
	for i := range ps {
		ps[i] = s.New()
	}
	got, err := s.Round(ps, []int{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		up, down := got[i].Rating-1500, 1500-got[5-i].Rating
		if up <= 0 || math.Abs(up-down) > 1e-9 {
			t.Errorf("place %d +%v, place %d −%v", i+1, up, 6-i, down)
		}
	}
	for i, r := range got {
		if r.RD >= 350 {
			t.Errorf("player %d RD %v did not fall", i, r.RD)
		}
	}
	if !(got[0].Rating > got[1].Rating && got[1].Rating > got[2].Rating) {
		t.Errorf("not ordered by place: %+v", got)
	}
}

// A round with one rated player rates nobody; bad input is refused.
func TestRoundEdges(t *testing.T) {
	one := []Rating{glickmanPlayer}
	got, err := Default().Round(one, []int{1})
	if err != nil || len(got) != 1 || got[0] != glickmanPlayer {
		t.Fatalf("one player: %+v %v", got, err)
	}
	if got, err := Default().Round(nil, nil); err != nil || len(got) != 0 {
		t.Fatalf("none: %+v %v", got, err)
	}
	if _, err := Default().Round(one, []int{1, 2}); err == nil {
		t.Error("lengths differ: no error")
	}
	if _, err := Default().Round([]Rating{glickmanPlayer, glickmanPlayer}, []int{0, 1}); err == nil {
		t.Error("rank 0: no error")
	}
	if _, err := Default().Round([]Rating{glickmanPlayer, {}}, []int{1, 2}); err == nil {
		t.Error("zero rating: no error")
	}
}

func TestDisplay(t *testing.T) {
	for in, want := range map[float64]int{1464.0506: 1464, 1464.5: 1465, 1499.49: 1499, -3.5: -4, 0: 0} {
		if got := Display(Rating{Rating: in}); got != want {
			t.Errorf("Display(%v) = %d, want %d", in, got, want)
		}
	}
}

// Any valid ratings and ranks give valid ratings, and the same answer twice.
func FuzzRound(f *testing.F) {
	f.Add(1500.0, 350.0, 0.06, 1700.0, 30.0, 0.06, 1, 2)
	f.Add(-4000.0, 1.0, 1e-6, 9000.0, 5000.0, 3.0, 2, 1)
	f.Fuzz(func(t *testing.T, r1, rd1, v1, r2, rd2, v2 float64, k1, k2 int) {
		ps := []Rating{{r1, rd1, v1}, {r2, rd2, v2}}
		a, err := Default().Round(ps, []int{k1, k2})
		if err != nil {
			return
		}
		b, _ := Default().Round(ps, []int{k1, k2})
		for i := range a {
			if !valid(a[i]) || a[i] != b[i] {
				t.Fatalf("%+v → %+v / %+v", ps, a, b)
			}
		}
	})
}
