package werewolf

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/breakroom"
)

// Werewolf in words, for any door that renders a game through the contract: games.Narrator (a
// live feed's narration, the transcript, a replay's reveal card), games.Describer (an
// assistant's move and result) and games.Statser (a finished match's figures, for reputations).
// Names are keyed by house seat (wire seat + 1), as the contract's are; the words name players
// by name, else by their wire seat ("seat 2").
var (
	_ games.Narrator  = Engine{}
	_ games.Describer = Engine{}
	_ games.Statser   = Engine{}
)

// line is the union of the members the words read from any Werewolf line.
type line struct {
	Round   int             `json:"round"`
	Phase   string          `json:"phase"`
	Seat    *int            `json:"seat"`
	Turn    *int            `json:"turn"`
	Text    string          `json:"text"`
	Action  string          `json:"action"`
	Target  *int            `json:"target"`
	Auto    json.RawMessage `json:"auto"`
	Strikes int             `json:"strikes"`
	Role    string          `json:"role"`
	Pack    []int           `json:"pack"`
	IsWolf  bool            `json:"is_wolf"`
	Deaths  []int           `json:"deaths"`
	How     string          `json:"how"`
	Votes   []struct {
		Seat   int  `json:"seat"`
		Target *int `json:"target"`
	} `json:"votes"`
	Exiled  *int          `json:"exiled"`
	Winner  string        `json:"winner"`
	Reason  string        `json:"reason"`
	Ranking []rankEntry   `json:"ranking"`
	Players []playerEntry `json:"players"`
	Config  *Config       `json:"config"`
}

