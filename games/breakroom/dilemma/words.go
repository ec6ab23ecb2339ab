package dilemma

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/breakroom"
)

// The Dilemma in words, for any door that renders a game through the contract: games.Narrator
// (a live feed's narration, a replay's reveal card), games.Describer (an assistant's move and
// result) and games.Statser (a finished match's figures, for reputations). Names are keyed by
// house seat (wire seat + 1), as the contract's are; the words name players by name, else by
// their wire seat ("seat 2").
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
	_ games.Statser   = Engine{}
)

// line is the union of the members the words read from any Dilemma line.
type line struct {
	Round      int             `json:"round"`
	Iteration  int             `json:"iteration"`
	Iterations int             `json:"iterations"`
	Seat       *int            `json:"seat"`
	Turn       *int            `json:"turn"`
	Text       string          `json:"text"`
	Action     string          `json:"action"`
	Auto       json.RawMessage `json:"auto"`
	Strikes    int             `json:"strikes"`
	Pairs      [][2]int        `json:"pairs"`
	Bye        *int            `json:"bye"`
	Pair       [2]int          `json:"pair"`
	Choices    []string        `json:"choices"`
	Points     []int64         `json:"points"`
	Reason     string          `json:"reason"`
	Ranking    []rankEntry     `json:"ranking"`
	Players    []playerEntry   `json:"players"`
	Config     *Config         `json:"config"`
}

type rankEntry struct {
	Rank       int     `json:"rank"`
	Seat       int     `json:"seat"`
	Name       string  `json:"name"`
	Score      float64 `json:"score"`
	Points     int64   `json:"points"`
	Iterations int64   `json:"iterations"`
	Cooperated int64   `json:"cooperated"`
	Defected   int64   `json:"defected"`
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
// breakroom.DisplayNames of its players (pubkey and name) in seat order, the names the table's
// seated message gives (breakroom-protocol-v0.md "display_name": how the table and its
// spectators name each player), so an agent with no name is its generated name ("Amber
// Otter"), never "seat N". A player with neither pubkey nor name is left out ("seat N").
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
				ids[i].Name = "" // a house bot's name is its table name, as seated names it
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

// score writes a mean score as match_end does ("2.75").
func score(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// standings is a ranking in words: "1. Ada 3.25 (13 points in 4 iterations); 2. …".
func standings(r []rankEntry, names map[int]string) string {
	parts := make([]string, len(r))
	for i, e := range r {
		n := e.Name
		if n == "" {
			n = name(names, e.Seat)
		}
		parts[i] = fmt.Sprintf("%d. %s %s (%d points in %d iterations)", e.Rank, n, score(e.Score), e.Points, e.Iterations)
	}
	return strings.Join(parts, "; ")
}

// Narrate is one line in words (games.Narrator): every line of the log, the private ones as the
// replay shows them after the end; a line it cannot read is its type alone.
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
		s := fmt.Sprintf("The Dilemma begins with %d players: %s. Every pair meets once, for a hidden number of iterations.", len(l.Players), strings.Join(n, ", "))
		if c := l.Config; c != nil {
			s += fmt.Sprintf(" After each iteration play stops with chance 1 in %d (at most %d).", c.StopOneIn, c.MaxIterations)
		}
		return s
	case "round_start":
		pairs := make([]string, len(l.Pairs))
		for i, p := range l.Pairs {
			pairs[i] = name(names, p[0]) + " meets " + name(names, p[1])
		}
		s := fmt.Sprintf("Round %d: %s.", l.Round, strings.Join(pairs, ", "))
		if l.Bye != nil {
			s += " " + name(names, *l.Bye) + " has a bye."
		}
		return s
	case "message":
		return seat() + " says: " + l.Text
	case "iteration_end":
		return fmt.Sprintf("Round %d, iteration %d is over.", l.Round, l.Iteration)
	case "round_end":
		return fmt.Sprintf("Round %d ends after %d iterations.", l.Round, l.Iterations)
	case "sit_out":
		return seat() + " missed three deadlines in a row and sits out, cooperating automatically."
	case "sit_in":
		return seat() + " is back at the table."
	case "action_private":
		if len(l.Auto) > 0 {
			return fmt.Sprintf("%s, sitting out, was played as %s (round %d, iteration %d).", seat(), l.Action, l.Round, l.Iteration)
		}
		return fmt.Sprintf("%s chose to %s (round %d, iteration %d).", seat(), l.Action, l.Round, l.Iteration)
	case "timeout_private":
		var auto string
		_ = json.Unmarshal(l.Auto, &auto)
		return fmt.Sprintf("%s missed the deadline and was played as %s (round %d, iteration %d, strike %d).", seat(), auto, l.Round, l.Iteration, l.Strikes)
	case "iteration_private":
		if len(l.Choices) == 2 && len(l.Points) == 2 {
			return fmt.Sprintf("Round %d, iteration %d: %s (%s) against %s (%s): %d to %d.", l.Round, l.Iteration,
				name(names, l.Pair[0]), l.Choices[0], name(names, l.Pair[1]), l.Choices[1], l.Points[0], l.Points[1])
		}
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
// winners, and a table of every seat's rank, score, points, iterations and choices. False
// before the end line or when it cannot be read.
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
			p.Rows = append(p.Rows, []string{strconv.Itoa(r.Rank), n, score(r.Score), strconv.FormatInt(r.Points, 10),
				strconv.FormatInt(r.Iterations, 10), strconv.FormatInt(r.Cooperated, 10), strconv.FormatInt(r.Defected, 10)})
		}
		p.Head = []string{"Rank", "Player", "Score", "Points", "Iterations", "Cooperated", "Defected"}
		lead := " wins with the best mean score per iteration."
		if len(winners) > 1 {
			lead = " share first place with the best mean score per iteration."
		}
		if ev.Type == "match_abandoned" {
			lead = " led when the match was stopped; these are the standings so far."
		}
		p.Lead = []games.Run{{Text: strings.Join(winners, " and "), Strong: true}, {Text: lead}}
		return p, true
	}
	return games.Panel{}, false
}

