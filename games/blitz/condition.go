package blitz

import (
	"encoding/json"
	"fmt"

	"arena/games/blitz/commitment"
)

// Conditions (§10) are parsed by package commitment; the match answers its Facts, evaluated at
// the settle of the due turn against the round state at that moment.

var _ commitment.Facts = (*Match)(nil)

// Backed: a commitment payer→payee with amount ≥ min was sealed at a turn ≤ upToTurn.
func (m *Match) Backed(payer, payee string, min int64, upToTurn int) bool {
	x, y := m.seatOf(payer), m.seatOf(payee)
	for _, k := range m.sealed {
		if k.payer == x && k.payee == y && k.amount >= min && k.sealedTurn <= upToTurn {
			return true
		}
	}
	return false
}

// Alive: the agent was not eliminated at the start of turn n. An agent eliminated at the
// settle of turn e is alive at the start of every turn ≤ e.
func (m *Match) Alive(agent string, n int) bool {
	x := m.seatOf(agent)
	if x == 0 {
		return false
	}
	e := m.seat(x).elimTurn
	return e == 0 || e >= n
}

// Honoured: the commitment settled honoured at or before this settle step.
func (m *Match) Honoured(id string) bool {
	k, ok := m.byID[id]
	return ok && k.outcome == outcomeHonoured
}

// seatRef reads a seat number or an agent id (a message's `to`).
func (m *Match) seatRef(raw json.RawMessage) (int, error) {
	// A plain seat number (the common case: every private line names one) is read directly;
	// anything else goes through encoding/json as before.
	if len(raw) > 0 && len(raw) <= 4 && raw[0] >= '1' && raw[0] <= '9' {
		n := 0
		for _, c := range raw {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int(c-'0')
		}
		if n > 0 {
			if n > len(m.seats) {
				return 0, fmt.Errorf("seat %d not at the table", n)
			}
			return n, nil
		}
	}
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		if n < 1 || n > len(m.seats) {
			return 0, fmt.Errorf("seat %d not at the table", n)
		}
		return n, nil
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		return 0, fmt.Errorf("a seat number or an agent id")
	}
	if s := m.seatOf(id); s != 0 {
		return s, nil
	}
	return 0, fmt.Errorf("agent %q is not seated", id)
}