type rankEntry struct {
	Rank            int     `json:"rank"`
	Seat            int     `json:"seat"`
	Name            string  `json:"name"`
	Score           float64 `json:"score"`
	Role            string  `json:"role"`
	Team            string  `json:"team"`
	Won             bool    `json:"won"`
	Alive           bool    `json:"alive"`
	Eliminated      *string `json:"eliminated"`
	EliminatedRound *int    `json:"eliminated_round"`
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

// Names reads the players' display names from match_start (games.Narrator), keyed by house
// seat: breakroom.DisplayNames of its players in seat order, the names the table's seated
// message gives, so an agent with no name is its generated name, never "seat N". A player with
// neither pubkey nor name is left out.
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

// seats is a list of wire seats in words: "Ada, Bo and seat 3".
func seats(names map[int]string, ss []int) string {
	n := make([]string, len(ss))
	for i, s := range ss {
		n[i] = name(names, s)
	}
	switch len(n) {
	case 0:
		return "nobody"
	case 1:
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// article is "a" or "an" before a role.
func article(role string) string {
	if role == "" {
		return "a"
	}
	switch role[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	return "a"
}

// standings is a ranking in words: "1. Ada (seer, village) 1; 5. Bo (wolf, wolves) 0".
func standings(r []rankEntry, names map[int]string) string {
	parts := make([]string, len(r))
	for i, e := range r {
		n := e.Name
		if n == "" {
			n = name(names, e.Seat)
		}
		s := fmt.Sprintf("%d. %s (%s, %s) %s", e.Rank, n, e.Role, e.Team, score(e.Score))
		if e.Eliminated != nil {
			s += ", " + map[string]string{HowNight: "killed at night", HowExiled: "exiled", HowLeft: "left"}[*e.Eliminated]
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

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
	target := func() string {
		if l.Target == nil {
			return "nobody"
		}
		return name(names, *l.Target)
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
		s := fmt.Sprintf("Werewolf begins with %d players: %s.", len(l.Players), strings.Join(n, ", "))
		if c := l.Config; c != nil {
			wolves := "wolves hide"
			if c.Roles.Wolf == 1 {
				wolves = "wolf hides"
			}
			s += fmt.Sprintf(" %d %s among them; the game lasts at most %d rounds.", c.Roles.Wolf, wolves, c.MaxRounds)
		}
		return s
	case "role_private":
		if len(l.Pack) > 1 {
			return fmt.Sprintf("%s is %s %s; the pack is %s.", seat(), article(l.Role), l.Role, seats(names, l.Pack))
		}
		return fmt.Sprintf("%s is %s %s.", seat(), article(l.Role), l.Role)
	case "round_start":
		return fmt.Sprintf("Round %d.", l.Round)
	case "phase":
		switch l.Phase {
		case PhaseNight:
			return fmt.Sprintf("Night %d falls. Everyone closes their eyes.", l.Round)
		case PhaseDiscussion:
			return fmt.Sprintf("Day %d: the village talks.", l.Round)
		case PhaseVote:
			return fmt.Sprintf("Day %d: the village votes.", l.Round)
		}
	case "action_private":
		switch l.Action {
		case ActionSleep:
			return fmt.Sprintf("%s slept (night %d).", seat(), l.Round)
		case ActionInspect:
			return fmt.Sprintf("%s inspected %s (night %d).", seat(), target(), l.Round)
		case ActionProtect:
			return fmt.Sprintf("%s protected %s (night %d).", seat(), target(), l.Round)
		case ActionKill:
			return fmt.Sprintf("%s chose to kill %s (night %d).", seat(), target(), l.Round)
		case ActionVote:
			return fmt.Sprintf("%s voted to exile %s (day %d).", seat(), target(), l.Round)
		case ActionAbstain:
			return fmt.Sprintf("%s abstained (day %d).", seat(), l.Round)
		}
	case "message_private":
		return seat() + " whispered to the pack: " + l.Text
	case "inspect_result_private":
		if l.IsWolf {
			return fmt.Sprintf("%s learned that %s is a wolf.", seat(), target())
		}
		return fmt.Sprintf("%s learned that %s is not a wolf.", seat(), target())
	case "kill_private":
		return fmt.Sprintf("The pack chose %s as its victim (night %d).", target(), l.Round)
	case "timeout_private", "timeout":
		var auto string
		_ = json.Unmarshal(l.Auto, &auto)
		return fmt.Sprintf("%s missed the deadline and was played as %s (strike %d).", seat(), auto, l.Strikes)
	case "dawn":
		if len(l.Deaths) == 0 {
			return fmt.Sprintf("Dawn %d: nobody died in the night.", l.Round)
		}
		return fmt.Sprintf("Dawn %d: %s did not wake up.", l.Round, seats(names, l.Deaths))
	case "eliminated":
		switch l.How {
		case HowNight:
			return fmt.Sprintf("%s was killed in the night. They were %s %s.", seat(), article(l.Role), l.Role)
		case HowExiled:
			return fmt.Sprintf("%s is exiled by the village. They were %s %s.", seat(), article(l.Role), l.Role)
		case HowLeft:
			return fmt.Sprintf("%s missed three deadlines in a row and left the game. They were %s %s.", seat(), article(l.Role), l.Role)
		}
	case "message":
		return seat() + " says: " + l.Text
	case "action":
		switch l.Action {
		case ActionSay:
			return seat() + " spoke."
		case ActionPass:
			return seat() + " passed."
		}
	case "vote_result":
		parts := make([]string, 0, len(l.Votes))
		for _, v := range l.Votes {
			if v.Target == nil {
				parts = append(parts, name(names, v.Seat)+" abstained")
			} else {
				parts = append(parts, name(names, v.Seat)+" voted for "+name(names, *v.Target))
			}
		}
		s := fmt.Sprintf("The votes of day %d: %s.", l.Round, strings.Join(parts, ", "))
		if l.Exiled == nil {
			return s + " Nobody is exiled."
		}
		return s + " " + name(names, *l.Exiled) + " is exiled."
	case "game_over":
		switch l.Winner {
		case WinnerVillage:
			return fmt.Sprintf("The village wins in round %d: no wolf is left.", l.Round)
		case WinnerWolves:
			return fmt.Sprintf("The wolves win in round %d: they are as many as the village.", l.Round)
		case WinnerDraw:
			return fmt.Sprintf("After round %d nobody has won: the game is a draw.", l.Round)
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
			return s + ", and counts as a draw: " + standings(l.Ranking, names) + "."
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
// winning team, and a table of every seat's rank, role, team, score and fate. False before the
// end line or when it cannot be read.
func (e Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	winner := ""
	for _, ev := range events {
		if ev.Type == "game_over" {
			if l, ok := readLine(ev); ok {
				winner = l.Winner
			}
		}
		if e.Final(ev) == "" {
			continue
		}
		l, ok := readLine(ev)
		if !ok || len(l.Ranking) == 0 {
			return games.Panel{}, false
		}
		var p games.Panel
		p.Head = []string{"Rank", "Player", "Role", "Team", "Score", "Fate"}
		for _, r := range l.Ranking {
			n := r.Name
			if n == "" {
				n = name(names, r.Seat)
			}
			fate := "alive"
			if r.Eliminated != nil && r.EliminatedRound != nil {
				fate = fmt.Sprintf("%s in round %d", map[string]string{HowNight: "killed", HowExiled: "exiled", HowLeft: "left"}[*r.Eliminated], *r.EliminatedRound)
			}
			p.Rows = append(p.Rows, []string{strconv.Itoa(r.Rank), n, r.Role, r.Team, score(r.Score), fate})
		}
		switch {
		case ev.Type == "match_abandoned":
			p.Lead = []games.Run{{Text: "Stopped before its end", Strong: true}, {Text: ": the match counts as a draw."}}
		case winner == WinnerVillage:
			p.Lead = []games.Run{{Text: "The village", Strong: true}, {Text: " wins: every wolf is gone."}}
		case winner == WinnerWolves:
			p.Lead = []games.Run{{Text: "The wolves", Strong: true}, {Text: " win: they are as many as the village."}}
		default:
			p.Lead = []games.Run{{Text: "A draw", Strong: true}, {Text: ": nobody won within the rounds."}}
		}
		return p, true
	}
	return games.Panel{}, false
}

// DescribeState is a prompt's state in a line (games.Describer): the round and phase, the
// seat's role, who is alive.
func (Engine) DescribeState(state games.Doc, _ int) string {
	var v struct {
		Round     int    `json:"round"`
		MaxRounds int    `json:"max_rounds"`
		Phase     string `json:"phase"`
		Role      string `json:"role"`
		Pack      []int  `json:"pack"`
		Players   []struct {
			Seat  int  `json:"seat"`
			Alive bool `json:"alive"`
		} `json:"players"`
	}
	if json.Unmarshal(state.Bytes(), &v) != nil || v.Round < 1 {
		return ""
	}
	var alive []int
	for _, p := range v.Players {
		if p.Alive {
			alive = append(alive, p.Seat)
		}
	}
	phase := map[string]string{PhaseNight: "night", PhaseDiscussion: "day discussion", PhaseVote: "day vote"}[v.Phase]
	s := fmt.Sprintf("Round %d of %d, %s. You are %s %s", v.Round, v.MaxRounds, phase, article(v.Role), v.Role)
	if len(v.Pack) > 1 {
		s += fmt.Sprintf(" (pack: %s)", seats(nil, v.Pack))
	}
	return s + fmt.Sprintf(". Alive: %s.", seats(nil, alive))
}

// DescribeAnswers lists the prompt's legal actions (games.Describer), with their target and
// message where they take one.
func (Engine) DescribeAnswers(p games.Prompt) []games.AnswerForm {
	notes := map[string]string{
		ActionSleep: " to sleep", ActionInspect: " to learn whether a seat is a wolf", ActionProtect: " to protect a seat tonight",
		ActionKill: " to pick the pack's victim", ActionSay: " to speak", ActionPass: " to stay silent",
		ActionVote: " to vote a seat out", ActionAbstain: " to abstain",
	}
	var out []games.AnswerForm
	for _, a := range p.Legal {
		var b struct {
			Targets         []int `json:"targets"`
			MaxMessageChars *int  `json:"max_message_chars"`
		}
		_ = json.Unmarshal(a.Bounds, &b)
		f := `"action": "` + a.Name + `"`
		if b.Targets != nil {
			f += `, "target": <one of ` + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(b.Targets)), ", "), "[]") + `>`
		}
		switch {
		case a.Name == ActionSay:
			f += `, "message": "<what you say>"`
		case b.MaxMessageChars != nil:
			f += `, "message": "<optional words to the pack>"`
		}
		out = append(out, games.AnswerForm{Name: a.Name, Fields: f, Note: notes[a.Name]})
	}
	return out
}

// DescribeResult is a finished match's ranking in words (games.Describer), from Result.Reveal.
func (Engine) DescribeResult(r games.Result) string {
	var rv struct {
		Ranking []rankEntry `json:"ranking"`
		Winner  string      `json:"winner"`
	}
	if json.Unmarshal(r.Reveal, &rv) != nil || len(rv.Ranking) == 0 {
		return ""
	}
	s := standings(rv.Ranking, nil) + "."
	switch {
	case r.Abandoned != "":
		return "Stopped before its end (" + r.Abandoned + "), counted as a draw: " + s
	case rv.Winner == WinnerDraw:
		return "A draw: " + s
	}
	return "The " + map[string]string{WinnerVillage: "village wins", WinnerWolves: "wolves win"}[rv.Winner] + ": " + s
}

// Stats are a finished match's figures per house seat (games.Statser), for records and
// reputations (J32): score, won (1 or 0), alive (1 or 0) from the end line's ranking (or
// Result.Reveal), and timeouts, the seat's timeout and timeout_private lines among events.
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
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	out := map[int]map[string]float64{}
	for _, e := range ranking {
		out[breakroom.HouseSeat(e.Seat)] = map[string]float64{
			"score": e.Score, "won": b(e.Won), "alive": b(e.Alive), "timeouts": timeouts[e.Seat],
		}
	}
	return out
}
