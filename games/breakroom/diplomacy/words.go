package diplomacy

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/breakroom"
)

// Diplomacy in words, for any door that renders a game through the contract: games.Narrator (a
// live feed's narration, a replay's reveal card) and games.Describer (an assistant's move and
// result). Names are keyed by house seat (wire seat + 1), as the contract's are; the words name
// players by name, else by their wire seat ("seat 2").
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
)

// powerNames are the powers' English names.
var powerNames = map[string]string{"AUS": "Austria", "ENG": "England", "FRA": "France", "GER": "Germany",
	"ITA": "Italy", "RUS": "Russia", "TUR": "Turkey"}

func powerName(p string) string {
	if n, ok := powerNames[p]; ok {
		return n
	}
	return p
}

// wordLine is the union of the members the words read from any Diplomacy line.
type wordLine struct {
	Round      int                 `json:"round"`
	Seat       *int                `json:"seat"`
	Phase      string              `json:"phase"`
	PressRound int                 `json:"press_round"`
	Text       string              `json:"text"`
	To         []int               `json:"to"`
	Action     string              `json:"action"`
	Auto       string              `json:"auto"`
	Strikes    int                 `json:"strikes"`
	Power      string              `json:"power"`
	On         bool                `json:"on"`
	Year       int                 `json:"year"`
	Reason     string              `json:"reason"`
	Solo       *int                `json:"solo"`
	Orders     json.RawMessage     `json:"orders"`
	Results    []map[string]string `json:"results"`
	Standoffs  []string            `json:"standoffs"`
	Dislodged  []map[string]any    `json:"dislodged"`
	Counts     map[string]int      `json:"counts"`
	Assignment []struct {
		Seat  int    `json:"seat"`
		Power string `json:"power"`
	} `json:"assignment"`
	Players []struct {
		Seat   int    `json:"seat"`
		Pubkey string `json:"pubkey"`
		Name   string `json:"name"`
		House  bool   `json:"house"`
	} `json:"players"`
	Ranking []rankWords `json:"ranking"`
}

type rankWords struct {
	Rank    int    `json:"rank"`
	Seat    int    `json:"seat"`
	Name    string `json:"name"`
	Power   string `json:"power"`
	Centres int    `json:"centres"`
	Units   int    `json:"units"`
	Solo    bool   `json:"solo"`
}

func readWords(e games.Event) (wordLine, bool) {
	var l wordLine
	return l, json.Unmarshal(e.Payload, &l) == nil
}

func seatName(names map[int]string, wire int) string {
	if n := names[breakroom.HouseSeat(wire)]; n != "" {
		return n
	}
	return "seat " + strconv.Itoa(wire)
}

// Names reads the players' display names from match_start, keyed by house seat
// (breakroom.DisplayNames of its players in seat order; a house bot by its table name).
func (Engine) Names(events []games.Event) map[int]string {
	names := map[int]string{}
	for _, e := range events {
		if e.Type != "match_start" {
			continue
		}
		l, ok := readWords(e)
		if !ok {
			continue
		}
		ps := l.Players
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Seat < ps[j].Seat })
		var keep []int
		var ids []breakroom.Identity
		for i, p := range ps {
			if p.Seat < 0 || p.Seat >= Seats {
				continue
			}
			id := breakroom.Identity{Key: p.Pubkey, Name: p.Name}
			if p.House {
				id.Name = ""
			}
			ids, keep = append(ids, id), append(keep, i)
		}
		for k, n := range breakroom.DisplayNames(ids) {
			if p := ps[keep[k]]; p.Pubkey != "" || p.Name != "" {
				names[breakroom.HouseSeat(p.Seat)] = n
			}
		}
	}
	return names
}

// phaseWords is "spring 1901 movement" for "S1901M".
func phaseWords(ph string) string {
	if len(ph) != 6 {
		return ph
	}
	season := map[byte]string{'S': "spring", 'F': "fall", 'W': "winter"}[ph[0]]
	kind := map[byte]string{'M': "movement", 'R': "retreats", 'A': "adjustments"}[ph[5]]
	if season == "" || kind == "" {
		return ph
	}
	return season + " " + ph[1:5] + " " + kind
}

