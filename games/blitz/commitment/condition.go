package commitment

import (
	"encoding/json"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// Condition operators: the closed vocabulary of §10.
const (
	OpAlways   = "always"   // {"always": true}
	OpBacks    = "backs"    // {"backs": [X, Y, min?]}
	OpSurvives = "survives" // {"survives": [X, n]}
	OpHonoured = "honoured" // {"honoured": "sha256:<64 hex>"}
	OpNot      = "not"      // {"not": C}
	OpAnd      = "and"      // {"and": [C, C]}
	OpOr       = "or"       // {"or": [C, C]}
)

// DefaultBacksMin is the `min` of a backs condition that gives none: 1 CCD in microCCD (§10).
const DefaultBacksMin int64 = 1_000_000

// MaxDepth is the deepest condition accepted (§10 "nesting depth ≤ 2"). Depth is defined in
// docs/protocol-notes.md: an atom (always, backs, survives, honoured) has depth 0; not, and, or
// have depth 1 + the greatest depth of their operands. So {"and":[{"not":A},B]} has depth 2 and
// is accepted; {"not":{"and":[{"or":[A,B]},C]}} has depth 3 and is refused.
const MaxDepth = 2

// Condition is one parsed condition (§10): a tree of at most MaxDepth connectives over atoms.
// The zero Condition is not valid; use ParseCondition or the constructors' literal forms.
type Condition struct {
	Op string `json:"-"`
	// X is the party of backs (payer) and survives; Y the payee of backs. Agent ids.
	X, Y string `json:"-"`
	// Min is backs' minimum amount in microCCD (DefaultBacksMin when absent); MinSet records
	// whether the object gave it, so the condition marshals back to the same shape.
	Min    int64 `json:"-"`
	MinSet bool  `json:"-"`
	// N is survives' turn: X must not be eliminated at the start of turn N (N ≤ due).
	N int `json:"-"`
	// ID is honoured's commitment id, "sha256:<64 lowercase hex>".
	ID string `json:"-"`
	// Args are the operands: one for not, exactly two for and/or.
	Args []Condition `json:"-"`

	// Walk-in intents only (§4.4, round-script.md), resolved by Fill: a party named by seat
	// number (XSeat/YSeat ≥ 1, X/Y empty) and honoured naming a script ref ("ref:<name>").
	XSeat, YSeat int    `json:"-"`
	Ref          string `json:"-"`
}

// ParseCondition parses one condition object strictly: the raw checks of canon (no member
// twice or folded, safe integers), exactly one member per object, that member one of the
// vocabulary with its exact operand shape, agent ids well formed, backs' parties distinct,
// min ≥ 1, survives' n ≥ 1, honoured a sha256 id, depth ≤ MaxDepth. The check n ≤ due is
// made by Parse, which knows due. Every refusal is *games.Error code bad_condition.
func ParseCondition(raw json.RawMessage) (Condition, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return Condition{}, badCondition("condition: %s", canon.Reason(err))
	}
	c, e := parseCond(v, 0, false)
	if e != nil {
		return Condition{}, e
	}
	return c, nil
}

// parseCond reads the condition v at nesting level (0 at the top); a connective met at level
// MaxDepth or deeper would make the whole deeper than MaxDepth.
func parseCond(v canon.Value, level int, intent bool) (Condition, *games.Error) {
	if v.Kind() != canon.Object || v.Len() != 1 {
		return Condition{}, badCondition("condition: an object of exactly one member")
	}
	op, arg := v.Member(0)
	c := Condition{Op: op}
	switch op {
	case OpAlways:
		if b, ok := arg.Bool(); !ok || !b {
			return Condition{}, badCondition("always: the value must be true")
		}
	case OpBacks:
		if arg.Kind() != canon.Array || (arg.Len() != 2 && arg.Len() != 3) {
			return Condition{}, badCondition("backs: [payer, payee, min?]")
		}
		var e *games.Error
		if c.X, c.XSeat, e = parseParty(arg.Elem(0), intent, "backs payer"); e != nil {
			return Condition{}, e
		}
		if c.Y, c.YSeat, e = parseParty(arg.Elem(1), intent, "backs payee"); e != nil {
			return Condition{}, e
		}
		if (c.X != "" && c.X == c.Y) || (c.XSeat != 0 && c.XSeat == c.YSeat) {
			return Condition{}, badCondition("backs: payer and payee are the same agent")
		}
		c.Min = DefaultBacksMin
		if arg.Len() == 3 {
			min, ok := arg.Elem(2).Int()
			if !ok || min < 1 {
				return Condition{}, badCondition("backs: min must be an integer ≥ 1 (microCCD)")
			}
			c.Min, c.MinSet = min, true
		}
	case OpSurvives:
		if arg.Kind() != canon.Array || arg.Len() != 2 {
			return Condition{}, badCondition("survives: [agent, n]")
		}
		var e *games.Error
		if c.X, c.XSeat, e = parseParty(arg.Elem(0), intent, "survives agent"); e != nil {
			return Condition{}, e
		}
		n, ok := arg.Elem(1).Int()
		if !ok || n < 1 || n > maxTurn {
			return Condition{}, badCondition("survives: n must be an integer turn ≥ 1")
		}
		c.N = int(n)
	case OpHonoured:
		s, ok := arg.Str()
		switch {
		case !ok:
			return Condition{}, badCondition("honoured: a commitment id string")
		case validID(s):
			c.ID = s
		case intent && strings.HasPrefix(s, "ref:") && len(s) > 4:
			c.Ref = s[4:]
		default:
			return Condition{}, badCondition("honoured: %q is not sha256:<64 lowercase hex>", s)
		}
	case OpNot, OpAnd, OpOr:
		if level >= MaxDepth {
			return Condition{}, badCondition("%s: nesting depth above %d", op, MaxDepth)
		}
		var ops []canon.Value
		if op == OpNot {
			ops = []canon.Value{arg}
		} else if arg.Kind() == canon.Array && arg.Len() == 2 {
			ops = []canon.Value{arg.Elem(0), arg.Elem(1)}
		} else {
			return Condition{}, badCondition("%s: exactly two operands", op)
		}
		c.Args = make([]Condition, len(ops))
		for i, o := range ops {
			sub, e := parseCond(o, level+1, intent)
			if e != nil {
				return Condition{}, e
			}
			c.Args[i] = sub
		}
	default:
		return Condition{}, badCondition("unknown condition %q", op)
	}
	return c, nil
}

