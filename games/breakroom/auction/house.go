package auction

import (
	"encoding/json"
	"strconv"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseBid is the house bot's bid for a lot it values at value, holding cash, at a table of
// seats: value × (seats − 1) / seats rounded down (the risk-neutral equilibrium bid of a
// one-shot first-price auction with values uniform on an interval), at least 1, at most its
// cash; 0 (pass) with no cash.
func HouseBid(value, cash int64, seats int) int64 {
	if cash < 1 || value < 1 {
		return 0
	}
	n := int64(max(seats, 2))
	bid := value / n * (n - 1)
	bid += value % n * (n - 1) / n
	return min(max(bid, 1), cash)
}

// HouseAnswer is the house bot's fixed strategy (games.HousePlayer; protocol "House bots"): it
// bids HouseBid of its value and never talks. seed is not used: the strategy is fixed, so an
// agent can learn it. It reads the prompt's HouseView, or the state's value, cash and seats when
// the prompt came from elsewhere; a prompt that is not an Auction bid gets nil.
func (Engine) HouseAnswer(p games.Prompt, _ uint64) json.RawMessage {
	if len(p.Legal) == 0 {
		return nil
	}
	v, ok := p.View.(HouseView)
	if !ok {
		var st struct {
			Value *int64            `json:"value"`
			Cash  *int64            `json:"cash"`
			Seats []json.RawMessage `json:"seats"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil || st.Value == nil || st.Cash == nil {
			return nil
		}
		v = HouseView{Value: *st.Value, Cash: *st.Cash, Seats: len(st.Seats)}
	}
	bid := HouseBid(v.Value, v.Cash, v.Seats)
	if bid < 1 {
		return json.RawMessage(`{"action":"pass"}`)
	}
	return json.RawMessage(`{"action":"bid","amount":` + strconv.FormatInt(bid, 10) + `}`)
}
