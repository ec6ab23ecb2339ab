package duel

import (
	"encoding/json"
	"fmt"
	"strconv"

	"arena/games"
)

// The words every Warden game says alike, for its games.Narrator and games.Describer: seats by
// letter and name, the start's names, the end of a match, the returns. Amounts are integer
// micro-units (Unit).

// SeatOf is 1 for "A", 2 for "B", 0 otherwise.
func SeatOf(name string) int {
	switch name {
	case "A":
		return 1
	case "B":
		return 2
	}
	return 0
}

// Who is "seat A (Ada)", or "seat A" without a name in names (by seat number); "seat ?" for
// neither seat.
func Who(names map[int]string, seat int) string {
	if seat != 1 && seat != 2 {
		return "seat ?"
	}
	s := "seat " + SeatName(seat-1)
	if n := names[seat]; n != "" {
		s += " (" + n + ")"
	}
	return s
}

// WhoStart is Who starting a sentence: "Seat A (Ada)".
func WhoStart(names map[int]string, seat int) string { return "S" + Who(names, seat)[1:] }

// Percent is bps as a percent in its shortest form: 4500 → "45%", 1234 → "12.34%".
func Percent(bps int64) string { return strconv.FormatFloat(float64(bps)/100, 'f', -1, 64) + "%" }

// Names reads the seats' display names from match_started's "seats" (games.Narrator); a seat
// without a name is absent.
func Names(events []games.Event) map[int]string {
	names := map[int]string{}
	for _, e := range events {
		if e.Type != "match_started" {
			continue
		}
		var p struct {
			Seats map[string]struct {
				Name string `json:"name"`
			} `json:"seats"`
		}
		if json.Unmarshal(e.Payload, &p) == nil {
			for k, s := range p.Seats {
				if seat := SeatOf(k); seat > 0 && s.Name != "" {
					names[seat] = s.Name
				}
			}
		}
	}
	return names
}

// Final names the last public event of a match (games.Narrator): match_finished is
// games.EndRevealed, match_abandoned games.EndAbandoned, any other "".
func Final(e games.Event) string {
	switch e.Type {
	case "match_finished":
		return games.EndRevealed
	case "match_abandoned":
		return games.EndAbandoned
	}
	return ""
}

// NarrateEnd puts match_finished (who won, or a draw) or match_abandoned (why, and that the
// stakes are returned) in words; ok is false for any other event.
func NarrateEnd(e games.Event, names map[int]string) (line string, ok bool) {
	var p struct {
		Reason string `json:"reason"`
		Seats  map[string]struct {
			Result string `json:"result"`
		} `json:"seats"`
	}
	_ = json.Unmarshal(e.Payload, &p)
	switch e.Type {
	case "match_finished":
		a, b := p.Seats["A"].Result, p.Seats["B"].Result
		switch {
		case a == "draw":
			return "The match is over: a draw.", true
		case a == "win" || b == "win":
			winner := 1
			if b == "win" {
				winner = 2
			}
			return fmt.Sprintf("The match is over: %s wins.", Who(names, winner)), true
		}
		return "The match is over.", true
	case "match_abandoned":
		return fmt.Sprintf("The match was abandoned (%s): every stake is returned.", p.Reason), true
	}
	return "", false
}

// AbandonedPanel is the reveal card of a match_abandoned event: that the match was abandoned,
// why, and that every stake was returned; false when its payload does not decode.
func AbandonedPanel(e games.Event) (games.Panel, bool) {
	var p struct {
		Reason string `json:"reason"`
	}
	if json.Unmarshal(e.Payload, &p) != nil {
		return games.Panel{}, false
	}
	return games.Panel{Lead: []games.Run{{Text: "The match was "}, {Text: "abandoned", Strong: true},
		{Text: " (" + p.Reason + "): every stake was returned."}}}, true
}

// Finished is the part of a match_finished payload a reveal card reads: per seat ("A", "B")
// the gross return, net and result (micro-units), and the house's total.
type Finished struct {
	Seats map[string]struct {
		Gross  int64  `json:"gross_return"`
		Net    int64  `json:"net"`
		Result string `json:"result"`
	} `json:"seats"`
	House int64 `json:"house"`
}

// Returns is a Result's money in words (games.Describer): the gross returns of seats A and B
// and the house's take, in r.Unit; for an abandoned match a second line says why and that every
// stake was returned. "" for a Result without payouts.
func Returns(r games.Result) string {
	if len(r.Payouts) == 0 {
		return ""
	}
	out := fmt.Sprintf("Returns (gross, %s): seat A %d; seat B %d; the house %d.", r.Unit, r.Payouts[1], r.Payouts[2], r.House)
	if r.Abandoned != "" {
		return out + "\nThe match was abandoned (" + r.Abandoned + "): every stake was returned."
	}
	return out
}
