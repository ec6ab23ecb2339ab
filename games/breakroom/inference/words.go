package inference

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/breakroom"
)

// Inference in words, for any door that renders a game through the contract: games.Narrator
// (a live feed's narration, a replay's reveal card), games.Describer (an assistant's move and
// result) and games.Statser (a finished match's figures, for reputations: bluffs, raises,
// caught). Names are keyed by house seat (wire seat + 1); the words name players by name, else
// by their wire seat ("seat 2").
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
	_ games.Statser   = Engine{}
)

// line is the union of the members the words read from any Inference line.
type line struct {
	Round   int             `json:"round"`
	Seat    *int            `json:"seat"`
	Turn    *int            `json:"turn"`
	Text    string          `json:"text"`
	Action  string          `json:"action"`
	Amount  int64           `json:"amount"`
	Auto    json.RawMessage `json:"auto"`
	Strikes int             `json:"strikes"`
	Dealer  *int            `json:"dealer"`
	Seats   []int           `json:"seats"`
	Value   int             `json:"value"`
	Commits []struct {
		Seat int `json:"seat"`
	} `json:"commits"`
	Uncontested bool `json:"uncontested"`
	Reveals     []struct {
		Seat  int `json:"seat"`
		Value int `json:"value"`
	} `json:"reveals"`
	Mucked    []int         `json:"mucked"`
	Winners   []int         `json:"winners"`
	Pot       int64         `json:"pot"`
	Credits   int64         `json:"credits"`
	BustOrder int           `json:"bustOrder"`
	Reason    string        `json:"reason"`
	Ranking   []rankEntry   `json:"ranking"`
	Players   []playerEntry `json:"players"`
	Config    *Config       `json:"config"`
}

type rankEntry struct {
	Rank      int    `json:"rank"`
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Credits   int64  `json:"credits"`
	Busted    bool   `json:"busted"`
	BustOrder *int   `json:"bustOrder"`
}

type playerEntry struct {
	Seat   int    `json:"seat"`
	Pubkey string `json:"pubkey"`
	Name   string `json:"name"`
	House  bool   `json:"house"`
}

func readLine(e games.Event) (line, bool) {
	var l line
	err := json.Unmarshal(e.Payload, &l)
	return l, err == nil
}

// name is a wire seat's name: its display name, else "seat N".
func name(names map[int]string, wire int) string {
	if n := names[breakroom.HouseSeat(wire)]; n != "" {
		return n
	}
	return "seat " + strconv.Itoa(wire)
}

// Names reads the players' display names from match_start (games.Narrator), keyed by house seat:
// breakroom.DisplayNames of its players in seat order, the names the table's seated message
// gives, so an agent with no name is its generated name, never "seat N"; a house bot's name is
// its table name. A player with neither pubkey nor name is left out.
func (Engine) Names(events []games.Event) map[int]string {
	names := map[int]string{}
	for _, e := range events {
		if e.Type != "match_start" {
			continue
		}
		l, ok := readLine(e)
		if !ok {
			continue
		}
		var ps []playerEntry
		for _, p := range l.Players {
			if p.Seat >= 0 && p.Seat < MaxPlayers {
				ps = append(ps, p)
			}
		}
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Seat < ps[j].Seat })
		ids := make([]breakroom.Identity, len(ps))
		for i, p := range ps {
			ids[i] = breakroom.Identity{Key: p.Pubkey, Name: p.Name}
			if p.House {
				ids[i].Name = ""
			}
		}
		for i, n := range breakroom.DisplayNames(ids) {
			if ps[i].Pubkey != "" || ps[i].Name != "" {
				names[breakroom.HouseSeat(ps[i].Seat)] = n
			}
		}
	}
	return names
}

// standings is a ranking in words: "1. Ada 112 credits; 2. …; 3. Bo (busted)".
func standings(r []rankEntry, names map[int]string) string {
	parts := make([]string, len(r))
	for i, e := range r {
		n := e.Name
		if n == "" {
			n = name(names, e.Seat)
		}
		parts[i] = fmt.Sprintf("%d. %s %d credits", e.Rank, n, e.Credits)
		if e.Busted {
			parts[i] = fmt.Sprintf("%d. %s (busted)", e.Rank, n)
		}
	}
	return strings.Join(parts, "; ")
}

func seatList(names map[int]string, seats []int) string {
	n := make([]string, len(seats))
	for i, s := range seats {
		n[i] = name(names, s)
	}
	return strings.Join(n, ", ")
}

