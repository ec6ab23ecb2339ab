package main

import (
	"testing"
	"time"

	"arena/transport/breakroom/live"
)

// Every member's figures are summed game by game (games this member lacks after its own, in the
// order first seen) and every member's tables are listed with their start instants.
func TestClusterLiveMergesMembersFigures(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)
	own := live.Figures{
		Games:  []live.Game{{ID: "dilemma", Counts: live.Counts{Waiting: 1, Playing: 3, Tables: 1}}},
		Tables: []live.Table{{MatchID: "m1", Game: "dilemma", Tier: "t", Agents: 3, StartedAt: t0}},
	}
	other := liveWire{
		Games: []live.Game{{ID: "auction", Counts: live.Counts{Playing: 2, House: 1, Tables: 1}},
			{ID: "dilemma", Counts: live.Counts{Waiting: 2}}},
		Tables: []liveTable{{Table: live.Table{MatchID: "m2", Game: "auction", Agents: 2, House: 1}, Started: t0.Add(time.Minute)}},
	}
	f := mergeFigures(own, other, liveWire{})
	if len(f.Games) != 2 || f.Games[0] != (live.Game{ID: "dilemma", Counts: live.Counts{Waiting: 3, Playing: 3, Tables: 1}}) ||
		f.Games[1] != (live.Game{ID: "auction", Counts: live.Counts{Playing: 2, House: 1, Tables: 1}}) {
		t.Fatalf("games %+v", f.Games)
	}
	if len(f.Tables) != 2 || f.Tables[0].MatchID != "m1" || f.Tables[1].MatchID != "m2" || !f.Tables[1].StartedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("tables %+v", f.Tables)
	}
	if own.Games[0].Waiting != 1 || len(own.Tables) != 1 {
		t.Fatalf("the member's own figures changed: %+v", own)
	}
	// Through the wire form and back, a member's figures are what it had.
	back := mergeFigures(live.Figures{}, wireOf(own))
	if len(back.Games) != 1 || back.Games[0] != own.Games[0] || len(back.Tables) != 1 || back.Tables[0] != own.Tables[0] {
		t.Fatalf("round trip %+v", back)
	}
}
