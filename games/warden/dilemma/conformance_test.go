package dilemma

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is Game II under the conformance suite: a stake of 1 unit, seats answering
// cooperate or defect at random; a seat's sealed choice is its secret until choices_revealed.
func conformance() gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setup(1_000_000),
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			if rnd.IntN(5) == 0 {
				return nil // left to the deadline: defaults to COOPERATE
			}
			return json.RawMessage(`{"action":"` + p.Legal[rnd.IntN(len(p.Legal))].Name + `"}`)
		},
		Secrets: func(e games.Event) []string {
			var p struct{ Seat, Choice string }
			if e.Type != "commit_recorded" || json.Unmarshal(e.Payload, &p) != nil {
				return nil
			}
			return []string{`"` + p.Seat + `":"` + p.Choice + `"`}
		},
		Reveal: "choices_revealed",
		Stakes: true,
		Seeds:  [][32]byte{{1}, {2}, {3}, {4}, {5}, {6}},
	}
}

func TestConformance(t *testing.T) { gametest.Run(t, conformance()) }

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance()) }
