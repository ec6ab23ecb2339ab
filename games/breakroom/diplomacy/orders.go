package diplomacy

import (
	"fmt"

	"arena/games/breakroom/diplomacy/adjudicate"
	"arena/games/breakroom/diplomacy/board"
)

// OrderError is the door's refusal of an order set (§6.7): Index is the first bad order's place
// in the set (−1 when the set as a whole is refused), Text that order as sent, Reason why, in
// words an agent can act on. The protocol's code for it is illegal_move, with Error() as detail.
type OrderError struct {
	Index  int
	Text   string
	Reason string
}

func (e *OrderError) Error() string {
	if e.Index < 0 {
		return e.Reason
	}
	return fmt.Sprintf("order %d %q: %s", e.Index+1, e.Text, e.Reason)
}

// Sites are the places p may build this winter: its home centres that it owns and that are
// vacant (§6.9), in province order.
func (s State) Sites(p board.Power) []string {
	occupied := map[string]bool{}
	for _, u := range s.Units {
		occupied[u.Loc.Province()] = true
	}
	var out []string
	for _, c := range board.HomeCentres(p) {
		if s.Owners[c] == p && !occupied[c] {
			out = append(out, c)
		}
	}
	return out
}

// Builds is how many units p may build this winter: min(adjustment, sites), or 0 (§6.9).
func (s State) Builds(p board.Power) int {
	n := s.Adjustment(p)
	if k := len(s.Sites(p)); k < n {
		n = k
	}
	if n < 0 || s.Kind != board.Adjustments {
		return 0
	}
	return n
}

// CheckOrders is the door's check of power p's order set for the current phase (§6.6, §6.7): each
// text must parse (board.ParseOrder), name a unit p has where it says with the right type (a fleet
// on a split coast may omit its coast, and the order is then checked from the coast it is on),
// give one order per unit, and fit the phase: supports and convoys name units on the board of the
// named type; a retreat goes to a place in the unit's list; builds go to listed sites and removals
// name p's units, no more of either than allowed. It returns the orders normalized, or an
// *OrderError for the first refusal. An empty set is legal.
func (s State) CheckOrders(p board.Power, texts []string) ([]adjudicate.Order, error) {
	if !s.Active(p) {
		return nil, &OrderError{Index: -1, Reason: fmt.Sprintf("%s gives no orders now", p)}
	}
	if s.Over {
		return nil, &OrderError{Index: -1, Reason: "the game is over"}
	}
	var out []adjudicate.Order
	ordered := map[string]bool{}
	builds, waives, removals := 0, 0, 0
	for i, text := range texts {
		bad := func(format string, a ...any) error {
			return &OrderError{Index: i, Text: text, Reason: fmt.Sprintf(format, a...)}
		}
		o, err := board.ParseOrder(s.Kind, text)
		if err != nil {
			return nil, bad("%v", err)
		}
		switch s.Kind {
		case board.Movement:
			u, ok := s.unitAt(o.Loc.Province())
			if !ok || u.Power != p || u.Type != o.Unit {
				return nil, bad("%s has no %s at %s", p, typeName(o.Unit), o.Loc)
			}
			if o.Loc != u.Loc {
				if o.Loc.Coast() != "" {
					return nil, bad("the fleet is at %s, not %s", u.Loc, o.Loc)
				}
				o.Loc = u.Loc
				if o, err = board.ParseOrder(s.Kind, o.String()); err != nil {
					return nil, bad("from %s: %v", u.Loc, err)
				}
			}
			if o.Kind == board.SupportHold || o.Kind == board.SupportMove || o.Kind == board.Convoy {
				t, ok := s.unitAt(o.From.Province())
				if !ok || t.Type != o.Target {
					return nil, bad("there is no %s at %s", typeName(o.Target), o.From.Province())
				}
			}
		case board.Retreats:
			d, ok := s.dislodgedAt(o.Loc.Province())
			if !ok || d.Unit.Power != p || d.Unit.Type != o.Unit {
				return nil, bad("%s has no dislodged %s at %s", p, typeName(o.Unit), o.Loc)
			}
			if o.Loc != d.Unit.Loc && o.Loc.Coast() != "" {
				return nil, bad("the fleet is at %s, not %s", d.Unit.Loc, o.Loc)
			}
			o.Loc = d.Unit.Loc
			if o.Kind == board.Retreat {
				to, ok := retreatPlace(d, o.Dest)
				if !ok {
					return nil, bad("%s can retreat only to %v", d.Unit.Loc, d.To)
				}
				o.Dest = to
			}
		case board.Adjustments:
			switch o.Kind {
			case board.Build, board.Waive:
				if o.Kind == board.Build {
					if !contains(s.Sites(p), o.Loc.Province()) {
						return nil, bad("%s is not a build site of %s (sites: %v)", o.Loc.Province(), p, s.Sites(p))
					}
					if ordered[o.Loc.Province()] {
						return nil, bad("a second build in %s", o.Loc.Province())
					}
					builds++
				} else {
					waives++
				}
				if builds+waives > s.Builds(p) {
					return nil, bad("%s may build %d", p, s.Builds(p))
				}
			case board.Remove:
				u, ok := s.unitAt(o.Loc.Province())
				if !ok || u.Power != p || u.Type != o.Unit {
					return nil, bad("%s has no %s at %s", p, typeName(o.Unit), o.Loc)
				}
				if o.Loc != u.Loc && o.Loc.Coast() != "" {
					return nil, bad("the fleet is at %s, not %s", u.Loc, o.Loc)
				}
				o.Loc = u.Loc
				removals++
				if -s.Adjustment(p) < removals {
					return nil, bad("%s must remove %d", p, max(0, -s.Adjustment(p)))
				}
			}
		}
		if o.Kind != board.Waive {
			key := o.Loc.Province()
			if ordered[key] {
				return nil, bad("a second order for the unit at %s", key)
			}
			ordered[key] = true
		}
		out = append(out, adjudicate.Order{Power: p, Order: o})
	}
	return out, nil
}

func typeName(t board.UnitType) string {
	if t == board.Fleet {
		return "fleet"
	}
	return "army"
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func (s State) unitAt(prov string) (board.Unit, bool) {
	for _, u := range s.Units {
		if u.Loc.Province() == prov {
			return u, true
		}
	}
	return board.Unit{}, false
}

func (s State) dislodgedAt(prov string) (adjudicate.Dislodgement, bool) {
	for _, d := range s.Dislodged {
		if d.Unit.Loc.Province() == prov {
			return d, true
		}
	}
	return adjudicate.Dislodgement{}, false
}

// retreatPlace matches a retreat destination against d's list: the place itself, or a province
// named without coast that one listed coast fits.
func retreatPlace(d adjudicate.Dislodgement, dest board.Loc) (board.Loc, bool) {
	var match []board.Loc
	for _, l := range d.To {
		if l == dest || (dest.Coast() == "" && l.Province() == dest.Province()) {
			match = append(match, l)
		}
	}
	if len(match) != 1 {
		return "", false
	}
	return match[0], true
}
