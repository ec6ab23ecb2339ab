package dilemma

import (
	"encoding/json"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the scripted house Contender (games.HousePlayer): it answers the commit prompt
// with cooperate, except one seed in four where it defects. Mostly-cooperating keeps the house
// from farming the 65 % betrayal share off newcomers, and the seeded defection keeps it from
// being a free mark. Any other prompt gets no answer (nil).
func (Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage {
	if p.Move != theMove {
		return nil
	}
	// splitmix64 finalizer: neighbouring seeds give independent-looking bits.
	z := seed + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	if z%4 == 0 {
		return json.RawMessage(`{"action":"defect"}`)
	}
	return json.RawMessage(`{"action":"cooperate"}`)
}
