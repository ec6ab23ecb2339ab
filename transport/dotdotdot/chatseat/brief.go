package chatseat

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
)

// Closing is how the result ends (§4.5): the assistant is to tell its human that this was the
// slow version and where the full one is.
const Closing = "Tell your human, in your own words: this was the slow version. In the desktop app (Claude Code, ChatGPT work mode) the same assistant opens the game itself, and the two of you play the full live Free play together in the chat; from there your human can go on to a seat of their own."

// moveHead is what a brief copies from the signed envelope, so its move and deadline are the
// envelope's to the byte.
type moveHead struct {
	Round    string `json:"round"`
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange"`
	Deadline string `json:"deadline"`
}

// renderNext puts a poll's answer in words for the assistant: a move (head line, the game's
// brief, the table, how to answer), waiting, or the result with the closing lines.
func renderNext(n dotdotdot.Next, now time.Time) string {
	switch {
	case n.Result != nil:
		return renderResult(n)
	case n.Waiting || len(n.Envelope) == 0:
		b := orDefault(n.Brief, "No move is open for your seat yet.")
		return fmt.Sprintf("Waiting (%s). %s\nCall next_move again.", orDefault(n.Status, "waiting"), b)
	}
	var h moveHead
	if err := json.Unmarshal(n.Envelope, &h); err != nil || h.Round == "" {
		return "Waiting (playing). A move is open but could not be read; call next_move again."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Round %s, turn %d, %s", h.Round, h.Turn, h.Phase)
	if h.Exchange > 0 {
		fmt.Fprintf(&b, " (exchange %d)", h.Exchange)
	}
	fmt.Fprintf(&b, "%s (deadline %s).\n", timeLeft(h.Deadline, now), h.Deadline)
	if n.Brief != "" {
		b.WriteString(n.Brief)
		b.WriteString("\n")
	}
	if n.Prompt != nil {
		if t := tableLine(n.Prompt.State, n.Prompt.Seat); t != "" {
			b.WriteString(t + "\n")
		}
	}
	b.WriteString("\nPut two or three numbered moves to your human with your pick marked, and wait for their choice (play on alone only if they told you to). Then answer with one call:\n")
	echo := fmt.Sprintf(`"round": %q, "turn": %d`, h.Round, h.Turn)
	switch h.Phase {
	case "talk":
		fmt.Fprintf(&b, `- talk {"token", %s, "exchange": %d, "messages": [{"text": "...", "to": <seat, for a private line>, "tone": "offer"}], "accusation": <seat, optional>}`+"\n", echo, h.Exchange)
		fmt.Fprintf(&b, `- pass {"token", %s, "phase": "talk", "exchange": %d} to say nothing`, echo, h.Exchange)
	case "commit":
		fmt.Fprintf(&b, `- commit {"token", %s, "commitments": [{"payee": <seat>, "chips": <whole CCD>, "due": <turn>, "condition": {"always": true}}], "accusation": <seat, optional>}`+"\n", echo)
		fmt.Fprintf(&b, `- pass {"token", %s, "phase": "commit"} to promise nothing`, echo)
	default:
		ex := ""
		if h.Exchange > 0 {
			ex = fmt.Sprintf(`, "exchange": %d`, h.Exchange)
		}
		fmt.Fprintf(&b, `- pass {"token", %s, "phase": %q%s} once your human has read the table (nothing to send now)`, echo, h.Phase, ex)
	}
	return b.String()
}

// timeLeft is ": 2m40s left" for an RFC 3339 deadline, or "" when it cannot be read.
func timeLeft(deadline string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, deadline)
	if err != nil {
		return ""
	}
	d := t.Sub(now).Round(time.Second)
	if d <= 0 {
		return ": the deadline has passed"
	}
	return ": " + d.String() + " left"
}

// tableLine renders the seats from a state object's public "agents" (§5.4: seat, name, alive,
// dark, the collateral bar in percent), marking the seat's own, then the seat's own open
// commitments and accusation. An unreadable state gives "".
func tableLine(state games.Doc, me int) string {
	var st stateView
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

// stateView is what the chat seat reads of a §5.4 state object: the public seats and the
// seat's own open commitments and accusation.
type stateView struct {
	Agents []agentView `json:"agents"`
	Me     struct {
		Open       []openView `json:"open"`
		Accusation int        `json:"accusation"`
	} `json:"me"`
}

type agentView struct {
	Seat       int    `json:"seat"`
	Name       string `json:"name"`
	Alive      bool   `json:"alive"`
	Dark       bool   `json:"dark"`
	Collateral int    `json:"collateral"`
}

type openView struct {
	Payer  int   `json:"payer"`
	Payee  int   `json:"payee"`
	Amount int64 `json:"amount"`
	Due    int   `json:"due"`
	Lock   int64 `json:"lock"`
}

// openLine lists the seat's open commitments (§5.4 me.open), both ways, amounts in CCD.
func openLine(open []openView, me int) string {
	if len(open) == 0 {
		return ""
	}
	parts := make([]string, 0, len(open))
	for _, c := range open {
		if c.Payer == me {
			parts = append(parts, fmt.Sprintf("you owe seat %d %s CCD due turn %d (%s CCD locked)", c.Payee, ccd(c.Amount), c.Due, ccd(c.Lock)))
		} else {
			parts = append(parts, fmt.Sprintf("seat %d owes you %s CCD due turn %d", c.Payer, ccd(c.Amount), c.Due))
		}
	}
	return "Open promises: " + strings.Join(parts, "; ") + "."
}

// seatsLine is the seats in words, the seat's own marked.
func seatsLine(agents []agentView, me int) string {
	parts := make([]string, 0, len(agents))
	for _, a := range agents {
		s := fmt.Sprintf("seat %d %s", a.Seat, orDefault(a.Name, "?"))
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

// renderResult is the end of the round: the desk's brief, the places and payouts (microCCD),
// the reveal as the game wrote it, and the closing lines of §4.5.
func renderResult(n dotdotdot.Next) string {
	var b strings.Builder
	b.WriteString(orDefault(n.Brief, fmt.Sprintf("Round %s is over and revealed.", n.Round)))
	r := n.Result
	if len(r.Payouts) > 0 {
		seats := make([]int, 0, len(r.Payouts))
		for s := range r.Payouts {
			seats = append(seats, s)
		}
		sort.Ints(seats)
		parts := make([]string, 0, len(seats))
		for _, s := range seats {
			p := fmt.Sprintf("seat %d %s CCD", s, ccd(r.Payouts[s]))
			if pl, ok := r.Places[s]; ok {
				p += fmt.Sprintf(" (place %d)", pl)
			}
			parts = append(parts, p)
		}
		b.WriteString("\nPayouts: " + strings.Join(parts, "; ") + ".")
	}
	if rv := revealLine(r.Reveal); rv != "" {
		b.WriteString("\n" + rv)
	}
	b.WriteString("\nmy_record shows your human's record; play_practice or join_table plays another round.\n\n")
	b.WriteString(Closing)
	return b.String()
}

// ccd renders microCCD as CCD with up to six decimals, trailing zeros dropped.
func ccd(micro int64) string {
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
func readStateView(state games.Doc, st *stateView) bool {
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
