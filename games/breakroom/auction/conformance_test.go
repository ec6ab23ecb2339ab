package auction

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is the Auction under the conformance suite at n seats: seats bid at random within
// their bounds or pass, talk now and then, and leave one prompt in six to its deadline (some
// seats reach three strikes and sit out). A sealed line's secret is its payload (a value, a bid,
// a pass, a timeout): a view or prompt that copied it to a seat it is not shown to fails the
// run. What each value and bid may and may not reach, and when, is held more closely by the
// non-interference test (secrecy_test.go).
func conformance(n int) gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setupN(n, [32]byte{}, `{"lots":6}`),
		Answer: func(p games.Prompt, rnd *rand.Rand) json.RawMessage {
			if rnd.IntN(6) == 0 {
				return nil
			}
			a := p.Legal[rnd.IntN(len(p.Legal))]
			body := `{"action":"` + a.Name + `"`
			if a.Name == ActionBid {
				var b struct{ Min, Max int64 }
				_ = json.Unmarshal(a.Bounds, &b)
				body += `,"amount":` + strconv.FormatInt(b.Min+rnd.Int64N(min(b.Max-b.Min+1, 100)), 10)
			}
			if rnd.IntN(5) == 0 {
				body += `,"message":"I never overpay."`
			}
			return json.RawMessage(body + "}")
		},
		Secrets: func(e games.Event) []string {
			switch e.Type {
			case "deal_private", "action_private", "timeout_private":
				return []string{string(e.Payload)}
			}
			return nil
		},
		Seeds: [][32]byte{{1}, {2}, {3}, {4, 0xa5}},
	}
}

func TestConformance(t *testing.T) {
	for _, n := range []int{3, 5, 8} {
		t.Run(strconv.Itoa(n)+"seats", func(t *testing.T) { gametest.Run(t, conformance(n)) })
	}
}

// TestConformanceHouse runs the suite with the house policy answering every prompt.
func TestConformanceHouse(t *testing.T) {
	c := conformance(5)
	c.Answer = nil
	gametest.Run(t, c)
}

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance(4)) }
