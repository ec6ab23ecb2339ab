package blitz

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"arena/games"
)

// DescribeState is the table in words from a §5.4 state object (games.Describer): the seats
// (alive, dark, the collateral bar) with the seat's own marked, its open promises and its
// standing accusation. "" for a state it cannot read.
func (e *Engine) DescribeState(state games.Doc, seat int) string { return tableLine(state, seat) }

// DescribeAnswers is how a seat answers each phase (games.Describer), through the chat seat's
// tools (§4.5): on talk, the lines of the exchange (talk) or silence (pass); on commit, the
// promises (commit) or none (pass); on scouting and any other phase, pass once the table is read.
// The exchange is named wherever the move has one.
func (e *Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	m := p.Move
	switch m.Phase {
	case "talk":
		return []games.AnswerForm{
			{Name: "talk", Fields: fmt.Sprintf(`"exchange": %d, "messages": [{"text": "...", "to": <seat, for a private line>, "tone": "offer"}], "accusation": <seat, optional>`, m.Exchange)},
			{Name: "pass", Fields: fmt.Sprintf(`"phase": "talk", "exchange": %d`, m.Exchange), Note: " to say nothing"},
		}
	case "commit":
		return []games.AnswerForm{
			{Name: "commit", Fields: `"commitments": [{"payee": <seat>, "chips": <whole CCD>, "due": <turn>, "condition": {"always": true}}], "accusation": <seat, optional>`},
			{Name: "pass", Fields: `"phase": "commit"`, Note: " to promise nothing"},
		}
	}
	f := fmt.Sprintf(`"phase": %q`, m.Phase)
	if m.Exchange > 0 {
		f += fmt.Sprintf(`, "exchange": %d`, m.Exchange)
	}
	return []games.AnswerForm{{Name: "pass", Fields: f, Note: " once your human has read the table (nothing to send now)"}}
}

// DescribeResult is a finished round in words (games.Describer): the payouts in CCD by seat, with
// the places the result publishes, then the §9 reveal (revealLine).
func (e *Engine) DescribeResult(r games.Result) string {
	var lines []string
	if p := payoutsLine(r); p != "" {
		lines = append(lines, p)
	}
	if rv := revealLine(r.Reveal); rv != "" {
		lines = append(lines, rv)
	}
	return strings.Join(lines, "\n")
}

// payoutsLine is "Payouts: seat 1 310 CCD (place 1); …." in seat order, amounts from microCCD;
// "" when the result pays nobody.
func payoutsLine(r games.Result) string {
	if len(r.Payouts) == 0 {
		return ""
	}
	seats := make([]int, 0, len(r.Payouts))
	for s := range r.Payouts {
		seats = append(seats, s)
	}
	sort.Ints(seats)
	parts := make([]string, 0, len(seats))
	for _, s := range seats {
		p := fmt.Sprintf("seat %d %s CCD", s, ccdText(r.Payouts[s]))
		if pl, ok := r.Places[s]; ok {
			p += fmt.Sprintf(" (place %d)", pl)
		}
		parts = append(parts, p)
	}
	return "Payouts: " + strings.Join(parts, "; ") + "."
}

// tableLine renders the seats from a state object's public "agents" (§5.4: seat, name, alive,
// dark, the collateral bar in percent), marking the seat's own, then the seat's own open
// commitments and accusation. An unreadable state gives "".
func tableLine(state games.Doc, me int) string {
	var st tableView
	if !readStateView(state, &st) || len(st.Agents) == 0 {
		return ""
	}
	out := "The table (collateral as a share of what each seat sat down with): " + seatsLine(st.Agents, me) + "."
	if o := openLine(st.Me.Open, me); o != "" {
		out += "\n" + o
	}
	if st.Me.Accusation > 0 {
		out += fmt.Sprintf("\nYour accusation stands on seat %d.", st.Me.Accusation)
	}
	return out
}

// tableView is what the chat seat reads of a §5.4 state object: the public seats and the
// seat's own open commitments and accusation.
type tableView struct {
	Agents []seatLineView `json:"agents"`
	Me     struct {
		Open       []openLineView `json:"open"`
		Accusation int            `json:"accusation"`
	} `json:"me"`
}

type seatLineView struct {
	Seat       int    `json:"seat"`
	Name       string `json:"name"`
	Alive      bool   `json:"alive"`
	Dark       bool   `json:"dark"`
	Collateral int    `json:"collateral"`
}

