package board

import (
	"errors"
	"fmt"
	"strings"
)

// Phase is the kind of phase an order is written for (§6.4): it decides which order kinds parse.
type Phase uint8

// Phase kinds.
const (
	Movement Phase = iota + 1
	Retreats
	Adjustments
)

// OrderKind is the kind of one order (§6.6).
type OrderKind uint8

// Order kinds of §6.6.
const (
	Hold OrderKind = iota + 1
	Move
	SupportHold
	SupportMove
	Convoy
	Retreat
	Disband // retreat phase: the dislodged unit disbands
	Build
	Remove
	Waive
)

// Order is one parsed, normalized order. Unit/Loc is the ordered unit (unset for Waive);
// Target/From is the supported or convoyed unit; Dest is the move, support, convoy or retreat
// destination. Convoyed is set for a move that needs a convoy: "via convoy", or an army moving
// to a coastal province it does not border.
type Order struct {
	Kind     OrderKind
	Unit     UnitType
	Loc      Loc
	Target   UnitType
	From     Loc
	Dest     Loc
	ViaTag   bool // "via convoy" was written
	Convoyed bool
}

// ErrOrder is wrapped by every error ParseOrder returns; the message names the reason.
var ErrOrder = errors.New("illegal order")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrOrder, fmt.Sprintf(format, a...))
}

func unitLetter(t UnitType) string {
	if t == Fleet {
		return "F"
	}
	return "A"
}

// String is the normalized form the server stores and echoes (§6.6).
func (o Order) String() string {
	u := unitLetter(o.Unit) + " " + string(o.Loc)
	switch o.Kind {
	case Hold:
		return u + " H"
	case Move:
		s := u + " - " + string(o.Dest)
		if o.ViaTag {
			s += " via convoy"
		}
		return s
	case SupportHold:
		return u + " S " + unitLetter(o.Target) + " " + string(o.From)
	case SupportMove:
		return u + " S " + unitLetter(o.Target) + " " + string(o.From) + " - " + string(o.Dest)
	case Convoy:
		return u + " C A " + string(o.From) + " - " + string(o.Dest)
	case Retreat:
		return u + " R " + string(o.Dest)
	case Disband:
		return u + " D"
	case Build:
		return "B " + u
	case Remove:
		return "D " + unitLetter(o.Unit) + " " + o.Loc.Province() // §6.6: a removal names the province
	case Waive:
		return "W"
	}
	return ""
}

func tokens(s string) []string {
	s = strings.ToLower(s)
	s = strings.ReplaceAll(s, "->", "-")
	s = strings.ReplaceAll(s, "-", " - ")
	for _, c := range []string{"nc", "sc", "ec"} {
		s = strings.ReplaceAll(s, "("+c+")", "/"+c)
	}
	return strings.Fields(s)
}

type cursor struct{ t []string }

func (c *cursor) next() (string, bool) {
	if len(c.t) == 0 {
		return "", false
	}
	s := c.t[0]
	c.t = c.t[1:]
	return s, true
}

func (c *cursor) expect(word string) error {
	s, ok := c.next()
	if !ok || s != word {
		return bad("expected %q", word)
	}
	return nil
}

func (c *cursor) unitType() (UnitType, error) {
	s, _ := c.next()
	switch s {
	case "a":
		return Army, nil
	case "f":
		return Fleet, nil
	}
	return 0, bad("expected unit type A or F, got %q", s)
}

func (c *cursor) loc() (Loc, error) {
	s, ok := c.next()
	if !ok {
		return "", bad("missing province")
	}
	l := Loc(s)
	if !ValidLoc(l) {
		return "", bad("unknown province or coast %q", s)
	}
	if byAbbr[l.Province()].kind == Impassable {
		return "", bad("%s is impassable", s)
	}
	return l, nil
}

// unit reads a unit and checks it can stand where it is named: no army at sea or on a coast,
// no fleet inland.
func (c *cursor) unit() (UnitType, Loc, error) {
	t, err := c.unitType()
	if err != nil {
		return 0, "", err
	}
	l, err := c.loc()
	if err != nil {
		return 0, "", err
	}
	k := byAbbr[l.Province()].kind
	if t == Army && (k == Sea || l.Coast() != "") {
		return 0, "", bad("an army cannot be at %s", l)
	}
	if t == Fleet && k == Land {
		return 0, "", bad("a fleet cannot be at inland %s", l)
	}
	return t, l, nil
}

