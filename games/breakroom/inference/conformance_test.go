package inference

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is Inference under the conformance suite at n seats: seats play any legal move,
// talk now and then, and leave one prompt in six to its deadline (some seats reach three
// strikes and sit out). A dealt value's secret is its deal_private payload: a public line, a
// view or a prompt that copied it to another seat fails the run (the value alone, a small
// number, is held more closely by TestInvariants and secrecy_test.go).
func conformance(n int) gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setupN(n, [32]byte{}, [32]byte{7}, `{"rounds":8}`),
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			switch rnd.IntN(6) {
			case 0:
				return nil
			case 1:
				body := randomLegal(p, rnd)
				body["message"] = "I never bluff."
				b, _ := json.Marshal(body)
				return b
			}
			b, _ := json.Marshal(randomLegal(p, rnd))
			return b
		},
		Secrets: func(e games.Event) []string {
			if e.Type == "deal_private" {
				return []string{string(e.Payload)}
			}
			return nil
		},
		Seeds: [][32]byte{{1}, {2}, {3}, {4, 0xa5}},
	}
}

func TestConformance(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		t.Run(string(rune('0'+n))+"seats", func(t *testing.T) { gametest.Run(t, conformance(n)) })
	}
}

// TestConformanceHouse runs the suite with the house policy answering every prompt.
func TestConformanceHouse(t *testing.T) {
	c := conformance(6)
	c.Answer = nil
	gametest.Run(t, c)
}

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance(4)) }