// parseParty reads an agent id, or in a walk-in intent also a seat number.
func parseParty(v canon.Value, intent bool, what string) (string, int, *games.Error) {
	if s, ok := v.Str(); ok {
		if !validAgent(s) {
			return "", 0, badCondition("%s: %q is not an agent id", what, s)
		}
		return s, 0, nil
	}
	if intent {
		if seat, ok := v.Int(); ok && seat >= 1 && seat <= maxSeat {
			return "", int(seat), nil
		}
		return "", 0, badCondition("%s: an agent id or a seat number", what)
	}
	return "", 0, badCondition("%s: an agent id string", what)
}

// Depth is the condition's nesting depth (atoms 0; not/and/or 1 + deepest operand).
func (c Condition) Depth() int {
	d := 0
	for _, a := range c.Args {
		if ad := a.Depth() + 1; ad > d {
			d = ad
		}
	}
	return d
}

// maxSurvivesN is the largest survives turn in c (0 if none), for the n ≤ due check.
func (c Condition) maxSurvivesN() int {
	n := 0
	if c.Op == OpSurvives {
		n = c.N
	}
	for _, a := range c.Args {
		if an := a.maxSurvivesN(); an > n {
			n = an
		}
	}
	return n
}

// Facts is what the round knows when a condition is evaluated: at the settle step of the due
// turn (§10), against round state at that moment.
type Facts interface {
	// Backed: a commitment payer→payee with amount ≥ min (microCCD) was sealed at a turn ≤ upToTurn.
	Backed(payer, payee string, min int64, upToTurn int) bool
	// Alive: the agent was not eliminated at the start of turn atStartOfTurn.
	Alive(agent string, atStartOfTurn int) bool
	// Honoured: the commitment id settled honoured at or before this settle step.
	Honoured(id string) bool
}

// Eval evaluates c at the settle of turn due (§10): backs looks at seals up to turn due.
// and/or short-circuit; Facts are pure queries, so the result depends only on the facts.
func (c Condition) Eval(f Facts, due int) bool {
	switch c.Op {
	case OpAlways:
		return true
	case OpBacks:
		return f.Backed(c.X, c.Y, c.Min, due)
	case OpSurvives:
		return f.Alive(c.X, c.N)
	case OpHonoured:
		return f.Honoured(c.ID)
	case OpNot:
		return len(c.Args) == 1 && !c.Args[0].Eval(f, due)
	case OpAnd:
		return len(c.Args) == 2 && c.Args[0].Eval(f, due) && c.Args[1].Eval(f, due)
	case OpOr:
		return len(c.Args) == 2 && (c.Args[0].Eval(f, due) || c.Args[1].Eval(f, due))
	}
	return false // an invalid Condition is never true
}

// MarshalJSON writes the condition in its §10 form (unresolved intent seats as numbers, refs
// as "ref:<name>").
func (c Condition) MarshalJSON() ([]byte, error) {
	party := func(id string, seat int) any {
		if id == "" && seat != 0 {
			return seat
		}
		return id
	}
	var v any
	switch c.Op {
	case OpAlways:
		v = true
	case OpBacks:
		ops := []any{party(c.X, c.XSeat), party(c.Y, c.YSeat)}
		if c.MinSet {
			ops = append(ops, c.Min)
		}
		v = ops
	case OpSurvives:
		v = []any{party(c.X, c.XSeat), c.N}
	case OpHonoured:
		if c.ID == "" && c.Ref != "" {
			v = "ref:" + c.Ref
		} else {
			v = c.ID
		}
	case OpNot:
		if len(c.Args) != 1 {
			return nil, badCondition("not: one operand")
		}
		v = c.Args[0]
	case OpAnd, OpOr:
		if len(c.Args) != 2 {
			return nil, badCondition("%s: two operands", c.Op)
		}
		v = c.Args
	default:
		return nil, badCondition("unknown condition %q", c.Op)
	}
	return json.Marshal(map[string]any{c.Op: v})
}

// UnmarshalJSON is ParseCondition, so a Condition can sit in a struct decoded by canon.Decode.
func (c *Condition) UnmarshalJSON(raw []byte) error {
	p, err := ParseCondition(raw)
	if err != nil {
		return err
	}
	*c = p
	return nil
}
