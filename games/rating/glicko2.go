// Package rating is Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), the rating of
// DOTDOTDOT's rated tables, and the reduction of a many-seat round to the two-player games
// Glicko-2 rates (Round: pairwise by rank). It is pure: the same ratings and ranks give the same
// new ratings, bit for bit, on one build, so the stored ratings can be recomputed from the rated
// rounds alone (docs/protocol-notes.md, "DOTDOTDOT ratings").
package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is one player's Glicko-2 rating on the Glicko scale: Rating (r, 1500 for a newcomer),
// RD (the rating deviation, the uncertainty of r, in rating points) and Volatility (σ, how
// erratic the player's results are).
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// Game is one game of a rating period from the rated player's side: the opponent's rating
// before the period and the player's score, 1 a win, 0.5 a draw, 0 a loss.
type Game struct {
	Opponent Rating
	Score    float64
}

// System holds Glicko-2's constants.
type System struct {
	// Tau (τ) constrains how fast volatility moves; Glickman suggests 0.3 to 1.2 and uses 0.5 in
	// his example. 0 is 0.5.
	Tau float64
	// Initial is a newcomer's rating (zero: 1500, RD 350, volatility 0.06, Glickman's step 1).
	Initial Rating
}

// Default is the system of DOTDOTDOT's rated tables: τ 0.5, newcomers at 1500 / 350 / 0.06.
func Default() System {
	return System{Tau: 0.5, Initial: Rating{Rating: 1500, RD: 350, Volatility: 0.06}}
}

// scale is Glicko-2's conversion between the Glicko scale and its own (Glickman's step 2).
const scale = 173.7178

// epsilon is the convergence tolerance of the volatility iteration (Glickman's step 5).
const epsilon = 0.000001

// maxIter bounds each loop of the volatility iteration, so that no input can hold it: with
// valid inputs it converges in well under 100 steps.
const maxIter = 1000

// ErrBadRating is returned for a rating Glicko-2 cannot take: a rating, RD or volatility that
// is not finite, an RD or volatility that is not positive, or a score outside 0..1.
var ErrBadRating = errors.New("rating: not a valid Glicko-2 rating")

func (s System) tau() float64 {
	if s.Tau == 0 {
		return 0.5
	}
	return s.Tau
}

// New is a newcomer's rating (System.Initial, or Default's).
func (s System) New() Rating {
	if s.Initial == (Rating{}) {
		return Default().Initial
	}
	return s.Initial
}

func valid(r Rating) bool {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	return finite(r.Rating) && finite(r.RD) && finite(r.Volatility) && r.RD > 0 && r.Volatility > 0
}

// g is Glickman's g(φ), which weighs a game by the opponent's uncertainty.
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expect is Glickman's E(μ, μj, φj): the expected score against the opponent.
func expect(mu, muJ, phiJ float64) float64 { return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ))) }

// Update is p's rating after one rating period in which it played games (Glickman's steps 2 to
// 8). With no games only the RD grows (step 6: φ' = √(φ² + σ²)). Errors: ErrBadRating for p or
// an opponent that is not valid, or a score outside 0..1 (nothing is computed).
func (s System) Update(p Rating, games []Game) (Rating, error) {
	if !valid(p) {
		return Rating{}, fmt.Errorf("%w: %+v", ErrBadRating, p)
	}
	tau := s.tau()
	if !(tau > 0) || math.IsInf(tau, 0) {
		return Rating{}, fmt.Errorf("%w: tau %v", ErrBadRating, tau)
	}
	for _, gm := range games {
		if !valid(gm.Opponent) || !(gm.Score >= 0 && gm.Score <= 1) {
			return Rating{}, fmt.Errorf("%w: game %+v", ErrBadRating, gm)
		}
	}
	mu, phi, sigma := (p.Rating-1500)/scale, p.RD/scale, p.Volatility
	if len(games) == 0 {
		return Rating{Rating: p.Rating, RD: scale * math.Sqrt(phi*phi+sigma*sigma), Volatility: sigma}, nil
	}
	// Step 3 and 4: the estimated variance v and the improvement Δ.
	var vInv, sum float64
	for _, gm := range games {
		muJ, phiJ := (gm.Opponent.Rating-1500)/scale, gm.Opponent.RD/scale
		gj, e := g(phiJ), expect(mu, muJ, phiJ)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (gm.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm on f(x).
	sigma = newVolatility(delta, phi, v, sigma, tau)
	// Steps 6 and 7: the new RD and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	out := Rating{Rating: scale*muNew + 1500, RD: scale * phiNew, Volatility: sigma}
	if !valid(out) {
		return Rating{}, fmt.Errorf("%w: the period gives %+v", ErrBadRating, out)
	}
	return out, nil
}

// newVolatility is Glickman's step 5: σ' = e^(A/2) where A is the root of
// f(x) = e^x(Δ² − φ² − v − e^x) / (2(φ² + v + e^x)²) − (x − a)/τ², a = ln σ², found by the
// Illinois variant of regula falsi to within epsilon.
func newVolatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for i := 0; f(a-k*tau) < 0 && i < maxIter; i++ {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < maxIter; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
