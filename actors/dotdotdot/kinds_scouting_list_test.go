package dotdotdot

import (
	"testing"
	"time"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// TestArenaTableKindsListTheScoutingPlayed: the kinds the lobby lists carry the scouting their
// tables get (setScouting): each kind's own on the default clock (90 s, rated 60 s, badge-gated
// 30 s), and the configured agent-clock scouting wherever that is shorter; a longer configured
// one leaves each kind's own.
func TestArenaTableKindsListTheScoutingPlayed(t *testing.T) {
	want := map[string]int{}
	for _, k := range TableKinds() {
		want[k.Kind] = k.ScoutingS
	}
	if want[KindRated] != 60 || want[KindGated] != 30 || want[KindFree] != 90 {
		t.Fatalf("the catalogue's scouting %v", want)
	}
	for _, c := range []struct {
		conf time.Duration
		want func(kind string) int
	}{
		{0, func(k string) int { return want[k] }},
		{4 * time.Second, func(string) int { return 4 }},
		{45 * time.Second, func(k string) int { return min(45, want[k]) }},
		{2 * time.Minute, func(k string) int { return want[k] }},
	} {
		agent := blitz.AgentPace()
		if c.conf > 0 {
			agent = games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": c.conf}}
		}
		env := startDeskEnvPaces(t, "", nil, startDesk, deskGame{}, Paces{Agent: agent})
		for _, k := range env.a.TableKinds() {
			if k.ScoutingS != c.want(k.Kind) || k.Scouting != time.Duration(k.ScoutingS)*time.Second {
				t.Errorf("configured %v: %s lists %v (%d s), want %d s", c.conf, k.Kind, k.Scouting, k.ScoutingS, c.want(k.Kind))
			}
			spec := setScouting(actors.TableSpec{Game: walkinGame, Kind: k.Kind, Pace: env.a.pace("agent")})
			if got := spec.Pace.Step("scouting"); got != k.Scouting {
				t.Errorf("configured %v: %s lists %v, its table scouts %v", c.conf, k.Kind, k.Scouting, got)
			}
		}
	}
}
