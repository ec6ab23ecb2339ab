package dilemma

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/warden/internal/duel"
)

// Game II in words, for any door that renders a game through the contract (games.Narrator for
// a page's feed and reveal card, games.Describer for an assistant's move and result). Amounts
// are integer micro-units (Unit); seat 1 is A, seat 2 B.
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
)

// Names reads the seats' display names from match_started (games.Narrator).
func (Engine) Names(events []games.Event) map[int]string { return duel.Names(events) }

// Narrate puts one public event in words (games.Narrator); an event it does not know is its
// type alone.
func (Engine) Narrate(e games.Event, names map[int]string) string {
	var p struct {
		Seat     string            `json:"seat"`
		Stake    int64             `json:"stake"`
		Pot      int64             `json:"pot"`
		Deadline string            `json:"deadline"`
		Default  string            `json:"default_applied"`
		Choices  map[string]string `json:"choices"`
		Outcome  string            `json:"outcome"`
	}
	_ = json.Unmarshal(e.Payload, &p)
	switch e.Type {
	case "match_started":
		return fmt.Sprintf("Game II opened: %s and %s stake %d %s each; the pot is %d.", duel.Who(names, 1), duel.Who(names, 2), p.Stake, Unit, p.Pot)
	case "step_opened":
		return fmt.Sprintf("Commit: each seat chooses COOPERATE or DEFECT, sealed, by %s.", p.Deadline)
	case "commit_sealed":
		return fmt.Sprintf("%s sealed its choice.", duel.WhoStart(names, duel.SeatOf(p.Seat)))
	case "timeout":
		return fmt.Sprintf("%s did not commit in time: %s applied.", duel.WhoStart(names, duel.SeatOf(p.Seat)), p.Default)
	case "choices_revealed":
		return fmt.Sprintf("Revealed: %s chose %s, %s chose %s: %s.", duel.Who(names, 1), p.Choices["A"], duel.Who(names, 2), p.Choices["B"], p.Outcome)
	}
	if line, ok := duel.NarrateEnd(e, names); ok {
		return line
	}
	return e.Type
}

// Final names the last public event of a match (games.Narrator): match_finished is
// games.EndRevealed, match_abandoned games.EndAbandoned.
func (Engine) Final(e games.Event) string { return duel.Final(e) }

// RevealPanel is the reveal card of a public transcript that has ended (games.Narrator): the
// outcome, then each seat's choice (and whether it was defaulted), gross return, net and result;
// an abandoned match says so and that the stakes went back. False before the end or when its
// events do not decode.
func (Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	var revealed, finished *games.Event
	for i := range events {
		switch events[i].Type {
		case "choices_revealed":
			revealed = &events[i]
		case "match_finished":
			finished = &events[i]
		case "match_abandoned":
			return duel.AbandonedPanel(events[i])
		}
	}
	if revealed == nil || finished == nil {
		return games.Panel{}, false
	}
	var r struct {
		Choices   map[string]string `json:"choices"`
		Defaulted map[string]bool   `json:"defaulted"`
		Outcome   string            `json:"outcome"`
	}
	var f duel.Finished
	if json.Unmarshal(revealed.Payload, &r) != nil || json.Unmarshal(finished.Payload, &f) != nil {
		return games.Panel{}, false
	}
	p := games.Panel{
		Lead: []games.Run{{Text: "The outcome: "}, {Text: r.Outcome, Strong: true},
			{Text: fmt.Sprintf(". The house keeps %d %s.", f.House, Unit)}},
		Head: []string{"Seat", "Name", "Choice", "Gross (" + Unit + ")", "Net", "Result"},
	}
	for i := range 2 {
		k := duel.SeatName(i)
		choice := r.Choices[k]
		if r.Defaulted[k] {
			choice += " (defaulted)"
		}
		s := f.Seats[k]
		p.Rows = append(p.Rows, []string{k, names[i+1], choice, strconv.FormatInt(s.Gross, 10), strconv.FormatInt(s.Net, 10), s.Result})
	}
	return p, true
}

// DescribeState is the commit prompt's state in words (games.Describer): the seat, the stake
// and pot, who has committed, the shares of the pot for each pair of choices, what a missing
// commit becomes. "" for a state it cannot read.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var st struct {
		Seat      string          `json:"seat"`
		Stake     int64           `json:"stake"`
		Pot       int64           `json:"pot"`
		OnTimeout string          `json:"on_timeout"`
		You       map[string]bool `json:"you_submitted"`
		Opponent  map[string]bool `json:"opponent_submitted"`
		Shares    map[string]struct {
			You      int64 `json:"you"`
			Opponent int64 `json:"opponent"`
		} `json:"shares_bps"`
	}
	if json.Unmarshal(state.Bytes(), &st) != nil || st.Seat == "" {
		return ""
	}
	you, opp := "You have not committed yet", "your opponent has not committed yet"
	if st.You["commit"] {
		you = "You have committed"
	}
	if st.Opponent["commit"] {
		opp = "your opponent has committed"
	}
	var shares []string
	for _, c := range []struct{ key, words string }{
		{"both_cooperate", "both cooperate"}, {"you_defect", "you alone defect"},
		{"they_defect", "they alone defect"}, {"both_defect", "both defect"},
	} {
		s := st.Shares[c.key]
		shares = append(shares, fmt.Sprintf("%s: you %s, they %s", c.words, duel.Percent(s.You), duel.Percent(s.Opponent)))
	}
	return fmt.Sprintf("You are seat %s; each seat staked %d %s and the pot is %d. %s; %s.\n"+
		"Shares of the pot: %s. A seat that does not commit in time plays %s.",
		st.Seat, st.Stake, Unit, st.Pot, you, opp,
		strings.Join(shares, "; "), st.OnTimeout)
}

// DescribeAnswers is the commit, one form per legal choice (games.Describer): the Warden's commit
// {"choice": "COOPERATE"|"DEFECT"}. None outside the commit step.
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	if p.Move.Phase != phaseCommit {
		return nil
	}
	var out []games.AnswerForm
	for _, a := range p.Legal {
		switch a.Name {
		case ActionCooperate:
			out = append(out, games.AnswerForm{Name: "commit", Fields: `"choice": "` + Cooperate + `"`, Note: " to cooperate"})
		case ActionDefect:
			out = append(out, games.AnswerForm{Name: "commit", Fields: `"choice": "` + Defect + `"`, Note: " to defect"})
		}
	}
	return out
}

// DescribeResult is a finished match in words (games.Describer): the gross returns and the
// house's take in micro-units, then the outcome and both choices, or that the match was
// abandoned and the stakes returned.
func (Engine) DescribeResult(r games.Result) string {
	out := duel.Returns(r)
	if out == "" || r.Abandoned != "" {
		return out
	}
	var rv struct {
		Outcome   string            `json:"outcome"`
		Choices   map[string]string `json:"choices"`
		Defaulted map[string]bool   `json:"defaulted"`
	}
	if json.Unmarshal(r.Reveal, &rv) != nil || rv.Outcome == "" {
		return out
	}
	choice := func(k string) string {
		if rv.Defaulted[k] {
			return rv.Choices[k] + " (defaulted at the deadline)"
		}
		return rv.Choices[k]
	}
	return out + fmt.Sprintf("\nThe outcome: %s. Seat A chose %s; seat B chose %s.", rv.Outcome, choice("A"), choice("B"))
}
