package adjudicate

import (
	"sort"

	"arena/games/breakroom/diplomacy/board"
)

// RetreatOutcome is the resolution of a retreat phase (§6.8).
type RetreatOutcome struct {
	// Results has one entry per order given and one disband for each dislodged unit without an
	// order, sorted by the unit's province, then by order text.
	Results []Result
	// Retreated are the units that retreated, at their new places, sorted by province.
	Retreated []board.Unit
	// Disbanded are the dislodged units that did not retreat, sorted by province.
	Disbanded []board.Unit
}

// Retreats resolves a retreat phase: dislodged is MovementOutcome.Dislodged, orders the retreat
// and disband orders given. A retreat to a place not in the unit's To list, an order for a unit
// that was not dislodged, and every order of a unit given more than one, are void and the unit
// disbands (DATC 6.H.4, 6.H.5, 6.H.15). Two or more units retreating to one province all disband
// (6.H.7, 6.H.8). A dislodged unit without an order disbands.
func Retreats(dislodged []Dislodgement, orders []Order) RetreatOutcome {
	at := map[string]int{}
	for i, d := range dislodged {
		at[d.Unit.Loc.Province()] = i
	}
	var out RetreatOutcome
	count := make([]int, len(dislodged))
	orderOf := make([]Order, len(dislodged))
	fits := func(o Order) (int, bool) {
		i, ok := at[o.Loc.Province()]
		if !ok || (o.Kind != board.Retreat && o.Kind != board.Disband) ||
			dislodged[i].Unit.Power != o.Power || dislodged[i].Unit.Type != o.Unit {
			return 0, false
		}
		return i, true
	}
	for _, o := range orders {
		i, ok := fits(o)
		if !ok {
			out.Results = append(out.Results, Result{Power: o.Power, Order: o.Order, Reason: Void})
			continue
		}
		count[i]++
		orderOf[i] = o
	}
	target := make([]board.Loc, len(dislodged)) // "" = disband
	into := map[string]int{}
	for i, d := range dislodged {
		if count[i] != 1 || orderOf[i].Kind != board.Retreat {
			continue
		}
		if l, ok := retreatTo(d, orderOf[i].Dest); ok {
			target[i] = l
			into[l.Province()]++
		}
	}
	for _, o := range orders {
		if i, ok := fits(o); ok && count[i] > 1 {
			out.Results = append(out.Results, Result{Power: o.Power, Order: o.Order, Reason: Void})
		}
	}
	for i, d := range dislodged {
		moved := target[i] != "" && into[target[i].Province()] == 1
		if moved {
			out.Retreated = append(out.Retreated, board.Unit{Power: d.Unit.Power, Type: d.Unit.Type, Loc: target[i]})
		} else {
			out.Disbanded = append(out.Disbanded, d.Unit)
		}
		switch {
		case count[i] > 1:
		case count[i] == 0:
			out.Results = append(out.Results, Result{Power: d.Unit.Power, Succeeds: true,
				Order: board.Order{Kind: board.Disband, Unit: d.Unit.Type, Loc: d.Unit.Loc}})
		case orderOf[i].Kind == board.Disband:
			out.Results = append(out.Results, Result{Power: d.Unit.Power, Order: orderOf[i].Order, Succeeds: true})
		case target[i] == "":
			out.Results = append(out.Results, Result{Power: d.Unit.Power, Order: orderOf[i].Order, Reason: Void})
		case !moved:
			out.Results = append(out.Results, Result{Power: d.Unit.Power, Order: orderOf[i].Order, Reason: Bounced})
		default:
			out.Results = append(out.Results, Result{Power: d.Unit.Power, Order: orderOf[i].Order, Succeeds: true})
		}
	}
	sortUnits(out.Retreated)
	sortUnits(out.Disbanded)
	sortResults(out.Results)
	return out
}

// retreatTo matches destination dest against d's options: an exact place, or a province without
// coast that only one listed coast fits.
func retreatTo(d Dislodgement, dest board.Loc) (board.Loc, bool) {
	var match []board.Loc
	for _, l := range d.To {
		if l == dest || (dest.Coast() == "" && l.Province() == dest.Province()) {
			match = append(match, l)
		}
	}
	if len(match) == 1 {
		return match[0], true
	}
	return "", false
}

func sortUnits(us []board.Unit) {
	sort.Slice(us, func(a, b int) bool { return us[a].Loc < us[b].Loc })
}

func sortResults(rs []Result) {
	sort.SliceStable(rs, func(a, b int) bool {
		pa, pb := rs[a].Order.Loc.Province(), rs[b].Order.Loc.Province()
		if pa != pb {
			return pa < pb
		}
		sa, sb := (Order{rs[a].Power, rs[a].Order}).String(), (Order{rs[b].Power, rs[b].Order}).String()
		if sa != sb {
			return sa < sb
		}
		return !rs[a].Succeeds && rs[b].Succeeds
	})
}