// fleetFroms: the fleet locations a fleet named at l may be at (every coast when l omits it).
func fleetFroms(l Loc) []Loc {
	r := byAbbr[l.Province()]
	if l.Coast() != "" || len(r.coasts) == 0 {
		return []Loc{l}
	}
	var out []Loc
	for _, c := range r.coasts {
		out = append(out, Loc(r.abbr+"/"+string(c)))
	}
	return out
}

// fleetReach: the coasts of province to reachable by a fleet named at from.
func fleetReach(from Loc, to string) []Loc {
	var out []Loc
	for _, f := range fleetFroms(from) {
		out = append(out, FleetCoastsTo(f, to)...)
	}
	return out
}

// moveDest checks a move or retreat of unit t from l to d (§6.7 geography) and returns the
// destination with the coast filled in where only one is reachable (4.B.2), and whether the move
// needs a convoy (armies only, allowed only when convoy is true).
func moveDest(t UnitType, l, d Loc, convoy bool) (Loc, bool, error) {
	if d.Province() == l.Province() {
		return "", false, bad("%s cannot move to its own province", l)
	}
	k := byAbbr[d.Province()].kind
	if t == Army {
		if k == Sea {
			return "", false, bad("an army cannot move to sea %s", d)
		}
		if d.Coast() != "" {
			return "", false, bad("an army cannot name coast %s", d)
		}
		if ArmyAdjacent(l, d) {
			return d, false, nil
		}
		if convoy && k == Coastal && byAbbr[l.Province()].kind == Coastal {
			return d, true, nil
		}
		return "", false, bad("%s is not adjacent to %s", d, l)
	}
	if k == Land {
		return "", false, bad("a fleet cannot move to inland %s", d)
	}
	reach := fleetReach(l, d.Province())
	if len(reach) == 0 {
		return "", false, bad("%s is not adjacent to %s for a fleet", d, l)
	}
	if d.Coast() == "" {
		if len(byAbbr[d.Province()].coasts) > 0 && len(reach) > 1 {
			return "", false, bad("%s needs a coast", d)
		}
		return reach[0], false, nil
	}
	for _, m := range reach {
		if m == d {
			return d, false, nil
		}
	}
	return "", false, bad("a fleet at %s cannot reach %s", l, d)
}

// reachesCoast: whether d is among reach, or names no coast and reach is not empty.
func reachesCoast(reach []Loc, d Loc) bool {
	for _, m := range reach {
		if m == d || d.Coast() == "" {
			return true
		}
	}
	return false
}

// canReach: whether unit t at l could move into province p without a convoy (support rule).
func canReach(t UnitType, l Loc, p string) bool {
	if t == Army {
		return ArmyAdjacent(l, Loc(p))
	}
	return len(fleetReach(l, p)) > 0
}

// ParseOrder parses one order string of §6.6 for phase ph and rejects, with a reason wrapping
// ErrOrder, every order that is impossible on the map whatever the position (§6.7). It does not
// know the position: unit ownership, presence and duplicate orders are the caller's checks. For a
// fleet named on a split-coast province without its coast, geography is checked against any coast.
func ParseOrder(ph Phase, s string) (Order, error) {
	c := &cursor{t: tokens(s)}
	o, err := parse(ph, c)
	if err != nil {
		return Order{}, err
	}
	if len(c.t) > 0 {
		return Order{}, bad("unexpected %q", strings.Join(c.t, " "))
	}
	return o, nil
}

