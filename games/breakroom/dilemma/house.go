package dilemma

import (
	"encoding/json"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the house bot's fixed strategy (games.HousePlayer; protocol "House bots"):
// tit-for-tat. It cooperates in a pairing's first iteration, then repeats what its opponent
// chose in the previous one, and never talks. seed is not used: the strategy is fixed, so an
// agent can learn it. It reads the prompt's HouseView, or the state's "current" list when the
// prompt came from elsewhere; a prompt that is not a Dilemma choice gets nil.
func (Engine) HouseAnswer(p games.Prompt, _ uint64) json.RawMessage {
	if len(p.Legal) == 0 {
		return nil
	}
	last := byte('C')
	if v, ok := p.View.(HouseView); ok {
		if n := len(v.Them); n > 0 {
			last = v.Them[n-1]
		}
	} else {
		var st struct {
			Current []struct {
				Them string `json:"them"`
			} `json:"current"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			return nil
		}
		if n := len(st.Current); n > 0 && st.Current[n-1].Them == "D" {
			last = 'D'
		}
	}
	if last == 'D' {
		return json.RawMessage(`{"action":"defect"}`)
	}
	return json.RawMessage(`{"action":"cooperate"}`)
}
