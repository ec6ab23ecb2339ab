package claims

import (
	"encoding/json"
	"strconv"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the scripted house Contender (games.HousePlayer): it never messages, claims
// its valuation truthfully, and asks min(valuation, 50 %) without escalating, so its asks never
// overshoot against an honest half and its claim never makes it the further deviator by much.
// seed is unused: the house plays the same every time. Any other prompt gets nil.
func (Engine) HouseAnswer(p games.Prompt, _ uint64) json.RawMessage {
	var st struct {
		Valuation *int64 `json:"valuation_bps"`
	}
	if json.Unmarshal(p.State.Bytes(), &st) != nil || st.Valuation == nil {
		return nil
	}
	v := *st.Valuation
	switch p.Move.Phase {
	case phaseMessage:
		return json.RawMessage(`{"action":"pass"}`)
	case phaseClaim:
		return json.RawMessage(`{"action":"claim","claim_bps":` + strconv.FormatInt(v, 10) + `}`)
	case phaseOffer:
		return json.RawMessage(`{"action":"offer","ask_bps":` + strconv.FormatInt(min(v, 5000), 10) + `,"escalate":0}`)
	}
	return nil
}
