package werewolf

import (
	"encoding/json"
	"slices"
	"strconv"

	"arena/games"
)

var _ games.HousePlayer = Engine{}

// HouseAnswer is the house bot's fixed strategy (games.HousePlayer; protocol "House bots"), so
// an agent can learn it. At night a wolf kills the lowest seat it may name (a pack of house
// wolves agrees), the seer inspects the lowest seat it has not inspected yet, the doctor
// protects the lowest seat it may, a villager sleeps. In the
// discussion the seer names the first living wolf it found; everyone else passes. In the vote
// the seer votes for that wolf, a wolf for the lowest seat that is not a packmate, and the rest
// abstain. seed is not used. It reads the prompt's HouseView, or the state when the prompt came
// from elsewhere; a prompt that is not a Werewolf prompt gets nil.
func (Engine) HouseAnswer(p games.Prompt, _ uint64) json.RawMessage {
	if len(p.Legal) == 0 {
		return nil
	}
	v, ok := p.View.(HouseView)
	if !ok {
		var err error
		if v, err = houseViewOf(p.State); err != nil {
			return nil
		}
	}
	targets := map[string][]int{}
	for _, a := range p.Legal {
		var b struct {
			Targets []int `json:"targets"`
		}
		_ = json.Unmarshal(a.Bounds, &b)
		targets[a.Name] = b.Targets
	}
	pick := func(action string, skip []int) json.RawMessage {
		for _, t := range targets[action] {
			if !slices.Contains(skip, t) {
				return json.RawMessage(`{"action":"` + action + `","target":` + strconv.Itoa(t) + `}`)
			}
		}
		return nil
	}
	var out json.RawMessage
	switch {
	case v.Phase == PhaseNight && v.Role == RoleWolf:
		out = pick(ActionKill, nil)
	case v.Phase == PhaseNight && v.Role == RoleSeer:
		out = pick(ActionInspect, v.Inspected)
	case v.Phase == PhaseNight && v.Role == RoleDoctor:
		out = pick(ActionProtect, nil)
	case v.Phase == PhaseDiscussion && v.Role == RoleSeer && len(v.Wolves) > 0:
		out = json.RawMessage(`{"action":"say","message":"Seat ` + strconv.Itoa(v.Wolves[0]) + ` is a wolf: I inspected them."}`)
	case v.Phase == PhaseVote && v.Role == RoleSeer && len(v.Wolves) > 0:
		if slices.Contains(targets[ActionVote], v.Wolves[0]) {
			out = json.RawMessage(`{"action":"vote","target":` + strconv.Itoa(v.Wolves[0]) + `}`)
		}
	case v.Phase == PhaseVote && v.Role == RoleWolf:
		out = pick(ActionVote, v.Pack)
	}
	if out == nil {
		// The last legal action is the phase's quiet one: sleep, pass, abstain.
		out = json.RawMessage(`{"action":"` + p.Legal[len(p.Legal)-1].Name + `"}`)
	}
	return out
}

// houseViewOf reads a HouseView from a visible_state.
func houseViewOf(state games.Doc) (HouseView, error) {
	var st struct {
		Role        string `json:"role"`
		Phase       string `json:"phase"`
		Pack        []int  `json:"pack"`
		Inspections []struct {
			Target int  `json:"target"`
			IsWolf bool `json:"is_wolf"`
		} `json:"inspections"`
		Players []struct {
			Seat  int  `json:"seat"`
			Alive bool `json:"alive"`
		} `json:"players"`
	}
	if err := json.Unmarshal(state.Bytes(), &st); err != nil {
		return HouseView{}, err
	}
	v := HouseView{Role: st.Role, Phase: st.Phase, Pack: st.Pack}
	for _, in := range st.Inspections {
		v.Inspected = append(v.Inspected, in.Target)
		for _, pl := range st.Players {
			if in.IsWolf && pl.Seat == in.Target && pl.Alive {
				v.Wolves = append(v.Wolves, in.Target)
			}
		}
	}
	return v, nil
}