// DescribeState is a prompt's state in a line (games.Describer): the round, the iteration, the
// opponent and the seat's points so far.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var v struct {
		Round       int   `json:"round"`
		RoundsTotal int   `json:"rounds_total"`
		Iteration   int   `json:"iteration"`
		Opponent    *int  `json:"opponent"`
		Points      int64 `json:"points"`
		Played      int64 `json:"iterations_played"`
		Current     []struct {
			Them string `json:"them"`
		} `json:"current"`
	}
	if json.Unmarshal(state.Bytes(), &v) != nil || v.Round < 1 {
		return ""
	}
	s := fmt.Sprintf("Round %d of %d, iteration %d", v.Round, v.RoundsTotal, v.Iteration)
	if v.Opponent != nil {
		s += fmt.Sprintf(": you face seat %d", *v.Opponent)
		if n := len(v.Current); n > 0 {
			s += fmt.Sprintf(", who chose %s last time", map[string]string{"C": "cooperate", "D": "defect"}[v.Current[n-1].Them])
		}
	}
	return s + fmt.Sprintf(". You have %d points from %d iterations.", v.Points, v.Played)
}

// DescribeAnswers lists the two choices (games.Describer), each with optional table talk.
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	var out []games.AnswerForm
	for _, a := range p.Legal {
		switch a.Name {
		case ActionCooperate:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "cooperate", "message": "<optional table talk>"`, Note: " to cooperate"})
		case ActionDefect:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "defect", "message": "<optional table talk>"`, Note: " to defect"})
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
// reputations (J32): score, points, iterations, cooperated, defected from the end line's ranking
// (or Result.Reveal), and timeouts, the seat's timeout_private lines among events (the log after
// the end, when they are public).
func (Engine) Stats(r games.Result, events []games.Event) map[int]map[string]float64 {
	var ranking []rankEntry
	timeouts := map[int]float64{}
	for _, e := range events {
		l, ok := readLine(e)
		if !ok {
			continue
		}
		switch e.Type {
		case "match_end", "match_abandoned":
			ranking = l.Ranking
		case "timeout_private", "timeout":
			if l.Seat != nil {
				timeouts[*l.Seat]++
			}
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
		out[breakroom.HouseSeat(e.Seat)] = map[string]float64{
			"score": e.Score, "points": float64(e.Points), "iterations": float64(e.Iterations),
			"cooperated": float64(e.Cooperated), "defected": float64(e.Defected), "timeouts": timeouts[e.Seat],
		}
	}
	return out
}
