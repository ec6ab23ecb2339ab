package claims

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"arena/games"
	"arena/games/gametest"
)

// randomAnswer is a legal body for p drawn from rnd, or nil (left to the deadline) one time in
// six: messages, passes, bluffing and truthful claims, asks up to the valuation, escalation.
func randomAnswer(p games.Prompt, rnd *rand.Rand) json.RawMessage {
	if rnd.IntN(6) == 0 {
		return nil
	}
	var st struct {
		Valuation int64 `json:"valuation_bps"`
	}
	if json.Unmarshal(p.State.Bytes(), &st) != nil {
		return nil
	}
	switch p.Move.Phase {
	case phaseMessage:
		if rnd.IntN(2) == 0 {
			return json.RawMessage(`{"action":"pass"}`)
		}
		return json.RawMessage(`{"action":"message","text":"note ` + strconv.Itoa(rnd.IntN(1_000_000)) + `"}`)
	case phaseClaim:
		c := st.Valuation
		if rnd.IntN(2) == 0 {
			c = rnd.Int64N(10001)
		}
		return json.RawMessage(`{"action":"claim","claim_bps":` + strconv.FormatInt(c, 10) + `}`)
	case phaseOffer:
		return json.RawMessage(`{"action":"offer","ask_bps":` + strconv.FormatInt(rnd.Int64N(st.Valuation+1), 10) +
			`,"escalate":` + strconv.Itoa(rnd.IntN(MaxSteps+1)) + `}`)
	}
	return nil
}

// conformance is Game I under the conformance suite. Its secrets are each seat's valuation and
// sealed offer (as the private events spell them), which no public event or other seat's view
// may hold before the first round_revealed; TestSecrecyEveryRound checks every round.
func conformance() gametest.Case {
	return gametest.Case{
		Engine:  Engine{},
		Setup:   setup(1_000_000),
		Answer:  randomAnswer,
		Secrets: secrets,
		Relayed: func(e games.Event) []int { // a message reaches its addressee when the step closes
			var p struct{ Seat string }
			if e.Type != "message_recorded" || json.Unmarshal(e.Payload, &p) != nil {
				return nil
			}
			if p.Seat == "A" {
				return []int{2}
			}
			return []int{1}
		},
		Reveal: "round_revealed",
		Stakes: true,
		Seeds:  [][32]byte{{1}, {2}, {3}, {4}, {5}, {6}},
	}
}

// secrets are the sealed values a private event carries, as JSON members.
func secrets(e games.Event) []string {
	var p struct {
		Valuation *int64 `json:"valuation_bps"`
		Ask       *int64 `json:"ask_bps"`
		Text      string `json:"text"`
	}
	if json.Unmarshal(e.Payload, &p) != nil {
		return nil
	}
	switch e.Type {
	case "valuation_dealt":
		return []string{`"valuation_bps":` + strconv.FormatInt(*p.Valuation, 10)}
	case "offer_recorded":
		return []string{`"ask_bps":` + strconv.FormatInt(*p.Ask, 10)}
	case "message_recorded":
		return []string{p.Text}
	}
	return nil
}

func TestConformance(t *testing.T) { gametest.Run(t, conformance()) }

func FuzzConformance(f *testing.F) { gametest.Fuzz(f, conformance()) }
