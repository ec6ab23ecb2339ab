package blitz

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"arena/games"
)

// HouseAnswer is the scripted house policy (games.HousePlayer): a legal walk-in answer body for
// the prompt, deterministic from (prompt move, seat, seed). It talks (a public line, sometimes
// a private one, with varied tones), makes at most two commitments a commit phase that its
// unlocked collateral and budget can seal (now and then a bold one), under conditions drawn
// from always / survives / backs (some void unless reciprocated), and places (then may move) an accusation when it holds the lever. It signs nothing:
// house seats are walk-in seats whose keys the arena holds.
func (e *Engine) HouseAnswer(p games.Prompt, seed uint64) json.RawMessage {
	st, ok := p.View.(*houseView)
	if !ok {
		// A prompt from elsewhere: the same figures, read from its state object.
		obj, ok := decodeState(p.State)
		if !ok {
			return json.RawMessage(`{}`)
		}
		st = viewOf(obj, p.Seat)
	}
	var sb [8 + 8 + 8]byte
	binary.BigEndian.PutUint64(sb[0:], seed)
	binary.BigEndian.PutUint64(sb[8:], uint64(p.Seat)<<32|uint64(p.Move.Turn)<<8|uint64(p.Move.Exchange))
	copy(sb[16:], p.Move.Phase)
	src := newSource(sha256.Sum256(sb[:]))
	body := map[string]any{"turn": p.Move.Turn, "phase": p.Move.Phase}
	if p.Move.Exchange != 0 {
		body["exchange"] = p.Move.Exchange
	}
	var others []int
	for _, a := range st.agents {
		if a.seat != p.Seat && a.alive {
			others = append(others, a.seat)
		}
	}
	if len(others) == 0 || p.Move.Phase == "scouting" {
		return mustJSON(body)
	}
	pick := func() int { return others[src.intn(len(others))] }
	legal := strings.Join(games.Names(p.Legal), ",")
	switch p.Move.Phase {
	case "talk":
		tones := []string{"offer", "ask", "accept", "decline", "neutral"}
		// Each template takes a CCD figure (1..20) or, when it addresses a seat, a live other seat
		// of the table, never a number that only looks like one.
		lines := []struct {
			text string
			seat bool
		}{
			{"I back whoever backs me. %d CCD on the table for a partner.", false},
			{"Seat %d, what are you offering this turn?", true},
			{"Honoured everything so far. Looking for a %d CCD deal.", false},
			{"Watching the bells. Someone is steering this table.", false},
			{"Pass for now; I'll commit if seat %d commits first.", true},
		}
		tl := lines[src.intn(len(lines))]
		l := tl.text
		if strings.Contains(l, "%d") {
			x := 1 + src.intn(20) // one draw either way: the stream, and every later choice, is the same
			if tl.seat {
				x = others[(x-1)%len(others)]
			}
			l = fmt.Sprintf(l, x)
		}
		msgs := []any{map[string]any{"type": "public", "text": l, "tone": tones[src.intn(len(tones))]}}
		if src.intn(2) == 0 {
			to := pick()
			msgs = append(msgs, map[string]any{"type": "private", "to": to, "tone": tones[src.intn(len(tones))],
				"text": fmt.Sprintf("Seat %d: %d CCD each way, due next turn?", to, 2+src.intn(10))})
		}
		body["messages"] = msgs
	case "commit":
		var out []any
		unlocked := st.unlocked
		budget := st.budget
		open := st.openAsPay
		n := src.intn(3)
		for i := 0; i < n && open < 4 && budget >= DefaultFees().Action; i++ {
			maxChips := unlocked * 2 / ccd / 4 // promise at most half of what the lock could cover
			if maxChips < 1 {
				break
			}
			chips := 1 + int64(src.intn(int(min(maxChips, 25))))
			if src.intn(6) == 0 { // now and then a bold promise, three quarters of what the lock allows
				chips = max(1, unlocked*2/ccd*3/4)
			}
			to := pick()
			due := p.Move.Turn + src.intn(2)
			if due > st.turns {
				due = st.turns
			}
			var c any
			switch src.intn(4) {
			case 0:
				c = map[string]any{"always": true}
			case 1:
				c = map[string]any{"survives": []any{to, due}}
			case 2:
				c = map[string]any{"or": []any{map[string]any{"backs": []any{to, p.Seat, 1000000}}, map[string]any{"always": true}}}
			default: // void unless the payee backs this seat too
				c = map[string]any{"backs": []any{to, p.Seat, 1000000}}
			}
			out = append(out, map[string]any{"payee": to, "chips": chips, "condition": c, "due": due})
			unlocked -= (chips*ccd + 1) / 2
			budget -= DefaultFees().Action
			open++
		}
		if len(out) > 0 {
			body["commitments"] = out
		}
	}
	if strings.Contains(legal, "accusation") && p.Move.Turn >= 2 && src.intn(3) == 0 {
		if on := pick(); on != st.accusation {
			body["accusation"] = on
		}
	}
	return mustJSON(body)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// Brief puts a prompt in words for an assistant (§4.4 format=brief) and gives the answer body
// to post, filled in but for the line or the promise.
func (e *Engine) Brief(p games.Prompt) (string, json.RawMessage) {
	st, _ := decodeState(p.State)
	var b strings.Builder
	f := st.Format
	fmt.Fprintf(&b, "You are seat %d", p.Seat)
	if st.Me.Role == "mole" && st.Me.Task != nil {
		t := st.Me.Task
		fmt.Fprintf(&b, ", the mole. Your task is %s (%s)", t.Kind, t.Category)
		if len(t.Named) > 0 {
			fmt.Fprintf(&b, " naming seats %v", t.Named)
		}
		fmt.Fprintf(&b, ": rung 1 %s; rung 2 %s; rung 3 %s. Reached so far: %v.", t.Rungs[0], t.Rungs[1], t.Rungs[2], t.Reached)
	} else {
		fmt.Fprintf(&b, ", a player. The mole's task this round is in the %q category; find the mole.", st.TaskCategory)
	}
	fmt.Fprintf(&b, "\nYou hold %s collateral (%s unlocked) and %s of action budget; the bounty pot is %s.",
		money(st.Me.Collateral), money(st.Me.Unlocked), money(st.Me.Budget), money(st.Bounty))
	body := map[string]any{"turn": p.Move.Turn, "phase": p.Move.Phase}
	switch p.Move.Phase {
	case "scouting":
		fmt.Fprintf(&b, "\nScouting: read the table; nothing to send.")
	case "talk":
		fmt.Fprintf(&b, "\nTurn %d of %d, talk exchange %d of %d: up to 8 public and 8 private lines of at most 600 characters.",
			p.Move.Turn, f.Turns, p.Move.Exchange, f.Exchanges)
		body["exchange"] = p.Move.Exchange
		body["messages"] = []any{map[string]any{"type": "public", "text": "", "tone": "neutral"}}
	case "commit":
		fmt.Fprintf(&b, "\nTurn %d of %d, commit: up to 4 promises to pay. Each locks half its amount from your unlocked collateral and costs 5 CCD of budget when sealed.",
			p.Move.Turn, f.Turns)
		body["commitments"] = []any{map[string]any{"payee": 0, "chips": 0, "condition": map[string]any{"always": true}, "due": p.Move.Turn}}
	}
	for _, it := range p.Inbox {
		var m struct {
			Type, Text string
			From, To   int
		}
		if json.Unmarshal(it, &m) == nil {
			switch m.Type {
			case "public":
				fmt.Fprintf(&b, "\nSeat %d said: %s", m.From, oneLine(m.Text))
			case "private":
				fmt.Fprintf(&b, "\nSeat %d told you: %s", m.From, oneLine(m.Text))
			case "call":
				fmt.Fprintf(&b, "\nYour human: %s", oneLine(m.Text))
			case "notice":
				fmt.Fprintf(&b, "\nNotice: %s", oneLine(m.Text))
			}
		}
	}
	fmt.Fprintf(&b, "\nAnswer by %s.", fmtTime(p.Deadline))
	return b.String(), mustJSON(body)
}

// oneLine renders a text someone else wrote (a seat's message, a human's call) as one line of a
// brief: every rune that is not printable (line breaks, U+2028/U+2029, NUL, bidi controls) is
// written as its Go escape (\n, \u2028, \x00), so a seat's line can never start a line of the
// brief and pass for one the arena writes ("Your human: …", "Notice: …", "Answer by …").
// Printable text, spaces included, is left as it was said.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || unicode.IsPrint(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\n', '\u2028', '\x00': drop the quotes
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// decodeState reads a state object less its public_log, by far its largest member: policies
// and briefs do not read it.
func decodeState(d games.Doc) (stateObject, bool) {
	var st stateObject
	// A state stateFor wrote: everything before the public log's segment, closed. The house
	// policy reads no public log, and decoding it would cost more than the rest of the answer.
	// The walk stops there, so a packed log (games.Packed) is never inflated.
	var head []byte
	for p := range d.Segments() {
		if string(p) == logOpen {
			return st, json.Unmarshal(append(head, '}'), &st) == nil
		}
		head = append(head, p...)
	}
	// Any other state (a prompt decoded from JSON, an envelope's JCS state, where members sort
	// after public_log): the whole document, so no member after the log is lost; the log itself
	// is let go, as the walk above never reads it.
	err := json.Unmarshal(d.Bytes(), &st)
	st.PublicLog = nil
	return st, err == nil
}
