package blitz

import (
	"encoding/json"
	"fmt"
	"strings"

	"arena/games"
)

var (
	_ games.Narrator  = (*Engine)(nil)
	_ games.Describer = (*Engine)(nil)
)

// Names reads the seats' display names from the public seat.taken events (games.Narrator).
func (e *Engine) Names(events []games.Event) map[int]string { return seatNames(events) }

// Narrate puts one public event in words (games.Narrator): the round page's feed line.
func (e *Engine) Narrate(ev games.Event, names map[int]string) string { return describe(ev, names) }

// Final names the last public event a live feed waits for (games.Narrator): round.revealed
// (§11.4) is games.EndRevealed, round.abandoned (Abandon: nothing settles) games.EndAbandoned.
func (e *Engine) Final(ev games.Event) string {
	switch ev.Type {
	case "round.revealed":
		return games.EndRevealed
	case "round.abandoned":
		return games.EndAbandoned
	}
	return ""
}

// seatNames reads the display names from the public seat.taken events.
func seatNames(evs []games.Event) map[int]string {
	names := map[int]string{}
	for _, e := range evs {
		if e.Type != "seat.taken" {
			continue
		}
		var p struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		}
		if json.Unmarshal(e.Payload, &p) == nil && p.Seat > 0 {
			names[p.Seat] = p.Name
		}
	}
	return names
}

// kindWords are seat.taken's kinds in words (§15's ots, byo, arena, and the house of transcripts
// written before seat.taken used them); any other kind shows as it is.
var kindWords = map[string]string{"ots": "off-the-shelf agent", "byo": "own agent", "arena": "arena agent", "house": "house agent"}

func who(names map[int]string, seat int) string {
	if n := names[seat]; n != "" {
		return fmt.Sprintf("seat %d (%s)", seat, n)
	}
	return fmt.Sprintf("seat %d", seat)
}

// describe puts one public event in words. Unknown types show their type alone: a payload the
// page does not know is not echoed (it shows only what it understands).
func describe(e games.Event, names map[int]string) string {
	var p map[string]json.RawMessage
	_ = json.Unmarshal(e.Payload, &p)
	num := func(k string) int {
		var n int
		_ = json.Unmarshal(p[k], &n)
		return n
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(p[k], &s)
		return s
	}
	switch e.Type {
	case "round.created":
		var f struct {
			Name  string `json:"name"`
			Seats int    `json:"seats"`
			Turns int    `json:"turns"`
		}
		_ = json.Unmarshal(p["format"], &f)
		return fmt.Sprintf("Round %s opened: %s, %d seats, %d turns.", e.Round, f.Name, f.Seats, f.Turns)
	case "seat.taken":
		kind := str("kind")
		if w, ok := kindWords[kind]; ok {
			kind = w
		}
		return fmt.Sprintf("%s took seat %d (%s).", str("name"), num("seat"), kind)
	case "scouting.started":
		return fmt.Sprintf("Scouting. The mole's task this round is of the %q kind.", str("task_category"))
	case "round.opened":
		return "Scouting is over: the off-the-shelf seats' playbooks are committed on chain with the round's draw."
	case "turn.started":
		return fmt.Sprintf("Turn %d of %d.", num("turn"), num("of"))
	case "phase.started":
		return fmt.Sprintf("Phase: %s.", str("phase"))
	case "exchange.started":
		return fmt.Sprintf("Talk, exchange %d of %d.", num("exchange"), num("of"))
	case "message.public":
		return fmt.Sprintf("%s says: %s", who(names, num("from")), str("text"))
	case "talking":
		var parties []int
		_ = json.Unmarshal(p["parties"], &parties)
		if len(parties) == 2 {
			return fmt.Sprintf("%s and %s talk in private.", who(names, parties[0]), who(names, parties[1]))
		}
		if from, to := num("from"), num("to"); from > 0 && to > 0 {
			return fmt.Sprintf("%s and %s talk in private.", who(names, from), who(names, to))
		}
		return "Two seats talk in private."
	case "commitment.sealed":
		// The public half: parties and due turn; amount and condition stay sealed (§15).
		return fmt.Sprintf("%s sealed a promise to %s, due turn %d.", who(names, num("payer")), who(names, num("payee")), num("due"))
	case "commitment.settled":
		return fmt.Sprintf("A promise was settled: %s.", str("outcome"))
	case "mole.rung":
		return fmt.Sprintf("A bell: the mole reached rung %d.", num("rung"))
	case "agent.eliminated":
		return fmt.Sprintf("%s is out.", who(names, num("seat")))
	case "agent.dark":
		var dark bool
		_ = json.Unmarshal(p["dark"], &dark)
		if dark {
			return fmt.Sprintf("%s went dark.", who(names, num("seat")))
		}
		return fmt.Sprintf("%s is back.", who(names, num("seat")))
	case "badge.minted":
		return fmt.Sprintf("%s's lent Badge was registered on chain.", who(names, num("seat")))
	case "agent.scripted":
		return fmt.Sprintf("%s answered from its fallback policy.", who(names, num("seat")))
	case "accusation.resolved":
		var ok bool
		_ = json.Unmarshal(p["correct"], &ok)
		verdict := "wrong"
		if ok {
			verdict = "right"
		}
		return fmt.Sprintf("%s accused %s: %s.", who(names, num("seat")), who(names, num("on")), verdict)
	case "bounty.paid":
		return "The bounty was paid."
	case "round.settled":
		return "The round is settled."
	case "round.revealed":
		return "The round is revealed."
	case "round.abandoned":
		why := ""
		if r := str("reason"); r != "" && r != "abandoned" {
			why = " (" + r + ")"
		}
		return "The round was abandoned" + why + ": nothing settles and every entry is returned."
	}
	if strings.HasPrefix(e.Type, "anchor.") || e.Type == "transcript.anchored" {
		return "Anchored on chain (" + e.Type + ")."
	}
	return e.Type
}