// Narrate is one line in words (games.Narrator). A deal_private line, never published, says
// only that a number was dealt, not which; a line it cannot read is its type alone.
func (Engine) Narrate(e games.Event, names map[int]string) string {
	l, ok := readLine(e)
	if !ok {
		return e.Type
	}
	seat := func() string {
		if l.Seat == nil {
			return "a seat"
		}
		return name(names, *l.Seat)
	}
	switch e.Type {
	case "match_start":
		n := make([]string, len(l.Players))
		for i, p := range l.Players {
			n[i] = name(names, p.Seat)
			if p.House {
				n[i] += " (house)"
			}
		}
		s := fmt.Sprintf("Inference begins with %d players: %s. Each hand everyone gets a secret number; the highest still in at showdown takes the pot.", len(l.Players), strings.Join(n, ", "))
		if c := l.Config; c != nil {
			s += fmt.Sprintf(" %d hands, %d credits each, ante %d.", c.Rounds, c.StartingCredits, c.Ante)
		}
		return s
	case "round_start":
		d := "nobody"
		if l.Dealer != nil {
			d = name(names, *l.Dealer)
		}
		return fmt.Sprintf("Hand %d: %s deals to %s.", l.Round, d, seatList(names, l.Seats))
	case "deal_private":
		return fmt.Sprintf("%s is dealt a secret number (hand %d).", seat(), l.Round)
	case "deal":
		return fmt.Sprintf("Hand %d: %d numbers dealt and committed.", l.Round, len(l.Commits))
	case "ante":
		return fmt.Sprintf("%s antes %d.", seat(), l.Amount)
	case "message":
		return seat() + " says: " + l.Text
	case "action":
		var s string
		switch l.Action {
		case ActionCheck:
			s = seat() + " checks"
		case ActionCall:
			s = fmt.Sprintf("%s calls %d", seat(), l.Amount)
		case ActionFold:
			s = seat() + " folds"
		case ActionRaise:
			s = fmt.Sprintf("%s raises by %d", seat(), l.Amount)
		default:
			return e.Type
		}
		if len(l.Auto) > 0 {
			s += " (sitting out, played automatically)"
		}
		return s + "."
	case "timeout":
		var auto string
		_ = json.Unmarshal(l.Auto, &auto)
		return fmt.Sprintf("%s missed the deadline and %ss (strike %d).", seat(), auto, l.Strikes)
	case "sit_out":
		return seat() + " missed three deadlines in a row and sits out."
	case "sit_in":
		return seat() + " is back at the table."
	case "showdown":
		w := "nobody"
		if len(l.Winners) == 1 {
			w = name(names, l.Winners[0])
		}
		if l.Uncontested {
			return fmt.Sprintf("Hand %d: everyone else folded; %s takes the pot of %d without showing.", l.Round, w, l.Pot)
		}
		shown := make([]string, len(l.Reveals))
		for i, r := range l.Reveals {
			shown[i] = fmt.Sprintf("%s shows %d", name(names, r.Seat), r.Value)
		}
		s := fmt.Sprintf("Hand %d showdown: %s.", l.Round, strings.Join(shown, ", "))
		if len(l.Mucked) > 0 {
			s += " " + seatList(names, l.Mucked) + " mucked."
		}
		return s + fmt.Sprintf(" %s takes the pot of %d.", w, l.Pot)
	case "bust":
		return fmt.Sprintf("%s is out of credits and busts (hand %d).", seat(), l.Round)
	case "match_end":
		if len(l.Ranking) > 0 {
			return "The match is over. " + standings(l.Ranking, names) + "."
		}
		return "The match is over."
	case "match_abandoned":
		s := "The match was stopped before its end"
		if l.Reason != "" {
			s += " (" + l.Reason + ")"
		}
		if len(l.Ranking) > 0 {
			return s + ". Standings so far: " + standings(l.Ranking, names) + "."
		}
		return s + "."
	}
	return e.Type
}

// Final names the lines that close a log: match_end (EndRevealed) and match_abandoned
// (EndAbandoned).
func (Engine) Final(e games.Event) string {
	switch e.Type {
	case "match_end":
		return games.EndRevealed
	case "match_abandoned":
		return games.EndAbandoned
	}
	return ""
}

// RevealPanel lays out the ranking of the log's end line (games.Narrator): a lead naming the
// winners, and a table of every seat's rank, credits and bust. False before the end line or when
// it cannot be read.
func (e Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	for _, ev := range events {
		if e.Final(ev) == "" {
			continue
		}
		l, ok := readLine(ev)
		if !ok || len(l.Ranking) == 0 {
			return games.Panel{}, false
		}
		var p games.Panel
		var winners []string
		for _, r := range l.Ranking {
			n := r.Name
			if n == "" {
				n = name(names, r.Seat)
			}
			if r.Rank == 1 {
				winners = append(winners, n)
			}
			bust := ""
			if r.Busted && r.BustOrder != nil {
				bust = "busted (" + strconv.Itoa(*r.BustOrder) + ")"
			}
			p.Rows = append(p.Rows, []string{strconv.Itoa(r.Rank), n, strconv.FormatInt(r.Credits, 10), bust})
		}
		p.Head = []string{"Rank", "Player", "Credits", "Bust"}
		lead := " wins with the most credits."
		if len(winners) > 1 {
			lead = " share first place with the most credits."
		}
		if ev.Type == "match_abandoned" {
			lead = " led when the match was stopped; these are the standings so far."
		}
		p.Lead = []games.Run{{Text: strings.Join(winners, " and "), Strong: true}, {Text: lead}}
		return p, true
	}
	return games.Panel{}, false
}

