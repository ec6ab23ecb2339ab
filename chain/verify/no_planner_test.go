package verify

import (
	"strings"
	"testing"

	"arena/games"
)

// plainGame is an engine that plans no anchors and opens nothing (a game whose rounds are not
// anchored).
type plainGame struct{}

func (plainGame) Manifest() games.Manifest {
	return games.Manifest{ID: "plain", Formats: []games.Format{{Name: "x", MinSeats: 1, MaxSeats: 1}}}
}
func (plainGame) New(games.Setup, games.Keyring) (games.Match, error) { return nil, nil }

// A round checked with a game that anchors nothing fails its anchor and reveal lines, each
// naming the game and what it lacks; with no game at all, each says none was given.
func TestCheckNamesAGameThatPlansNoAnchors(t *testing.T) {
	tr, err := Parse([]byte(`[{"seq":1,"round":"T-1","type":"match_started","visibility":"public","payload":{"game":"plain"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	out := lines(Check(t.Context(), tr, Options{Game: plainGame{}}))
	for _, want := range []string{"ok   events: 1 events of T-1",
		"FAIL anchors: game plain plans no anchors (it is no games.AnchorPlanner)",
		"FAIL open-round anchor: game plain opens no commitment at its reveal (it is no games.Opener)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	out = lines(Check(t.Context(), tr, Options{}))
	for _, want := range []string{"FAIL anchors: no game given that plans the round's anchors (Options.Game)",
		"FAIL open-round anchor: no game given to recompute the reveal (Options.Game)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
