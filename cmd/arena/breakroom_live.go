package main

import (
	"context"

	"arena/actors/breakroom"
	"arena/games"
	"arena/transport/breakroom/live"
)

// roomLive is *breakroom.Room as the live reads call it (live.Backend): the live figures (each
// game's counts and running tables, from one Room.Live: one read of the room actor, so the counts
// and the list agree), the change signal, a match's spectator feed (Room.Follow) and each game's
// words.
type roomLive struct {
	room  *breakroom.Room
	reads roomReads
}

var _ live.Backend = roomLive{}

func (d roomLive) Live(ctx context.Context) (live.Figures, error) {
	lives, err := d.room.Live(ctx)
	if err != nil {
		return live.Figures{}, err
	}
	var f live.Figures
	for _, l := range lives {
		f.Games = append(f.Games, live.Game{ID: l.Game.ID,
			Counts: live.Counts{Waiting: l.Waiting, Playing: l.Playing, House: l.House, Tables: l.Tables}})
		for _, t := range l.Running {
			f.Tables = append(f.Tables, live.Table{MatchID: t.MatchID, Game: l.Game.ID, Tier: t.Tier, Agents: t.Agents,
				House: t.House, StartedAt: t.Started})
		}
	}
	return f, nil
}

func (d roomLive) LiveChanged() <-chan struct{} { return d.room.LiveChanged() }

func (d roomLive) Follow(ctx context.Context, id string, buffer int) (live.Feed, error) {
	f, err := d.room.Follow(ctx, id, buffer)
	if err != nil {
		return live.Feed{}, err
	}
	return live.Feed{Backlog: f.Backlog, C: f.C, Dropped: f.Dropped, Close: f.Close}, nil
}

func (d roomLive) Narrator(game string) games.Narrator { return d.reads.Narrator(game) }
