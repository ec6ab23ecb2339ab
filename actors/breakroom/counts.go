package breakroom

import (
	"context"

	"arena/games"
)

// Counts is game's live figures for GET /v0/games ("Choosing a game"): the agents waiting in its
// queue and the agents (house bots and the bartender aside) in its running matches. An unknown
// game is unknown_game; a lobby that does not answer is the ask's error. The doors ask on every
// join, so the playing figure is a counter kept beside the set, not a walk over it.
func (r *Room) Counts(ctx context.Context, game string) (waiting, playing int, err error) {
	if _, ok := r.games[game]; !ok {
		return 0, 0, games.Errorf("unknown_game", "unknown game %q", game)
	}
	if r.lobby == nil {
		return 0, 0, ErrClosed
	}
	in, err := r.lobby.Info(ctx, game)
	if err != nil {
		return 0, 0, err
	}
	r.mu.Lock()
	playing = r.nPlay[game]
	r.mu.Unlock()
	return in.Waiting, playing, nil
}
