package dotdotdot

import (
	"encoding/json"
	"fmt"
	"time"

	"arena/games"
	"arena/games/blitz"
)

// deskGame is a small stand-in for the Blitz engine, registered as "blitz", so the desk's tests
// exercise the real table, round, seat and mailbox actors without depending on the rules: a
// scouting move, then per turn the format's talk exchanges and a commit. Every seat is prompted
// for every move; a phase closes at its deadline or, with Pace.CloseEarly, once every seat
// answered. A seat's payout is its entry plus 1 CCD per move it answered with a non-empty
// "say", less 1 CCD per move it left unanswered; the reveal names the mole and the accusations.
type deskGame struct{ briefs bool }

type deskGameState struct {
	Setup    games.Setup       `json:"setup"`
	Moves    []games.Move      `json:"moves"`
	Idx      int               `json:"idx"` // -1 before the first Advance
	Deadline time.Time         `json:"deadline"`
	Answered map[int]bool      `json:"answered"`
	Said     map[int]int       `json:"said"`
	Missed   map[int]int       `json:"missed"`
	Accused  map[int]int       `json:"accused"`
	Bodies   map[string]string `json:"bodies"` // "seat/turn/phase/exchange" → body, for tests
	Seq      int64             `json:"seq"`
	Done     bool              `json:"done"`
	Result   *games.Result     `json:"result,omitempty"`
}

type deskMatch struct{ st deskGameState }

func (deskGame) Manifest() games.Manifest {
	return games.Manifest{ID: "blitz", Name: "desk test game", Version: 1, Formats: []games.Format{
		{Name: "blitz", MinSeats: 6, MaxSeats: 8, Turns: 2, Exchanges: 2},
		{Name: "short", MinSeats: 3, MaxSeats: 3, Turns: 1, Exchanges: 1},
	}}
}

func (g deskGame) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	f, ok := games.FormatOf(g.Manifest(), s.Format)
	if !ok || len(s.Seats) < f.MinSeats || len(s.Seats) > f.MaxSeats {
		return nil, games.Errorf(games.CodeBadRequest, "bad format or seats")
	}
	moves := []games.Move{{Turn: 0, Phase: "scouting"}}
	for t := 1; t <= f.Turns; t++ {
		for x := 1; x <= f.Exchanges; x++ {
			moves = append(moves, games.Move{Turn: t, Phase: "talk", Exchange: x})
		}
		moves = append(moves, games.Move{Turn: t, Phase: "commit"})
	}
	return &deskMatch{st: deskGameState{Setup: s, Moves: moves, Idx: -1, Deadline: s.Start,
		Answered: map[int]bool{}, Said: map[int]int{}, Missed: map[int]int{}, Accused: map[int]int{},
		Bodies: map[string]string{}}}, nil
}

// Brief implements games.Briefer: the move in a line and an answer with the echo filled in.
func (deskGame) Brief(p games.Prompt) (string, json.RawMessage) {
	body := map[string]any{"turn": p.Move.Turn, "phase": p.Move.Phase, "say": ""}
	if p.Move.Exchange > 0 {
		body["exchange"] = p.Move.Exchange
	}
	b, _ := json.Marshal(body)
	return fmt.Sprintf("seat %d: %s of turn %d", p.Seat, p.Move.Phase, p.Move.Turn), b
}

// HouseAnswer implements games.HousePlayer: a house seat always says something.
// Stats implements games.Statser as Blitz does: its reveal and accusation.resolved lines are
// Blitz's shape.
func (deskGame) Stats(r games.Result, evs []games.Event) map[int]map[string]float64 {
	return blitz.NewEngine(blitz.DefaultFees()).Stats(r, evs)
}

