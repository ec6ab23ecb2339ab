package werewolf

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// randomBody is a legal answer to p drawn from rnd: any offered action, a target from its list,
// and now and then a message where the action carries one (always for say).
func randomBody(p games.Prompt, rnd *rand.Rand) json.RawMessage {
	a := p.Legal[rnd.IntN(len(p.Legal))]
	var b struct {
		Targets         []int `json:"targets"`
		MaxMessageChars *int  `json:"max_message_chars"`
	}
	_ = json.Unmarshal(a.Bounds, &b)
	body := `{"action":"` + a.Name + `"`
	if len(b.Targets) > 0 {
		body += `,"target":` + strconv.Itoa(b.Targets[rnd.IntN(len(b.Targets))])
	}
	if a.Name == ActionSay || b.MaxMessageChars != nil && rnd.IntN(3) == 0 {
		body += `,"message":"I trust seat ` + strconv.Itoa(rnd.IntN(8)) + `."`
	}
	return json.RawMessage(body + "}")
}

// conformance is Werewolf under the conformance suite at n seats: seats answer at random and
// leave one prompt in six to its deadline (some seats leave). A non-public line's secret is its
// payload: a view or prompt that copied it to a seat it is not shown to fails the run. What
// each role, night action and vote may reach, and when, is held more closely by secrecy_test.go.
func conformance(n int) gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setupN(n, [32]byte{}, ""),
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			if rnd.IntN(6) == 0 {
				return nil
			}
			return randomBody(p, rnd)
		},
		Secrets: func(e games.Event) []string {
			if e.Visibility != games.Public {
				return []string{string(e.Payload)}
			}
			return nil
		},
		Seeds: [][32]byte{{1}, {2}, {3}, {4, 0xa5}},
	}
}

func TestConformance(t *testing.T) {
	for _, n := range []int{5, 6, 7, 8} {
		t.Run(strconv.Itoa(n)+"seats", func(t *testing.T) { gametest.Run(t, conformance(n)) })
	}
}

// TestConformanceHouse runs the suite with the house policy answering every prompt.
func TestConformanceHouse(t *testing.T) {
	c := conformance(7)
	c.Answer = nil
	gametest.Run(t, c)
}

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance(6)) }
