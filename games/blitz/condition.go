package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
)

// cond is a parsed §10 condition. Agents are held as seat numbers.
type cond struct {
	op   string // always, backs, survives, honoured, not, and, or
	kids []*cond
	x, y int
	min  int64
	n    int
	id   string
}

var idRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// maxCondDepth: and/or/not nest at most two deep (§10), leaves being depth 0.
const maxCondDepth = 2

// parseCond reads a §10 condition: the closed vocabulary, exactly one member per object,
// exactly two operands for and/or, nesting depth ≤ 2, agents seated (by agent id), survives
// n within 1..due, amounts safe integers ≥ 1. Anything else is an error (bad_condition).
func (m *Match) parseCond(raw json.RawMessage, due int) (*cond, error) {
	c, d, err := m.parseCondAt(raw, due)
	if err != nil {
		return nil, err
	}
	if d > maxCondDepth {
		return nil, fmt.Errorf("condition nests %d deep, at most %d", d, maxCondDepth)
	}
	return c, nil
}

func (m *Match) parseCondAt(raw json.RawMessage, due int) (*cond, int, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, 0, fmt.Errorf("condition is not an object")
	}
	if len(obj) != 1 {
		return nil, 0, fmt.Errorf("condition has %d members, want exactly 1", len(obj))
	}
	for op, v := range obj {
		switch op {
		case "always":
			if !bytes.Equal(bytes.TrimSpace(v), []byte("true")) {
				return nil, 0, fmt.Errorf("always must be true")
			}
			return &cond{op: op}, 0, nil
		case "backs":
			var a []json.RawMessage
			if err := json.Unmarshal(v, &a); err != nil || (len(a) != 2 && len(a) != 3) {
				return nil, 0, fmt.Errorf("backs takes [payer, payee, min?]")
			}
			x, err1 := m.agentSeat(a[0])
			y, err2 := m.agentSeat(a[1])
			if err1 != nil || err2 != nil || x == y {
				return nil, 0, fmt.Errorf("backs names no two distinct seated agents")
			}
			c := &cond{op: op, x: x, y: y, min: ccd}
			if len(a) == 3 {
				if err := json.Unmarshal(a[2], &c.min); err != nil || c.min < 1 || c.min > maxSafe {
					return nil, 0, fmt.Errorf("backs min must be an integer ≥ 1 microCCD")
				}
			}
			return c, 0, nil
		case "survives":
			var a []json.RawMessage
			if err := json.Unmarshal(v, &a); err != nil || len(a) != 2 {
				return nil, 0, fmt.Errorf("survives takes [agent, turn]")
			}
			x, err := m.agentSeat(a[0])
			if err != nil {
				return nil, 0, err
			}
			c := &cond{op: op, x: x}
			if err := json.Unmarshal(a[1], &c.n); err != nil || c.n < 1 || c.n > due {
				return nil, 0, fmt.Errorf("survives turn must be an integer in 1..due (%d)", due)
			}
			return c, 0, nil
		case "honoured":
			var id string
			if err := json.Unmarshal(v, &id); err != nil || !idRE.MatchString(id) {
				return nil, 0, fmt.Errorf("honoured takes a commitment id sha256:<64 hex>")
			}
			return &cond{op: op, id: id}, 0, nil
		case "not":
			k, d, err := m.parseCondAt(v, due)
			if err != nil {
				return nil, 0, err
			}
			return &cond{op: op, kids: []*cond{k}}, d + 1, nil
		case "and", "or":
			var a []json.RawMessage
			if err := json.Unmarshal(v, &a); err != nil || len(a) != 2 {
				return nil, 0, fmt.Errorf("%s takes exactly two operands", op)
			}
			k1, d1, err := m.parseCondAt(a[0], due)
			if err != nil {
				return nil, 0, err
			}
			k2, d2, err := m.parseCondAt(a[1], due)
			if err != nil {
				return nil, 0, err
			}
			return &cond{op: op, kids: []*cond{k1, k2}}, max(d1, d2) + 1, nil
		default:
			return nil, 0, fmt.Errorf("unknown condition %q", op)
		}
	}
	return nil, 0, fmt.Errorf("empty condition")
}

// agentSeat resolves an agent id (a JSON string) to its seat.
func (m *Match) agentSeat(raw json.RawMessage) (int, error) {
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		return 0, fmt.Errorf("agent must be an agent id string")
	}
	for _, s := range m.seats {
		if s.Agent == id {
			return s.Seat.Seat, nil
		}
	}
	return 0, fmt.Errorf("agent %q is not seated", id)
}

// eval evaluates c at the settle of its due turn, against the round state at that moment (§10).
func (m *Match) eval(c *cond, due int) bool {
	switch c.op {
	case "always":
		return true
	case "backs":
		for _, k := range m.sealed {
			if k.payer == c.x && k.payee == c.y && k.amount >= c.min && k.sealedTurn <= due {
				return true
			}
		}
		return false
	case "survives":
		e := m.seat(c.x).elimTurn
		return e == 0 || e >= c.n // eliminated at the settle of turn e: alive at the start of turns ≤ e
	case "honoured":
		k, ok := m.byID[c.id]
		return ok && k.outcome == outcomeHonoured
	case "not":
		return !m.eval(c.kids[0], due)
	case "and":
		return m.eval(c.kids[0], due) && m.eval(c.kids[1], due)
	case "or":
		return m.eval(c.kids[0], due) || m.eval(c.kids[1], due)
	}
	return false
}
