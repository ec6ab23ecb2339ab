package auction

import (
	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Unit is the unit of Result: cash and values are a ranking currency only; at paid tables money
// follows the ranking (/payments), not the score.
const Unit = "points"

// score is §4.8's score of a seat: its cash left plus the values of the lots it won.
func (s *seatState) score() int64 { return s.cash + s.valueWon }

// standings rank every seat (house seat numbers) by score, competition ranks, ties in seat
// order (§1.9, §4.8). Scores are integers far below 2^53, exact as float64.
func (m *match) standings() []games.Standing {
	scores := make(map[int]float64, len(m.seats))
	for i := range m.seats {
		scores[breakroom.HouseSeat(i)] = float64(m.seats[i].score())
	}
	return games.Rank(scores)
}

// ranking is match_end.ranking (§4.8): {rank, seat, pubkey, name, score, cash, lots_won,
// value_won}, best first; match_abandoned's standings so far are the same over the lots
// completed.
func (m *match) ranking() []map[string]any {
	var out []map[string]any
	for _, st := range m.standings() {
		i := breakroom.WireSeat(st.Seat)
		s := &m.seats[i]
		out = append(out, map[string]any{
			"rank": st.Rank, "seat": i, "pubkey": s.pubkey, "name": s.name,
			"score": s.score(), "cash": s.cash, "lots_won": s.lotsWon, "value_won": s.valueWon,
		})
	}
	return out
}

// Result, once done: Standings by score (cash + value won); Unit "points"; Payouts every seat's
// Entry back and House 0, for the rules move no money (a paid table's pot is settled by the
// ranking, outside the rules); the seed and its hash; the transcript hash, of the log as JSONL
// (closeTranscript); Reveal {"ranking": the end line's ranking, "values": every lot's values by
// seat, "ties": the lots whose winner came from the tie draw}; Abandoned the reason of an
// abandoned match, whose standings are those so far.
func (m *match) Result() (games.Result, bool) {
	if m.phase != phaseDone {
		return games.Result{}, false
	}
	payouts := make(map[int]int64, len(m.seats))
	for _, s := range m.setup.Seats {
		payouts[s.Seat] = s.Entry
	}
	ties := []int{}
	for r, t := range m.ties {
		if t {
			ties = append(ties, r+1)
		}
	}
	reveal, _ := canon.Marshal(map[string]any{"ranking": m.ranking(), "values": m.values, "ties": ties})
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
