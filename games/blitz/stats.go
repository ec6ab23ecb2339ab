package blitz

import (
	"encoding/json"

	"arena/games"
)

var _ games.Statser = (*Engine)(nil)

// Stats are a finished round's figures per seat (games.Statser), read from the Result's reveal
// (§11.4: the mole and the rungs it reached) and the public accusation.resolved events (§11.1):
//
//	"mole_seat"     the mole's seat (every seat's map, once the reveal names it)
//	"mole"          1 for the mole's seat
//	"rungs"         the mole's rungs reached, 0–3 (the mole's map)
//	"accused"       the seat this seat's accusation stood on, "accused_right" 1 if that was the mole
//	"accused_by"    how many accusations stood on this seat
//	"accusations"   how many accusations the round resolved (every seat's map)
//
// A reveal of another shape, or none, gives the accusations alone.
func (e *Engine) Stats(r games.Result, events []games.Event) map[int]map[string]float64 {
	var rv struct {
		Mole  int             `json:"mole"`
		Rungs json.RawMessage `json:"rungs"` // the rungs reached, e.g. [1,3], or their count
	}
	if len(r.Reveal) > 0 {
		_ = json.Unmarshal(r.Reveal, &rv) // an unknown reveal shape: accusations only
	}
	type resolved struct {
		Seat    int  `json:"seat"`
		On      int  `json:"on"`
		Correct bool `json:"correct"`
	}
	var accs []resolved
	for _, ev := range events {
		if ev.Type != "accusation.resolved" {
			continue
		}
		var a resolved
		if json.Unmarshal(ev.Payload, &a) == nil && a.Seat > 0 && a.On > 0 {
			accs = append(accs, a)
		}
	}
	out := map[int]map[string]float64{}
	seat := func(n int) map[string]float64 {
		m := out[n]
		if m == nil {
			m = map[string]float64{}
			out[n] = m
		}
		return m
	}
	for n := range r.Payouts {
		seat(n)
	}
	for _, a := range accs {
		seat(a.Seat)["accused"] = float64(a.On)
		right := 0.0
		if a.Correct {
			right = 1
		}
		seat(a.Seat)["accused_right"] = right
		seat(a.On)["accused_by"]++
	}
	if rv.Mole > 0 {
		seat(rv.Mole)["mole"] = 1
		seat(rv.Mole)["rungs"] = float64(rungCount(rv.Rungs))
	}
	for _, m := range out {
		m["accusations"] = float64(len(accs))
		if rv.Mole > 0 {
			m["mole_seat"] = float64(rv.Mole)
		}
	}
	return out
}

// rungCount reads a reveal's "rungs" as a list of rungs reached or as a count (0–3).
func rungCount(raw json.RawMessage) int {
	var list []int
	if json.Unmarshal(raw, &list) == nil {
		return len(list)
	}
	var n int
	if json.Unmarshal(raw, &n) == nil && n >= 0 && n <= 3 {
		return n
	}
	return 0
}