type openLineView struct {
	Payer  int   `json:"payer"`
	Payee  int   `json:"payee"`
	Amount int64 `json:"amount"`
	Due    int   `json:"due"`
	Lock   int64 `json:"lock"`
}

// openLine lists the seat's open commitments (§5.4 me.open), both ways, amounts in CCD.
func openLine(open []openLineView, me int) string {
	if len(open) == 0 {
		return ""
	}
	parts := make([]string, 0, len(open))
	for _, c := range open {
		if c.Payer == me {
			parts = append(parts, fmt.Sprintf("you owe seat %d %s CCD due turn %d (%s CCD locked)", c.Payee, ccdText(c.Amount), c.Due, ccdText(c.Lock)))
		} else {
			parts = append(parts, fmt.Sprintf("seat %d owes you %s CCD due turn %d", c.Payer, ccdText(c.Amount), c.Due))
		}
	}
	return "Open promises: " + strings.Join(parts, "; ") + "."
}

// seatsLine is the seats in words, the seat's own marked.
func seatsLine(agents []seatLineView, me int) string {
	parts := make([]string, 0, len(agents))
	for _, a := range agents {
		s := fmt.Sprintf("seat %d %s", a.Seat, nameOr(a.Name))
		if a.Seat == me {
			s += " (you)"
		}
		switch {
		case !a.Alive:
			s += " eliminated"
		case a.Dark:
			s += fmt.Sprintf(" dark, ~%d%%", a.Collateral)
		default:
			s += fmt.Sprintf(" ~%d%%", a.Collateral)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// ccdText renders microCCD as CCD with up to six decimals, trailing zeros dropped.
func ccdText(micro int64) string {
	sign := ""
	if micro < 0 {
		sign, micro = "-", -micro
	}
	s := fmt.Sprintf("%d", micro/1_000_000)
	if f := micro % 1_000_000; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return sign + s
}

// revealLine summarises a §9 reveal in words: the mole, its task and named seats, the rungs it
// reached and the round's moments. A reveal of another shape is shown as it is (capped).
func revealLine(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var rv struct {
		Mole int `json:"mole"`
		Task *struct {
			Kind     string `json:"kind"`
			Category string `json:"category"`
			Named    []int  `json:"named"`
		} `json:"task"`
		Rungs     []int `json:"rungs"`
		Standings []struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		} `json:"standings"`
		Moments []struct {
			What string `json:"what"`
		} `json:"moments"`
	}
	if json.Unmarshal(raw, &rv) != nil || rv.Mole == 0 || rv.Task == nil {
		s := string(raw)
		if len(s) > 2000 {
			s = s[:2000] + "…"
		}
		return "The reveal: " + s
	}
	name := ""
	for _, st := range rv.Standings {
		if st.Seat == rv.Mole && st.Name != "" {
			name = " (" + st.Name + ")"
		}
	}
	s := fmt.Sprintf("The reveal: the mole was seat %d%s; its task was %s (%s)", rv.Mole, name, rv.Task.Kind, rv.Task.Category)
	if len(rv.Task.Named) > 0 {
		s += fmt.Sprintf(" naming seat(s) %v", rv.Task.Named)
	}
	if len(rv.Rungs) == 0 {
		s += "; it reached no rung."
	} else {
		s += fmt.Sprintf("; rungs reached: %v.", rv.Rungs)
	}
	for _, m := range rv.Moments {
		if m.What != "" {
			s += "\n- " + m.What
		}
	}
	return s
}

// readStateView reads "agents" and "me" from a state object and stops there: the rest, the public
// log above all (the last member of a §5.4 state, and by far the largest), is never read, let
// alone decoded. False if the state is not an object or either member does not decode.
func readStateView(state games.Doc, st *tableView) bool {
	dec := json.NewDecoder(state.Reader()) // a packed public log is inflated only if reached
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	var agents, me bool
	for !agents || !me {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		key, ok := t.(string)
		if !ok { // the object ended: "me" is optional, as it was to a whole decode
			return agents
		}
		switch key {
		case "agents":
			agents = dec.Decode(&st.Agents) == nil
			if !agents {
				return false
			}
		case "me":
			me = dec.Decode(&st.Me) == nil
			if !me {
				return false
			}
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
	}
	return true
}

func nameOr(s string) string {
	if s != "" {
		return s
	}
	return "?"
}