func standingsWords(r []rankWords, names map[int]string) string {
	parts := make([]string, len(r))
	for i, e := range r {
		n := e.Name
		if n == "" {
			n = seatName(names, e.Seat)
		}
		parts[i] = fmt.Sprintf("%d. %s (%s) %d centres", e.Rank, n, powerName(e.Power), e.Centres)
	}
	return strings.Join(parts, "; ")
}

// Narrate is one public line in words (games.Narrator).
func (Engine) Narrate(e games.Event, names map[int]string) string {
	l, ok := readWords(e)
	if !ok {
		return e.Type
	}
	who := func() string {
		if l.Seat == nil {
			return "someone"
		}
		return seatName(names, *l.Seat)
	}
	switch e.Type {
	case "match_start":
		return "A Diplomacy match begins: five powers, the standard map."
	case "powers":
		var parts []string
		for _, a := range l.Assignment {
			parts = append(parts, seatName(names, a.Seat)+" plays "+powerName(a.Power))
		}
		return "Powers dealt: " + strings.Join(parts, ", ") + "."
	case "phase_start":
		return "Round " + strconv.Itoa(l.Round) + ": " + phaseWords(l.Phase) + " opens."
	case "press_round":
		return "Press round " + strconv.Itoa(l.PressRound) + " of " + phaseWords(l.Phase) + "."
	case "message":
		return who() + " to everyone: " + l.Text
	case "message_private":
		to := "someone"
		if len(l.To) == 1 {
			to = seatName(names, l.To[0])
		}
		return who() + " writes privately to " + to + ": " + l.Text
	case "action_private":
		if l.Action == ActionOrders {
			return who() + " gives orders."
		}
		return who() + " is done talking."
	case "timeout_private":
		return fmt.Sprintf("%s missed the deadline (%s played; strike %d).", who(), l.Auto, l.Strikes)
	case "orders":
		var os map[string][]string
		_ = json.Unmarshal(l.Orders, &os)
		var ps []string
		for p := range os {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		var parts []string
		for _, p := range ps {
			parts = append(parts, powerName(p)+": "+strings.Join(os[p], ", "))
		}
		return "Orders for " + phaseWords(l.Phase) + ": " + strings.Join(parts, "; ") + "."
	case "adjudication":
		var fails []string
		for _, r := range l.Results {
			if r["result"] == "fails" {
				fails = append(fails, r["order"]+" ("+r["reason"]+")")
			}
		}
		s := fmt.Sprintf("%s resolved: %d orders succeed", phaseWords(l.Phase), len(l.Results)-len(fails))
		if len(fails) > 0 {
			s += ", these fail: " + strings.Join(fails, ", ")
		}
		if len(l.Dislodged) > 0 {
			var ds []string
			for _, d := range l.Dislodged {
				ds = append(ds, fmt.Sprint(d["unit"]))
			}
			s += "; dislodged: " + strings.Join(ds, ", ")
		}
		if len(l.Standoffs) > 0 {
			s += "; standoffs in " + strings.Join(l.Standoffs, ", ")
		}
		return s + "."
	case "civil_disorder":
		if l.On {
			return who() + " (" + powerName(l.Power) + ") falls into civil disorder: its units hold."
		}
		return who() + " (" + powerName(l.Power) + ") is back from civil disorder."
	case "centres":
		var ps []string
		for p := range l.Counts {
			ps = append(ps, p)
		}
		sort.Slice(ps, func(i, j int) bool {
			if l.Counts[ps[i]] != l.Counts[ps[j]] {
				return l.Counts[ps[i]] > l.Counts[ps[j]]
			}
			return ps[i] < ps[j]
		})
		var parts []string
		for _, p := range ps {
			parts = append(parts, fmt.Sprintf("%s %d", powerName(p), l.Counts[p]))
		}
		return fmt.Sprintf("Supply centres after %d: %s.", l.Year, strings.Join(parts, ", "))
	case "eliminated":
		return fmt.Sprintf("%s (%s) is eliminated in %d.", who(), powerName(l.Power), l.Year)
	case "game_over":
		if l.Reason == "solo" && l.Solo != nil {
			return seatName(names, *l.Solo) + " wins a solo victory."
		}
		return "The game ends at the year limit."
	case "match_end":
		return "Final ranking: " + standingsWords(l.Ranking, names) + "."
	case "match_abandoned":
		return "The match was stopped (" + l.Reason + "). Standings: " + standingsWords(l.Ranking, names) + "."
	}
	return e.Type
}

// Final names the end a line closes: match_end a match played out, match_abandoned one stopped.
func (Engine) Final(e games.Event) string {
	switch e.Type {
	case "match_end":
		return games.EndRevealed
	case "match_abandoned":
		return games.EndAbandoned
	}
	return ""
}

// RevealPanel is the end's card: the ranking as a table, once the transcript holds its end.
func (Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	for _, e := range events {
		if e.Type != "match_end" && e.Type != "match_abandoned" {
			continue
		}
		l, ok := readWords(e)
		if !ok || len(l.Ranking) == 0 {
			continue
		}
		p := games.Panel{Lead: []games.Run{{Text: "Final standings", Strong: true}, {Text: ": supply centres owned at the end."}},
			Head: []string{"Rank", "Player", "Power", "Centres", "Units"}}
		for _, r := range l.Ranking {
			n := r.Name
			if n == "" {
				n = seatName(names, r.Seat)
			}
			p.Rows = append(p.Rows, []string{strconv.Itoa(r.Rank), n, powerName(r.Power), strconv.Itoa(r.Centres), strconv.Itoa(r.Units)})
		}
		return p, true
	}
	return games.Panel{}, false
}

// DescribeState is a seat's visible_state in a sentence or two (games.Describer).
func (Engine) DescribeState(state games.Doc, seat int) string {
	var v struct {
		Phase   string              `json:"phase"`
		Step    string              `json:"step"`
		Power   string              `json:"power"`
		Units   map[string][]string `json:"units"`
		Centres map[string][]string `json:"centres"`
	}
	if json.Unmarshal(state.Bytes(), &v) != nil || v.Power == "" {
		return ""
	}
	return fmt.Sprintf("You play %s. %s, %s step. Your units: %s. Your centres: %d.", powerName(v.Power),
		phaseWords(v.Phase), v.Step, strings.Join(v.Units[v.Power], ", "), len(v.Centres[v.Power]))
}

// DescribeAnswers lists the answers the prompt's legal actions allow (games.Describer).
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	var out []games.AnswerForm
	for _, a := range p.Legal {
		switch a.Name {
		case ActionSend:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "send", "recipient": <a listed seat>, "message": "<your note>"`,
				Note: " to write privately to one power"})
		case ActionBroadcast:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "broadcast", "message": "<your note>"`, Note: " to write to every power"})
		case ActionDone:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "done"`, Note: " to end your press turn"})
		case ActionOrders:
			out = append(out, games.AnswerForm{Name: a.Name, Fields: `"action": "orders", "orders": ["<order>", …]`,
				Note: ` to give your orders, e.g. "A vie - gal", "F tri S A vie - gal"; units without an order hold`})
		}
	}
	return out
}

// DescribeResult is a finished match's ranking in words, from Result.Reveal.
func (Engine) DescribeResult(r games.Result) string {
	var rv struct {
		Ranking []rankWords `json:"ranking"`
	}
	if json.Unmarshal(r.Reveal, &rv) != nil || len(rv.Ranking) == 0 {
		return ""
	}
	s := standingsWords(rv.Ranking, nil) + "."
	if r.Abandoned != "" {
		s = "Stopped before its end (" + r.Abandoned + "); standings so far: " + s
	}
	return s
}