// DescribeState is a prompt's state in a line (games.Describer): the hand, the seat's number,
// its credits, the pot and what it has to call.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var v struct {
		Round       int    `json:"round"`
		RoundsTotal int    `json:"rounds_total"`
		Value       *int   `json:"value"`
		Credits     *int64 `json:"credits"`
		ToCall      *int64 `json:"to_call"`
		Pot         int64  `json:"pot"`
	}
	if json.Unmarshal(state.Bytes(), &v) != nil || v.Round < 1 {
		return ""
	}
	s := fmt.Sprintf("Hand %d of %d", v.Round, v.RoundsTotal)
	if v.Value != nil {
		s += fmt.Sprintf(": your number is %d", *v.Value)
	}
	s += fmt.Sprintf(". The pot is %d", v.Pot)
	if v.ToCall != nil && *v.ToCall > 0 {
		s += fmt.Sprintf("; %d to call", *v.ToCall)
	}
	if v.Credits != nil {
		s += fmt.Sprintf(". You have %d credits", *v.Credits)
	}
	return s + "."
}

// DescribeAnswers lists the prompt's actions (games.Describer), each with optional table talk.
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	var out []games.AnswerForm
	for _, a := range p.Legal {
		var bd struct {
			Amount int64 `json:"amount"`
			Min    int64 `json:"min"`
			Max    int64 `json:"max"`
		}
		_ = json.Unmarshal(a.Bounds, &bd)
		switch a.Name {
		case ActionCheck:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "check", "message": "<optional table talk>"`, Note: " to check"})
		case ActionFold:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "fold", "message": "<optional table talk>"`, Note: " to fold"})
		case ActionCall:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "call", "message": "<optional table talk>"`, Note: fmt.Sprintf(" to call %d", bd.Amount)})
		case ActionRaise:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "raise", "amount": <` + strconv.FormatInt(bd.Min, 10) + ` to ` + strconv.FormatInt(bd.Max, 10) + `>, "message": "<optional table talk>"`, Note: " to raise the bet by amount"})
		}
	}
	return out
}

// DescribeResult is a finished match's ranking in words (games.Describer), from Result.Reveal.
func (Engine) DescribeResult(r games.Result) string {
	var rv struct {
		Ranking []rankEntry `json:"ranking"`
	}
	if json.Unmarshal(r.Reveal, &rv) != nil || len(rv.Ranking) == 0 {
		return ""
	}
	s := standings(rv.Ranking, nil) + "."
	if r.Abandoned != "" {
		s = "Stopped before its end (" + r.Abandoned + "); standings so far: " + s
	}
	return s
}

// Stats are a finished match's figures per house seat (games.Statser), for records and
// reputations (§2.8, J32): credits and busted from the end line's ranking (or Result.Reveal);
// timeouts, the seat's timeout lines; raises, its raise actions; bluffs, its raises made holding
// a value ≤ low_value_max (read from its deal_private lines: present only when events is the
// full log, the server's; absent otherwise); caught, the showdowns where it raised in the hand,
// was revealed, and did not win.
func (Engine) Stats(r games.Result, events []games.Event) map[int]map[string]float64 {
	var ranking []rankEntry
	low := DefaultConfig().LowValueMax
	timeouts, raises, bluffs, caught := map[int]float64{}, map[int]float64{}, map[int]float64{}, map[int]float64{}
	values := map[[2]int]int{}
	raised := map[[2]int]bool{}
	full := false
	for _, e := range events {
		l, ok := readLine(e)
		if !ok {
			continue
		}
		switch e.Type {
		case "match_start":
			if l.Config != nil {
				low = l.Config.LowValueMax
			}
		case "deal_private":
			if l.Seat != nil {
				values[[2]int{l.Round, *l.Seat}] = l.Value
				full = true
			}
		case "action":
			if l.Seat != nil && l.Action == ActionRaise {
				raises[*l.Seat]++
				raised[[2]int{l.Round, *l.Seat}] = true
				if v, ok := values[[2]int{l.Round, *l.Seat}]; ok && v <= low {
					bluffs[*l.Seat]++
				}
			}
		case "showdown":
			for _, rv := range l.Reveals {
				if raised[[2]int{l.Round, rv.Seat}] && (len(l.Winners) != 1 || l.Winners[0] != rv.Seat) {
					caught[rv.Seat]++
				}
			}
		case "timeout":
			if l.Seat != nil {
				timeouts[*l.Seat]++
			}
		case "match_end", "match_abandoned":
			ranking = l.Ranking
		}
	}
	if ranking == nil {
		var rv struct {
			Ranking []rankEntry `json:"ranking"`
		}
		if json.Unmarshal(r.Reveal, &rv) == nil {
			ranking = rv.Ranking
		}
	}
	out := map[int]map[string]float64{}
	for _, e := range ranking {
		busted := 0.0
		if e.Busted {
			busted = 1
		}
		fig := map[string]float64{
			"credits": float64(e.Credits), "busted": busted, "timeouts": timeouts[e.Seat],
			"raises": raises[e.Seat], "caught": caught[e.Seat],
		}
		if full {
			fig["bluffs"] = bluffs[e.Seat]
		}
		out[breakroom.HouseSeat(e.Seat)] = fig
	}
	return out
}
