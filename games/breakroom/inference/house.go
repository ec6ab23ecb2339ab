package inference

import (
	"encoding/json"
	"strconv"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the house bot's fixed strategy (games.HousePlayer; protocol "House bots"),
// by its value's place in the deck: in the top fifth it raises the least it may (or calls, or
// checks, when it may not raise); in the top three fifths it checks when free and calls
// otherwise; below that it checks when free and folds otherwise. It never talks. seed is not
// used: the strategy is fixed, so an agent can learn it. It reads the prompt's HouseView, or
// the state's value and the deck size 100 when the prompt came from elsewhere; a prompt with no
// legal actions gets nil.
func (Engine) HouseAnswer(p games.Prompt, _ uint64) json.RawMessage {
	if len(p.Legal) == 0 {
		return nil
	}
	value, deck := 0, DefaultConfig().DeckSize
	if v, ok := p.View.(HouseView); ok {
		value, deck = v.Value, v.DeckSize
	} else {
		var st struct {
			Value int `json:"value"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			return nil
		}
		value = st.Value
	}
	has := map[string]json.RawMessage{}
	for _, a := range p.Legal {
		has[a.Name] = a.Bounds
	}
	pick := func(names ...string) json.RawMessage {
		for _, n := range names {
			b, ok := has[n]
			if !ok {
				continue
			}
			if n == ActionRaise {
				var bd struct {
					Min int64 `json:"min"`
				}
				_ = json.Unmarshal(b, &bd)
				return json.RawMessage(`{"action":"raise","amount":` + strconv.FormatInt(max(bd.Min, 1), 10) + `}`)
			}
			return json.RawMessage(`{"action":"` + n + `"}`)
		}
		return nil
	}
	switch {
	case value*5 > deck*4:
		return pick(ActionRaise, ActionCall, ActionCheck)
	case value*5 > deck*2:
		return pick(ActionCheck, ActionCall)
	}
	return pick(ActionCheck, ActionFold)
}
