package dilemma

import (
	"testing"
	"time"

	"arena/games"
)

// TestShortTurnCapsAway: a pace whose turn is shorter than the away deadline and that names no
// away deadline caps it at the turn's (a bench's or a compressed clock's Move); one that names
// both keeps both, and an away longer than the turn is still refused.
func TestShortTurnCapsAway(t *testing.T) {
	s := setupN(4, [32]byte{1}, "")
	for name, tc := range map[string]struct {
		pace       games.Pace
		turn, away int64
		refused    bool
	}{
		"move only":        {games.Pace{Move: 40 * time.Millisecond}, 40, 40, false},
		"turn only":        {games.Pace{Steps: map[string]time.Duration{"turn": 800 * time.Millisecond}}, 800, 800, false},
		"turn above away":  {games.Pace{Steps: map[string]time.Duration{"turn": 5 * time.Second}}, 5000, 3000, false},
		"both":             {games.Pace{Steps: map[string]time.Duration{"turn": time.Second, "away": 200 * time.Millisecond}}, 1000, 200, false},
		"away beyond turn": {games.Pace{Steps: map[string]time.Duration{"turn": time.Second, "away": 2 * time.Second}}, 0, 0, true},
	} {
		s.Pace = tc.pace
		c, err := configOf(s)
		if tc.refused {
			if err == nil {
				t.Errorf("%s: taken: %+v", name, c)
			}
			continue
		}
		if err != nil || c.TurnDeadlineMS != tc.turn || c.AwayDeadlineMS != tc.away {
			t.Errorf("%s: turn %d away %d (%v), want %d and %d", name, c.TurnDeadlineMS, c.AwayDeadlineMS, err, tc.turn, tc.away)
		}
	}
}
