package claims

import (
	"encoding/json"
	"fmt"
	"strconv"

	"arena/games"
	"arena/games/warden/internal/duel"
)

// Game I in words, for any door that renders a game through the contract (games.Narrator,
// games.Describer). Amounts are integer micro-units (Unit); shares are percents of the round pot.
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
)

// Names reads the seats' display names from match_started (games.Narrator).
func (Engine) Names(events []games.Event) map[int]string { return duel.Names(events) }

// Narrate puts one public event in words (games.Narrator); an unknown event is its type alone.
func (Engine) Narrate(e games.Event, names map[int]string) string {
	var p struct {
		Round    int               `json:"round"`
		Seat     string            `json:"seat"`
		Step     string            `json:"step"`
		Stake    int64             `json:"stake"`
		Sent     bool              `json:"sent"`
		Deadline string            `json:"deadline"`
		Default  string            `json:"default_applied"`
		Claims   map[string]*int64 `json:"claims"`
		Pot      int64             `json:"pot"`
		Over     bool              `json:"overshoot"`
		Pay      map[string]int64  `json:"pay"`
		Vals     map[string]int64  `json:"valuations"`
		Asks     map[string]int64  `json:"asks"`
	}
	_ = json.Unmarshal(e.Payload, &p)
	claim := func(k string) string {
		if c := p.Claims[k]; c != nil {
			return duel.Percent(*c)
		}
		return "nothing"
	}
	switch e.Type {
	case "match_started":
		return fmt.Sprintf("Game I opened: %s and %s stake %d %s each, five rounds.", duel.Who(names, 1), duel.Who(names, 2), p.Stake, Unit)
	case "round_started":
		return fmt.Sprintf("Round %d: each seat is dealt a private valuation.", p.Round)
	case "step_opened":
		return fmt.Sprintf("Round %d, %s step: open until %s.", p.Round, p.Step, p.Deadline)
	case "message_step_done":
		if p.Sent {
			return fmt.Sprintf("%s sent a private message.", duel.WhoStart(names, duel.SeatOf(p.Seat)))
		}
		return fmt.Sprintf("%s passed.", duel.WhoStart(names, duel.SeatOf(p.Seat)))
	case "claim_sealed":
		return fmt.Sprintf("%s sealed its claim.", duel.WhoStart(names, duel.SeatOf(p.Seat)))
	case "claims_revealed":
		return fmt.Sprintf("Round %d claims: %s claims %s, %s claims %s.", p.Round, duel.Who(names, 1), claim("A"), duel.Who(names, 2), claim("B"))
	case "offer_sealed":
		return fmt.Sprintf("%s sealed its offer.", duel.WhoStart(names, duel.SeatOf(p.Seat)))
	case "timeout":
		return fmt.Sprintf("%s missed the %s step: %s applied.", duel.WhoStart(names, duel.SeatOf(p.Seat)), p.Step, p.Default)
	case "round_revealed":
		over := "the asks fit"
		if p.Over {
			over = "the asks overshot"
		}
		return fmt.Sprintf("Round %d revealed: valuations %s / %s, asks %s / %s of a %d pot; %s; %s is paid %d, %s %d.",
			p.Round, duel.Percent(p.Vals["A"]), duel.Percent(p.Vals["B"]), duel.Percent(p.Asks["A"]), duel.Percent(p.Asks["B"]), p.Pot, over,
			duel.Who(names, 1), p.Pay["A"], duel.Who(names, 2), p.Pay["B"])
	}
	if line, ok := duel.NarrateEnd(e, names); ok {
		return line
	}
	return e.Type
}

// Final names the last public event (games.Narrator).
func (Engine) Final(e games.Event) string { return duel.Final(e) }

// RevealPanel is the reveal card of an ended public transcript: one row per seat with its
// gross return, net and result; false before the end or when the events do not decode.
func (Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	for _, e := range events {
		switch e.Type {
		case "match_abandoned":
			return duel.AbandonedPanel(e)
		case "match_finished":
			var f duel.Finished
			if json.Unmarshal(e.Payload, &f) != nil {
				return games.Panel{}, false
			}
			p := games.Panel{
				Lead: []games.Run{{Text: "Five rounds played. "}, {Text: fmt.Sprintf("The house keeps %d %s", f.House, Unit), Strong: true}, {Text: "."}},
				Head: []string{"Seat", "Name", "Gross (" + Unit + ")", "Net", "Result"},
			}
			for i := range 2 {
				k := duel.SeatName(i)
				s := f.Seats[k]
				p.Rows = append(p.Rows, []string{k, names[i+1], strconv.FormatInt(s.Gross, 10), strconv.FormatInt(s.Net, 10), s.Result})
			}
			return p, true
		}
	}
	return games.Panel{}, false
}

// DescribeState is a prompt's state in words (games.Describer); "" for a state it cannot read.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var st struct {
		Seat      string           `json:"seat"`
		Round     int              `json:"round"`
		Phase     string           `json:"phase"`
		Valuation int64            `json:"valuation_bps"`
		Balances  map[string]int64 `json:"balances"`
		Message   string           `json:"opponent_message"`
		OnTimeout string           `json:"on_timeout"`
	}
	if json.Unmarshal(state.Bytes(), &st) != nil || st.Seat == "" {
		return ""
	}
	out := fmt.Sprintf("You are seat %s in round %d of %d, %s step. Your valuation is %s of this round's pot. Balances: A %d, B %d %s.",
		st.Seat, st.Round, Rounds, st.Phase, duel.Percent(st.Valuation), st.Balances["A"], st.Balances["B"], Unit)
	if st.Message != "" {
		out += " Your opponent wrote: " + strconv.Quote(st.Message) + "."
	}
	return out + " If you do not act in time: " + st.OnTimeout + "."
}

// DescribeAnswers lists the answer forms of the prompt's step (games.Describer).
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	switch p.Move.Phase {
	case phaseMessage:
		return []games.AnswerForm{{Name: ActionMessage, Fields: `"text": "…"`, Note: " (≤ 500 characters, to your opponent)"},
			{Name: ActionPass, Note: " to send nothing"}}
	case phaseClaim:
		return []games.AnswerForm{{Name: ActionClaim, Fields: `"claim_bps": 0..10000`, Note: " (your public claim, truthful or not)"}}
	case phaseOffer:
		return []games.AnswerForm{{Name: ActionOffer, Fields: `"ask_bps": 0..your valuation, "escalate": 0..4`, Note: " (sealed)"}}
	}
	return nil
}

// DescribeResult is a finished match in words (games.Describer).
func (Engine) DescribeResult(r games.Result) string { return duel.Returns(r) }
