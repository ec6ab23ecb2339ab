package chatseat

import (
	"encoding/json"
	"fmt"
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
// brief, the table and the ways to answer in the game's words, games.Describer), waiting, or the
// result with the closing lines. The door's own parts are the head line, the token and the round
// and turn every answer echoes, and the closing; d, the game's Describer, may be nil: the table,
// the answers and the result's figures are then left out.
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
	var p games.Prompt
	if n.Prompt != nil {
		p = *n.Prompt
	}
	p.Move.Turn, p.Move.Phase, p.Move.Exchange = h.Turn, h.Phase, h.Exchange // the envelope's move, as echoed
	var forms []games.AnswerForm
	if d != nil {
		if n.Prompt != nil {
			if t := d.DescribeState(p.State, p.Seat); t != "" {
				b.WriteString(t + "\n")
			}
		}
		forms = d.DescribeAnswers(p)
	}
	b.WriteString("\nPut two or three numbered moves to your human with your pick marked, and wait for their choice (play on alone only if they told you to). ")
	if len(forms) == 0 {
		b.WriteString("Then answer as the brief above says.")
		return b.String()
	}
	b.WriteString("Then answer with one call:")
	echo := fmt.Sprintf(`"round": %q, "turn": %d`, h.Round, h.Turn)
	for _, f := range forms {
		fields := ""
		if f.Fields != "" {
			fields = ", " + f.Fields
		}
		fmt.Fprintf(&b, "\n- %s {\"token\", %s%s}%s", f.Name, echo, fields, f.Note)
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

// renderResult is the end of the round: the desk's brief, the result in the game's words
// (games.Describer: payouts, places, the reveal), and the closing lines of §4.5.
func renderResult(n dotdotdot.Next, d games.Describer) string {
	var b strings.Builder
	b.WriteString(orDefault(n.Brief, fmt.Sprintf("Round %s is over and revealed.", n.Round)))
	if d != nil {
		if r := d.DescribeResult(*n.Result); r != "" {
			b.WriteString("\n" + r)
		}
	}
	b.WriteString("\nmy_record shows your human's record; play_practice or join_table plays another round.\n\n")
	b.WriteString(Closing)
	return b.String()
}
