package dilemma

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is the Dilemma under the conformance suite at n seats: seats choose at random,
// talk now and then, and leave one prompt in six to its deadline (some seats reach three strikes
// and sit out). A sealed line's secret is its payload: a view or prompt that copied it to a seat
// it is not shown to fails the run. What each choice may and may not reach, and when, is held
// more closely by the non-interference test (secrecy_test.go).
func conformance(n int) gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setupN(n, [32]byte{}, `{"stop_one_in":3,"max_iterations":6}`),
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			switch rnd.IntN(6) {
			case 0:
				return nil
			case 1:
				return json.RawMessage(`{"action":"` + p.Legal[rnd.IntN(len(p.Legal))].Name + `","message":"I always cooperate."}`)
			}
			return json.RawMessage(`{"action":"` + p.Legal[rnd.IntN(len(p.Legal))].Name + `"}`)
		},
		Secrets: func(e games.Event) []string {
			switch e.Type {
			case "action_private", "timeout_private", "iteration_private":
				return []string{string(e.Payload)}
			}
			return nil
		},
		Seeds: [][32]byte{{1}, {2}, {3}, {4, 0xa5}},
	}
}

func TestConformance(t *testing.T) {
	for _, n := range []int{3, 4, 5, 6} {
		t.Run(string(rune('0'+n))+"seats", func(t *testing.T) { gametest.Run(t, conformance(n)) })
	}
}

// TestConformanceHouse runs the suite with the house policy answering every prompt.
func TestConformanceHouse(t *testing.T) {
	c := conformance(4)
	c.Answer = nil
	gametest.Run(t, c)
}

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance(4)) }
