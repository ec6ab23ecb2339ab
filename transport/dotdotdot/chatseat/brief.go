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
// brief, the table in the game's words, how to answer), waiting, or the result with the closing
// lines. d, the game's Describer, may be nil: the table and the reveal are then left out.
func renderNext(n dotdotdot.Next, now time.Time, d games.Describer) string {
	switch {
	case n.Result != nil:
		return renderResult(n, d)
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
	if n.Prompt != nil && d != nil {
		if t := d.DescribeState(n.Prompt.State, n.Prompt.Seat); t != "" {
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

// renderResult is the end of the round: the desk's brief, the places and payouts (microCCD),
// the reveal in the game's words (games.Describer), and the closing lines of §4.5.
func renderResult(n dotdotdot.Next, d games.Describer) string {
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
	if d != nil {
		if rv := d.DescribeReveal(r.Reveal); rv != "" {
			b.WriteString("\n" + rv)
		}
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
