package werewolf

import (
	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Unit is the unit of Result: score is a ranking currency only; at paid tables money follows
// the ranking (/payments), not the score.
const Unit = "score"

// how is seat i's elimination for the ranking: its logged one, or "left" for a seat that
// reached the strike limit in a phase an abandon cut before it closed.
func (m *match) how(i int) string {
	s := m.seats[i]
	if s.how == "" && s.leaving {
		return HowLeft
	}
	return s.how
}

// score is §3.5's per-seat score: 0 for a seat eliminated as "left", whatever its team did;
// else 0.5 on a draw or an abandoned match, 1 for the winning team (dead members included) and
// 0 for the losing one.
func (m *match) score(i int) float64 {
	switch {
	case m.how(i) == HowLeft:
		return 0
	case m.winner == WinnerDraw || m.winner == "":
		return 0.5
	case TeamOf(m.seats[i].role) == m.winner:
		return 1
	}
	return 0
}

// standings rank every seat (house seat numbers) by score, competition ranks, ties in seat
// order (§1.9).
func (m *match) standings() []games.Standing {
	scores := make(map[int]float64, len(m.seats))
	for i := range m.seats {
		scores[breakroom.HouseSeat(i)] = m.score(i)
	}
	return games.Rank(scores)
}

// ranking is match_end.ranking (§3.5): {rank, seat, pubkey, name, score, role, team, won, alive,
// eliminated, eliminated_round}, best first; match_abandoned's standings so far are the same,
// as a draw.
func (m *match) ranking() []map[string]any {
	var out []map[string]any
	for _, st := range m.standings() {
		i := breakroom.WireSeat(st.Seat)
		s := m.seats[i]
		var elim, elimRound any
		if how := m.how(i); how != "" {
			elim = how
			elimRound = s.elimRnd
			if s.how == "" {
				elimRound = m.round
			}
		}
		out = append(out, map[string]any{
			"rank": st.Rank, "seat": i, "pubkey": s.pubkey, "name": s.name, "score": st.Score,
			"role": s.role, "team": TeamOf(s.role), "won": st.Score == 1, "alive": s.alive && !s.leaving,
			"eliminated": elim, "eliminated_round": elimRound,
		})
	}
	return out
}

// Result, once done: Standings by score (1 / 0.5 / 0); Unit "score"; Payouts every seat's
// Entry back and House 0, for the rules move no money; the seed and its hash; the transcript
// hash; Reveal {"ranking": match_end's ranking, "winner": game_over's winner ("" when
// abandoned)}; Abandoned the reason of an abandoned match, ranked as a draw.
func (m *match) Result() (games.Result, bool) {
	if m.phase != phaseDone {
		return games.Result{}, false
	}
	payouts := make(map[int]int64, len(m.seats))
	for _, s := range m.setup.Seats {
		payouts[s.Seat] = s.Entry
	}
	reveal, _ := canon.Marshal(map[string]any{"ranking": m.ranking(), "winner": m.winner})
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
