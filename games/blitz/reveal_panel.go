package blitz

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"arena/games"
)

// RevealPanel is the round page's reveal card (games.Narrator) from the last public
// round.revealed (§11.4): the mole (named when names has it), its task and the seats it names,
// the rungs reached of 3; the standings (rank, seat, name, payout and net in CCD); the round's
// moments by turn. False when the events hold no round.revealed or its payload does not decode.
func (e *Engine) RevealPanel(events []games.Event, names map[int]string) (games.Panel, bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == "round.revealed" {
			return revealPanel(events[i].Payload, names)
		}
	}
	return games.Panel{}, false
}

// panelReveal is what the reveal card reads of a §9 reveal.
type panelReveal struct {
	Mole int `json:"mole"`
	Task struct {
		Kind     string `json:"kind"`
		Category string `json:"category"`
		Named    []int  `json:"named"`
	} `json:"task"`
	Rungs     []int `json:"rungs"`
	Standings []struct {
		Rank   int    `json:"rank"`
		Seat   int    `json:"seat"`
		Name   string `json:"name"`
		Payout int64  `json:"payout"`
		Net    int64  `json:"net"`
	} `json:"standings"`
	Moments []struct {
		Turn int    `json:"turn"`
		What string `json:"what"`
	} `json:"moments"`
}

func revealPanel(payload json.RawMessage, names map[int]string) (games.Panel, bool) {
	var r panelReveal
	if json.Unmarshal(payload, &r) != nil {
		return games.Panel{}, false
	}
	mole := fmt.Sprintf("seat %d", r.Mole)
	if n := names[r.Mole]; n != "" {
		mole += " (" + n + ")"
	}
	tail := " (" + r.Task.Category + ")"
	if len(r.Task.Named) > 0 {
		seats := make([]string, len(r.Task.Named))
		for i, s := range r.Task.Named {
			seats[i] = strconv.Itoa(s)
		}
		tail += ", naming seats " + strings.Join(seats, ", ")
	}
	tail += fmt.Sprintf(". Rungs reached: %d of 3.", len(r.Rungs))
	p := games.Panel{Lead: []games.Run{
		{Text: "The mole was "}, {Text: mole, Strong: true}, {Text: ". Its task: "}, {Text: r.Task.Kind, Strong: true}, {Text: tail},
	}}
	if len(r.Standings) > 0 {
		p.Head = []string{"#", "Seat", "Name", "Payout (CCD)", "Net"}
		for _, s := range r.Standings {
			p.Rows = append(p.Rows, []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Seat), s.Name, ccdRounded(s.Payout), ccdRounded(s.Net)})
		}
	}
	if len(r.Moments) > 0 {
		p.ListTitle = "Three moments"
		for _, m := range r.Moments {
			p.List = append(p.List, fmt.Sprintf("Turn %d: %s", m.Turn, m.What))
		}
	}
	return p, true
}

// ccdRounded renders microCCD as CCD rounded to two decimals, trailing zeros dropped:
// 200000000 → "200", -1500000 → "-1.5", 168456789 → "168.46".
func ccdRounded(micro int64) string {
	s := strconv.FormatFloat(float64(micro)/1e6, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}
