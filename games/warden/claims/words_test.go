package claims

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// TestNarrate: claims with a missing one, a revealed round and the end read as expected.
func TestNarrate(t *testing.T) {
	names := map[int]string{1: "Ada"}
	for typ, want := range map[string]struct{ payload, line string }{
		"claims_revealed": {`{"round":4,"claims":{"A":4300,"B":null}}`, "Round 4 claims: seat A (Ada) claims 43%, seat B claims nothing."},
		"round_revealed": {`{"round":3,"valuations":{"A":5500,"B":6100},"asks":{"A":5500,"B":6100},"pot":400000,"overshoot":true,"pay":{"A":0,"B":244000}}`,
			"Round 3 revealed: valuations 55% / 61%, asks 55% / 61% of a 400000 pot; the asks overshot; seat A (Ada) is paid 0, seat B 244000."},
		"match_finished": {`{"seats":{"A":{"result":"loss"},"B":{"result":"win"}}}`, "The match is over: seat B wins."},
	} {
		if got := (Engine{}).Narrate(games.Event{Type: typ, Payload: json.RawMessage(want.payload)}, names); got != want.line {
			t.Errorf("%s: %q", typ, got)
		}
	}
	if f := (Engine{}).DescribeAnswers(games.Prompt{Move: games.Move{Turn: 1, Phase: phaseMessage}}); len(f) != 2 || f[1].Name != ActionPass {
		t.Errorf("message forms %+v", f)
	}
}
