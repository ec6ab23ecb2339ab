package diplomacy

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// conformance is the contract suite's case: short games (last_year 1902, one press round) where
// every seat presses at random (private sends, broadcasts, done) and gives random door-legal
// orders; the private texts are the secrets.
func conformance() gametest.Case {
	return gametest.Case{
		Engine: Engine{},
		Setup:  setup(seq0(), `{"last_year":1902,"press_rounds":1,"turn_deadline_ms":1000,"orders_deadline_ms":2000,"away_deadline_ms":500}`),
		Answer: func(p games.Prompt, r *rand.Rand) json.RawMessage {
			v, ok := p.View.(HouseView)
			if !ok || r.IntN(12) == 0 {
				return nil // now and then a timeout
			}
			if v.Step == stepPress {
				var b struct {
					Recipients []int `json:"recipients"`
				}
				for _, a := range p.Legal {
					if a.Name == ActionSend {
						_ = json.Unmarshal(a.Bounds, &b)
					}
				}
				text := fmt.Sprintf("secret press %d", r.Uint64())
				switch k := r.IntN(3); {
				case k == 0 && len(b.Recipients) > 0:
					out, _ := json.Marshal(map[string]any{"action": "send", "recipient": b.Recipients[r.IntN(len(b.Recipients))], "message": text})
					return out
				case k == 1:
					out, _ := json.Marshal(map[string]any{"action": "broadcast", "message": "open " + text})
					return out
				}
				return json.RawMessage(`{"action":"done"}`)
			}
			out, _ := json.Marshal(map[string]any{"action": "orders", "orders": randomSet(r, v.State, v.Power)})
			return out
		},
		Secrets: func(e games.Event) []string {
			if e.Type != "message_private" {
				return nil
			}
			var m struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(e.Payload, &m)
			b, _ := json.Marshal(m.Text)
			return []string{string(b)}
		},
	}
}

// TestConformance runs the games contract suite (determinism, replay, refusals change nothing,
// secrecy of private press, numbering, abandon, hostile inputs).
func TestConformance(t *testing.T) { gametest.Run(t, conformance()) }

// FuzzMatch feeds the match inputs of every shape (the contract suite's fuzz): it never panics
// and a refusal changes nothing.
func FuzzMatch(f *testing.F) { gametest.Fuzz(f, conformance()) }
