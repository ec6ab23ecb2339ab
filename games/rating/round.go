package rating

import "fmt"

// Round rates one many-seat round as Glicko-2 rating period for each of its rated players,
// reduced to two-player games pairwise by rank: each player is given one game against every
// other player of the round, a win (1) against each it finished ahead of, a draw (0.5) against
// each it shares its rank with, a loss (0) against each ahead of it, every game against the
// opponent's rating before the round, so the order the players are listed in changes nothing.
// ranks[i] is players[i]'s place (1 the best; equal places share a number, as
// games.Rank gives them). A round of fewer than two players rates nobody: it is returned as it
// came (a lone rated seat among house seats learns nothing about its strength). Errors: lengths
// that differ, a rank below 1, or an invalid rating (ErrBadRating); nothing is computed.
func (s System) Round(players []Rating, ranks []int) ([]Rating, error) {
	if len(players) != len(ranks) {
		return nil, fmt.Errorf("rating: %d players and %d ranks", len(players), len(ranks))
	}
	for i, r := range ranks {
		if r < 1 {
			return nil, fmt.Errorf("rating: player %d has rank %d (ranks start at 1)", i, r)
		}
		if !valid(players[i]) {
			return nil, fmt.Errorf("%w: player %d %+v", ErrBadRating, i, players[i])
		}
	}
	out := make([]Rating, len(players))
	if len(players) < 2 {
		copy(out, players)
		return out, nil
	}
	games := make([]Game, 0, len(players)-1)
	for i := range players {
		games = games[:0]
		for j := range players {
			if j == i {
				continue
			}
			games = append(games, Game{Opponent: players[j], Score: pairScore(ranks[i], ranks[j])})
		}
		r, err := s.Update(players[i], games)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// pairScore is the score of the player ranked a against the one ranked b: a lower rank wins.
func pairScore(a, b int) float64 {
	switch {
	case a < b:
		return 1
	case a > b:
		return 0
	}
	return 0.5
}

// Display is the rating shown at a table (§5.4 agents[].rating, §15 seat.taken's rating): r
// rounded to the nearest whole point, halves away from zero.
func Display(r Rating) int {
	if r.Rating < 0 {
		return -int(-r.Rating + 0.5)
	}
	return int(r.Rating + 0.5)
}
