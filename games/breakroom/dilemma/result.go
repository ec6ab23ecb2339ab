package dilemma

import (
	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Unit is the unit of Result: points are a ranking currency only (§5.10); at paid tables money
// follows the ranking (/payments), not the points.
const Unit = "points"

// meanScore is a seat's exact mean points per iteration as a float64: points and iterations are
// small integers, so distinct fractions give distinct floats and equal ones the same, and
// games.Rank on it ranks by the exact fraction (§5.8: rounding cannot create a tie). A seat with
// no iteration scores 0.
func meanScore(points, iterations int64) float64 {
	if iterations == 0 {
		return 0
	}
	return float64(points) / float64(iterations)
}

// roundedScore is §5.8's written score: points / iterations rounded half-up to 3 decimals.
func roundedScore(points, iterations int64) float64 {
	if iterations == 0 {
		return 0
	}
	q := (2000*points + iterations) / (2 * iterations)
	return float64(q) / 1000
}

// standings rank every seat (house seat numbers) by exact mean score, competition ranks, ties in
// seat order (§1.9).
func (m *match) standings() []games.Standing {
	scores := make(map[int]float64, len(m.seats))
	for i, s := range m.seats {
		scores[breakroom.HouseSeat(i)] = meanScore(s.points, s.iterations)
	}
	return games.Rank(scores)
}

// ranking is match_end.ranking (§5.8): {rank, seat, pubkey, name, score, points, iterations,
// cooperated, defected}, best first; match_abandoned's standings so far are the same over the
// iterations completed.
func (m *match) ranking() []map[string]any {
	var out []map[string]any
	for _, st := range m.standings() {
		i := breakroom.WireSeat(st.Seat)
		s := m.seats[i]
		out = append(out, map[string]any{
			"rank": st.Rank, "seat": i, "pubkey": s.pubkey, "name": s.name,
			"score": roundedScore(s.points, s.iterations), "points": s.points, "iterations": s.iterations,
			"cooperated": s.cooperated, "defected": s.defected,
		})
	}
	return out
}

// Result, once done: Standings by exact mean points per iteration (Score is that mean); Unit
// "points"; Payouts every seat's Entry back and House 0, for the rules move no money (a paid
// table's pot is settled by the ranking, outside the rules); the seed and its hash; the
// transcript hash, of the log as JSONL (closeTranscript); Reveal {"ranking": match_end's ranking, "horizons": [H_1, …]}; Abandoned
// the reason of an abandoned match, whose standings are those so far.
func (m *match) Result() (games.Result, bool) {
	if m.phase != phaseDone {
		return games.Result{}, false
	}
	payouts := make(map[int]int64, len(m.seats))
	for _, s := range m.setup.Seats {
		payouts[s.Seat] = s.Entry
	}
	reveal, _ := canon.Marshal(map[string]any{"ranking": m.ranking(), "horizons": m.horizons})
	return games.Result{
		Standings:      m.standings(),
		Unit:           Unit,
		Payouts:        payouts,
		SeedHash:       breakroom.SeedHash(m.setup.Seed),
		Seed:           breakroom.SeedHex(m.setup.Seed),
		TranscriptHash: m.thash,
		Reveal:         reveal,
		Abandoned:      m.abandoned,
	}, true
}
