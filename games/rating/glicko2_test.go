package rating

import (
	"errors"
	"math"
	"testing"
)

// Glickman's worked example ("Example of the Glicko-2 system", 2013, steps 1 to 8): a player
// rated 1500, RD 200, volatility 0.06, τ 0.5, beats a 1400 (RD 30) and loses to a 1550 (RD 100)
// and a 1700 (RD 300): 1464.06, RD 151.52, volatility 0.05999.
var glickmanPlayer = Rating{Rating: 1500, RD: 200, Volatility: 0.06}

var glickmanGames = []Game{
	{Opponent: Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
	{Opponent: Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
	{Opponent: Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// The paper carries its intermediate values at four decimals (v 1.7785, Δ −0.4834), so its
// published figures sit within 0.01 of the exact computation, which is pinned beside them
// (1464.0506705, 151.5165241, 0.0599960: the paper's volatility 0.05999 is this one truncated).
func TestGlickmanExample(t *testing.T) {
	got, err := Default().Update(glickmanPlayer, glickmanGames)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rating (paper)", got.Rating, 1464.06, 0.01)
	near(t, "RD (paper)", got.RD, 151.52, 0.005)
	near(t, "volatility (paper)", got.Volatility, 0.05999, 0.00001)
	near(t, "rating", got.Rating, 1464.0506705, 1e-6)
	near(t, "RD", got.RD, 151.5165241, 1e-6)
	near(t, "volatility", got.Volatility, 0.0599960, 1e-7)
}

// The paper's intermediate quantities, on the Glicko-2 scale: g(φj) 0.9955, 0.9531, 0.7242;
// E 0.639, 0.432, 0.303; v 1.7785; Δ −0.4834; μ' −0.2069; φ' 0.8722.
func TestGlickmanSteps(t *testing.T) {
	wantG := []float64{0.9955, 0.9531, 0.7242}
	wantE := []float64{0.639, 0.432, 0.303}
	var vInv, sum float64
	for i, gm := range glickmanGames {
		phiJ := gm.Opponent.RD / scale
		muJ := (gm.Opponent.Rating - 1500) / scale
		near(t, "g", g(phiJ), wantG[i], 0.00005)
		e := expect(0, muJ, phiJ)
		near(t, "E", e, wantE[i], 0.0005)
		vInv += g(phiJ) * g(phiJ) * e * (1 - e)
		sum += g(phiJ) * (gm.Score - e)
	}
	v := 1 / vInv
	near(t, "v", v, 1.7785, 0.001) // the paper's v and Δ are computed from g and E at 4 decimals
	near(t, "Δ", v*sum, -0.4834, 0.001)
	got, _ := Default().Update(glickmanPlayer, glickmanGames)
	near(t, "μ'", (got.Rating-1500)/scale, -0.2069, 0.0001)
	near(t, "φ'", got.RD/scale, 0.8722, 0.00005)
}

// A period without games only widens the RD: φ' = √(φ² + σ²) (step 6, "if the player does not
// compete").
func TestNoGamesWidensRD(t *testing.T) {
	got, err := Default().Update(glickmanPlayer, nil)
	if err != nil {
		t.Fatal(err)
	}
	phi := 200 / scale
	want := scale * math.Sqrt(phi*phi+0.06*0.06)
	if got.Rating != 1500 || got.Volatility != 0.06 || got.RD != want {
		t.Fatalf("got %+v, want RD %v", got, want)
	}
	near(t, "RD", got.RD, 200.27, 0.005)
}

func TestUpdateRefusesBadInput(t *testing.T) {
	bad := []Rating{
		{Rating: math.NaN(), RD: 200, Volatility: 0.06},
		{Rating: 1500, RD: 0, Volatility: 0.06},
		{Rating: 1500, RD: -1, Volatility: 0.06},
		{Rating: 1500, RD: 200, Volatility: 0},
		{Rating: math.Inf(1), RD: 200, Volatility: 0.06},
		{Rating: 1500, RD: math.Inf(1), Volatility: 0.06},
	}
	for _, b := range bad {
		if _, err := Default().Update(b, glickmanGames); !errors.Is(err, ErrBadRating) {
			t.Errorf("player %+v: err %v", b, err)
		}
		if _, err := Default().Update(glickmanPlayer, []Game{{Opponent: b, Score: 1}}); !errors.Is(err, ErrBadRating) {
			t.Errorf("opponent %+v: err %v", b, err)
		}
	}
	for _, sc := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := Default().Update(glickmanPlayer, []Game{{Opponent: glickmanPlayer, Score: sc}}); !errors.Is(err, ErrBadRating) {
			t.Errorf("score %v: err %v", sc, err)
		}
	}
	if _, err := (System{Tau: -1}).Update(glickmanPlayer, glickmanGames); !errors.Is(err, ErrBadRating) {
		t.Errorf("tau -1: err %v", err)
	}
}

func TestNewcomer(t *testing.T) {
	if got := (System{}).New(); got != (Rating{Rating: 1500, RD: 350, Volatility: 0.06}) {
		t.Fatalf("New %+v", got)
	}
}