func parse(ph Phase, c *cursor) (Order, error) {
	if len(c.t) == 0 {
		return Order{}, bad("empty order")
	}
	if ph == Adjustments {
		return parseAdjust(c)
	}
	t, l, err := c.unit()
	if err != nil {
		return Order{}, err
	}
	o := Order{Unit: t, Loc: l}
	verb, _ := c.next()
	if ph == Retreats {
		switch verb {
		case "d":
			o.Kind = Disband
			return o, nil
		case "r", "-":
			d, err := c.loc()
			if err != nil {
				return Order{}, err
			}
			o.Kind = Retreat
			o.Dest, _, err = moveDest(t, l, d, false)
			return o, err
		}
		return Order{}, bad("a retreat order is R or D, got %q", verb)
	}
	if ph != Movement {
		return Order{}, bad("unknown phase")
	}
	switch verb {
	case "h":
		o.Kind = Hold
		return o, nil
	case "-":
		d, err := c.loc()
		if err != nil {
			return Order{}, err
		}
		if len(c.t) > 0 && c.t[0] == "via" {
			c.next()
			if err := c.expect("convoy"); err != nil {
				return Order{}, err
			}
			if t != Army {
				return Order{}, bad("only an army moves via convoy")
			}
			o.ViaTag = true
		}
		o.Kind = Move
		o.Dest, o.Convoyed, err = moveDest(t, l, d, true)
		if o.ViaTag {
			if byAbbr[l.Province()].kind != Coastal || byAbbr[d.Province()].kind != Coastal {
				return Order{}, bad("a convoy runs between coastal provinces")
			}
			o.Convoyed = true
		}
		return o, err
	case "s":
		tt, tl, err := c.unit()
		if err != nil {
			return Order{}, err
		}
		o.Target, o.From = tt, tl
		if tl.Province() == l.Province() {
			return Order{}, bad("a unit cannot support itself")
		}
		if len(c.t) == 0 {
			o.Kind = SupportHold
			if !canReach(t, l, tl.Province()) {
				return Order{}, bad("%s cannot support into %s", l, tl.Province())
			}
			return o, nil
		}
		if err := c.expect("-"); err != nil {
			return Order{}, err
		}
		d, err := c.loc()
		if err != nil {
			return Order{}, err
		}
		o.Kind = SupportMove
		if d.Province() == l.Province() {
			return Order{}, bad("a support cannot target the supporter's own province")
		}
		if _, _, err := moveDest(tt, tl, Loc(d.Province()), tt == Army); err != nil && tt == Army {
			return Order{}, err
		} else if tt == Fleet && !reachesCoast(fleetReach(tl, d.Province()), d) {
			return Order{}, bad("a fleet at %s cannot reach %s", tl, d)
		}
		if !canReach(t, l, d.Province()) {
			return Order{}, bad("%s cannot support into %s", l, d.Province())
		}
		// The supporter need only reach the province (DATC 6.B.4); a coast named for a fleet's move
		// is kept, since it must match the move supported (6.B.9).
		o.Dest = d
		if tt == Army {
			o.Dest = Loc(d.Province())
		}
		return o, nil
	case "c":
		if t != Fleet || byAbbr[l.Province()].kind != Sea {
			return Order{}, bad("only a fleet in a sea province convoys")
		}
		if err := c.expect("a"); err != nil {
			return Order{}, bad("only an army is convoyed")
		}
		f, err := c.loc()
		if err != nil {
			return Order{}, err
		}
		if err := c.expect("-"); err != nil {
			return Order{}, err
		}
		d, err := c.loc()
		if err != nil {
			return Order{}, err
		}
		if byAbbr[f.Province()].kind != Coastal || byAbbr[d.Province()].kind != Coastal || f.Coast() != "" || d.Coast() != "" || f == d {
			return Order{}, bad("a convoy runs an army between two coastal provinces")
		}
		o.Kind, o.Target, o.From, o.Dest = Convoy, Army, f, d
		return o, nil
	}
	return Order{}, bad("unknown order %q", verb)
}

func parseAdjust(c *cursor) (Order, error) {
	verb, _ := c.next()
	switch verb {
	case "w":
		return Order{Kind: Waive}, nil
	case "b":
		t, l, err := c.unit()
		if err != nil {
			return Order{}, err
		}
		r := byAbbr[l.Province()]
		if !r.centre || r.home == "" {
			return Order{}, bad("%s is not a home centre", l)
		}
		if t == Fleet && r.kind != Coastal {
			return Order{}, bad("a fleet cannot be built inland at %s", l)
		}
		if t == Fleet && len(r.coasts) > 0 && l.Coast() == "" {
			return Order{}, bad("a fleet build at %s needs a coast", l)
		}
		return Order{Kind: Build, Unit: t, Loc: l}, nil
	case "d":
		t, l, err := c.unit()
		if err != nil {
			return Order{}, err
		}
		return Order{Kind: Remove, Unit: t, Loc: l}, nil
	}
	return Order{}, bad("an adjustment order is B, D or W, got %q", verb)
}