func (deskGame) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"say":"house %d"}`, seed%100))
}

func (m *deskMatch) cur() games.Move { return m.st.Moves[m.st.Idx] }

func (m *deskMatch) duration(mv games.Move) time.Duration {
	p := m.st.Setup.Pace
	switch mv.Phase {
	case "scouting":
		return p.Step("scouting")
	case "talk":
		return p.Step("talk")
	}
	return p.Step("commit")
}

func (m *deskMatch) event(now time.Time, typ string, payload any) games.Event {
	m.st.Seq++
	b, _ := json.Marshal(payload)
	mv := games.Move{}
	if m.st.Idx >= 0 && m.st.Idx < len(m.st.Moves) {
		mv = m.cur()
	}
	return games.Event{Seq: m.st.Seq, Round: m.st.Setup.Round, Turn: mv.Turn, Phase: mv.Phase,
		At: now.UTC().Format("2006-01-02T15:04:05.000Z"), Type: typ, Visibility: "public", Payload: b}
}

// next closes the open move (if any) and opens the following one, or ends the round.
func (m *deskMatch) next(now time.Time, step *games.Step) {
	if m.st.Idx >= 0 {
		for _, s := range m.st.Setup.Seats {
			if !m.st.Answered[s.Seat] {
				m.st.Missed[s.Seat]++
			}
		}
	}
	m.st.Idx++
	m.st.Answered = map[int]bool{}
	if m.st.Idx >= len(m.st.Moves) {
		m.finish(now, step)
		return
	}
	m.st.Deadline = now.Add(m.duration(m.cur()))
	step.Events = append(step.Events, m.event(now, "phase.started", m.cur()))
	step.Prompts = append(step.Prompts, m.Prompts()...)
}

func (m *deskMatch) finish(now time.Time, step *games.Step) {
	m.st.Done = true
	m.st.Idx = len(m.st.Moves) - 1
	res := games.Result{Payouts: map[int]int64{}, SeedHash: m.SeedHash()}
	mole := 2
	var opts struct {
		Mole int `json:"mole"`
	}
	if len(m.st.Setup.Options) > 0 && json.Unmarshal(m.st.Setup.Options, &opts) == nil && opts.Mole > 0 {
		mole = opts.Mole
	}
	for _, s := range m.st.Setup.Seats {
		res.Payouts[s.Seat] = s.Entry + int64(m.st.Said[s.Seat])*1_000_000 - int64(m.st.Missed[s.Seat])*1_000_000
		res.Standings = append(res.Standings, games.Standing{Seat: s.Seat, Rank: len(res.Standings) + 1})
		if t, ok := m.st.Accused[s.Seat]; ok {
			step.Events = append(step.Events, m.event(now, "accusation.resolved",
				map[string]any{"seat": s.Seat, "on": t, "correct": t == mole, "amount": 1}))
		}
	}
	res.Reveal, _ = json.Marshal(map[string]any{"mole": mole, "rungs": []int{1, 2}})
	m.st.Result = &res
	step.Events = append(step.Events, m.event(now, "round.revealed", map[string]int{"mole": mole}))
}

func (m *deskMatch) Act(now time.Time, in games.Input) (games.Step, error) {
	var step games.Step
	if m.st.Done {
		return step, games.Errorf(games.CodeRoundOver, "over")
	}
	switch in.Kind {
	case "answer":
		if m.st.Idx < 0 || in.Move != m.cur() || m.st.Answered[in.Seat] || now.After(m.st.Deadline) {
			return step, games.Errorf(games.CodeStale, "not the open move")
		}
		var body struct {
			Say string `json:"say"`
		}
		if err := json.Unmarshal(in.Body, &body); err != nil {
			return step, games.Errorf(games.CodeBadRequest, "body: %v", err)
		}
		if body.Say == "refuse me" {
			return step, games.Errorf("bad_condition", "refused for the test")
		}
		m.st.Answered[in.Seat] = true
		if body.Say != "" {
			m.st.Said[in.Seat]++
		}
		m.st.Bodies[fmt.Sprintf("%d/%d/%s/%d", in.Seat, in.Move.Turn, in.Move.Phase, in.Move.Exchange)] = string(in.Body)
		step.Events = append(step.Events, m.event(now, "answered", map[string]int{"seat": in.Seat}))
		step.Reply = json.RawMessage(`{"dropped":[]}`)
		if m.st.Setup.Pace.CloseEarly && len(m.st.Answered) == len(m.st.Setup.Seats) {
			m.next(now, &step)
		}
		return step, nil
	case "accuse":
		var body struct {
			Seat int `json:"seat"`
		}
		if json.Unmarshal(in.Body, &body) != nil || body.Seat < 1 || body.Seat > len(m.st.Setup.Seats) {
			return step, games.Errorf("bad_target", "no such seat")
		}
		m.st.Accused[in.Seat] = body.Seat
		step.Reply = json.RawMessage(`{}`)
		return step, nil
	case "call", "veto":
		return step, games.Errorf("not_now", "not in this test game")
	}
	return step, games.Errorf(games.CodeBadRequest, "kind %q", in.Kind)
}

func (m *deskMatch) Advance(now time.Time) games.Step {
	var step games.Step
	for !m.st.Done && !now.Before(m.st.Deadline) {
		m.next(m.st.Deadline, &step)
	}
	return step
}

func (m *deskMatch) Deadline() (time.Time, bool) { return m.st.Deadline, !m.st.Done }

func (m *deskMatch) Prompts() []games.Prompt {
	if m.st.Done || m.st.Idx < 0 {
		return nil
	}
	var out []games.Prompt
	for _, s := range m.st.Setup.Seats {
		if m.st.Answered[s.Seat] {
			continue
		}
		out = append(out, games.Prompt{Seat: s.Seat, Move: m.cur(), Deadline: m.st.Deadline,
			Legal: games.Actions("say"), State: games.RawDoc([]byte(`{}`))})
	}
	return out
}

func (m *deskMatch) SeedHash() string { return fmt.Sprintf("sha256:%x", m.st.Setup.Seed[:4]) }

func (m *deskMatch) Result() (games.Result, bool) {
	if m.st.Result == nil {
		return games.Result{}, false
	}
	return *m.st.Result, true
}

// View is the same empty state for every viewer: the desk game hides nothing.
func (m *deskMatch) View(int) games.Doc { return games.RawDoc([]byte(`{}`)) }

// Abandon ends the round with nothing paid: the result holds the entries back.
func (m *deskMatch) Abandon(now time.Time, reason string) games.Step {
	if m.st.Done {
		return games.Step{}
	}
	m.st.Done = true
	res := games.Result{Payouts: map[int]int64{}, SeedHash: m.SeedHash(), Abandoned: reason}
	for _, s := range m.st.Setup.Seats {
		res.Payouts[s.Seat] = s.Entry
	}
	m.st.Result = &res
	return games.Step{Events: []games.Event{m.event(now, "round.abandoned", map[string]string{"reason": reason})}}
}
