package auction

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/breakroom"
)

// The Auction in words, for any door that renders a game through the contract: games.Narrator
// (a live feed's narration, a replay's reveal card), games.Describer (an assistant's move and
// result) and games.Statser (a finished match's figures, for reputations). Names are keyed by
// house seat (wire seat + 1), as the contract's are; the words name players by name, else by
// their wire seat ("seat 2").
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
	_ games.Statser   = Engine{}
)

// line is the union of the members the words read from any Auction line.
type line struct {
	Round   int             `json:"round"`
	Seat    *int            `json:"seat"`
	Turn    *int            `json:"turn"`
	Text    string          `json:"text"`
	Action  string          `json:"action"`
	Amount  *int64          `json:"amount"`
	Auto    json.RawMessage `json:"auto"`
	Strikes int             `json:"strikes"`
	Value   int64           `json:"value"`
	Sold    bool            `json:"sold"`
	Winner  *int            `json:"winner"`
	Price   *int64          `json:"price"`
	Reason  string          `json:"reason"`
	Ranking []rankEntry     `json:"ranking"`
	Players []playerEntry   `json:"players"`
	Config  *Config         `json:"config"`
}

type rankEntry struct {
	Rank     int    `json:"rank"`
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Score    int64  `json:"score"`
	Cash     int64  `json:"cash"`
	LotsWon  int64  `json:"lots_won"`
	ValueWon int64  `json:"value_won"`
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
// seated message gives, so an agent with no name is its generated name, never "seat N". A player
// with neither pubkey nor name is left out ("seat N").
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

// standings is a ranking in words: "1. Ada 221 (138 cash, 1 lot worth 83); 2. …".
func standings(r []rankEntry, names map[int]string) string {
	parts := make([]string, len(r))
	for i, e := range r {
		n := e.Name
		if n == "" {
			n = name(names, e.Seat)
		}
		parts[i] = fmt.Sprintf("%d. %s %d (%d cash, %s worth %d)", e.Rank, n, e.Score, e.Cash, lots(e.LotsWon), e.ValueWon)
	}
	return strings.Join(parts, "; ")
}

func lots(n int64) string {
	if n == 1 {
		return "1 lot"
	}
	return strconv.FormatInt(n, 10) + " lots"
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
		s := fmt.Sprintf("The Auction begins with %d players: %s.", len(l.Players), strings.Join(n, ", "))
		if c := l.Config; c != nil {
			s += fmt.Sprintf(" %d lots, sealed bids, the highest pays its bid; everyone starts with %d cash, private values from 1 to %d.", c.Lots, c.StartingCash, c.ValueMax)
		}
		return s
	case "round_start":
		return fmt.Sprintf("Lot %d is up for sealed bids.", l.Round)
	case "deal_private":
		return fmt.Sprintf("%s valued lot %d at %d.", seat(), l.Round, l.Value)
	case "message":
		return seat() + " says: " + l.Text
	case "lot_result":
		if l.Sold && l.Winner != nil && l.Price != nil {
			return fmt.Sprintf("Lot %d goes to %s for %d.", l.Round, name(names, *l.Winner), *l.Price)
		}
		return fmt.Sprintf("Lot %d is unsold: every seat passed.", l.Round)
	case "sit_out":
		return seat() + " missed its deadlines too many times in a row and sits out, passing automatically."
	case "sit_in":
		return seat() + " is back at the table."
	case "action_private":
		switch {
		case len(l.Auto) > 0:
			return fmt.Sprintf("%s, sitting out, passed on lot %d.", seat(), l.Round)
		case l.Action == ActionBid && l.Amount != nil:
			return fmt.Sprintf("%s bid %d on lot %d.", seat(), *l.Amount, l.Round)
		}
		return fmt.Sprintf("%s passed on lot %d.", seat(), l.Round)
	case "timeout_private":
		return fmt.Sprintf("%s missed the deadline and passed on lot %d (strike %d).", seat(), l.Round, l.Strikes)
	case "match_end":
		if len(l.Ranking) > 0 {
			return "The auction is over. " + standings(l.Ranking, names) + "."
		}
		return "The auction is over."
	case "match_abandoned":
		s := "The auction was stopped before its end"
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
// winners, and a table of every seat's rank, score, cash, lots won and value won. False before
// the end line or when it cannot be read.
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
			p.Rows = append(p.Rows, []string{strconv.Itoa(r.Rank), n, strconv.FormatInt(r.Score, 10), strconv.FormatInt(r.Cash, 10),
				strconv.FormatInt(r.LotsWon, 10), strconv.FormatInt(r.ValueWon, 10)})
		}
		p.Head = []string{"Rank", "Player", "Score", "Cash", "Lots won", "Value won"}
		lead := " wins with the most cash plus value won."
		if len(winners) > 1 {
			lead = " share first place with the most cash plus value won."
		}
		if ev.Type == "match_abandoned" {
			lead = " led when the auction was stopped; these are the standings so far."
		}
		p.Lead = []games.Run{{Text: strings.Join(winners, " and "), Strong: true}, {Text: lead}}
		return p, true
	}
	return games.Panel{}, false
}

// DescribeState is a prompt's state in a line (games.Describer): the lot, the seat's value for
// it, its cash and what it has won.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var v struct {
		Round     int    `json:"round"`
		LotsTotal int    `json:"lots_total"`
		Value     *int64 `json:"value"`
		Cash      int64  `json:"cash"`
		Holdings  []struct {
			Value int64 `json:"value"`
		} `json:"holdings"`
	}
	if json.Unmarshal(state.Bytes(), &v) != nil || v.Round < 1 {
		return ""
	}
	s := fmt.Sprintf("Lot %d of %d", v.Round, v.LotsTotal)
	if v.Value != nil {
		s += fmt.Sprintf(": you value it at %d", *v.Value)
	}
	var won int64
	for _, h := range v.Holdings {
		won += h.Value
	}
	return s + fmt.Sprintf(". You have %d cash and %s worth %d.", v.Cash, lots(int64(len(v.Holdings))), won)
}

// DescribeAnswers lists the answers a prompt offers (games.Describer): bid within its bounds
// and pass, each with optional table talk.
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	var out []games.AnswerForm
	for _, a := range p.Legal {
		switch a.Name {
		case ActionBid:
			var b struct{ Min, Max int64 }
			_ = json.Unmarshal(a.Bounds, &b)
			out = append(out, games.AnswerForm{Name: a.Name,
				Fields: `"action": "bid", "amount": <an integer from ` + strconv.FormatInt(b.Min, 10) + ` to ` + strconv.FormatInt(b.Max, 10) + `>, "message": "<optional table talk>"`,
				Note:   " to bid; the highest bid wins and pays its bid"})
		case ActionPass:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "pass", "message": "<optional table talk>"`, Note: " to pass on this lot"})
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
// reputations (J32): score, cash, lots_won, value_won from the end line's ranking (or
// Result.Reveal), and timeouts, the seat's timeout_private lines among events (the log after
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
			"score": float64(e.Score), "cash": float64(e.Cash), "lots_won": float64(e.LotsWon),
			"value_won": float64(e.ValueWon), "timeouts": timeouts[e.Seat],
		}
	}
	return out
}
