package blitz

// houseView is what the house policy reads of a seat's §5.4 state (HouseAnswer): the seats and
// whether they are alive, the seat's unlocked collateral, budget, open commitments as payer and
// standing accusation, and the format's turns. buildPrompts hands it with each prompt
// (games.Prompt.View), from the same match state the state object is written from; a prompt
// decoded from JSON has none, and viewOf reads the same figures from its state object.
type houseView struct {
	agents     []houseAgent // shared by every seat's view of a phase: read only
	unlocked   int64        // microCCD
	budget     int64        // microCCD
	openAsPay  int          // open commitments the seat pays
	accusation int          // seat accused, 0 for none
	turns      int
}

type houseAgent struct {
	seat  int
	alive bool
}

// houseAgents is the phase's seats for houseView, in seat order as agents[] lists them.
func (m *Match) houseAgents() []houseAgent {
	out := make([]houseAgent, len(m.seats))
	for i, s := range m.seats {
		out[i] = houseAgent{seat: s.Seat.Seat, alive: s.alive}
	}
	return out
}

// houseViewOf is seat n's houseView now, as its state object says it (appendMe, sharedParts).
func (m *Match) houseViewOf(n int, agents []houseAgent) *houseView {
	v := &houseView{agents: agents, unlocked: m.unlocked(n), budget: m.seat(n).budget,
		accusation: m.seat(n).accusation, turns: m.format.Turns}
	for _, c := range m.sealed {
		if c.outcome == outcomeOpen && c.payer == n {
			v.openAsPay++
		}
	}
	return v
}

// viewOf reads a houseView from a decoded state object (a prompt with no View).
func viewOf(st stateObject, seat int) *houseView {
	v := &houseView{unlocked: st.Me.Unlocked, budget: st.Me.Budget, accusation: st.Me.Accusation,
		turns: st.Format.Turns}
	for _, a := range st.Agents {
		v.agents = append(v.agents, houseAgent{seat: a.Seat, alive: a.Alive})
	}
	for _, o := range st.Me.Open {
		if o.Payer == seat {
			v.openAsPay++
		}
	}
	return v
}
