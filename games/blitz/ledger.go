package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"arena/games/blitz/commitment"
)

// Outcomes of a sealed commitment (§8.2).
const (
	outcomeOpen     = "open"
	outcomeHonoured = "honoured"
	outcomeVoid     = "void"
	outcomeBreached = "breached"
)

// commitment is one submission, pending then sealed. Money in microCCD. A table keeps every
// sealed one for the whole round, so it holds no more than settlement and the state need: the
// condition as its canonical bytes only (parsed at its settle, promise.condition), no digest
// (the id is its hex, read back once for the anchor at seal), and no signed object once
// sealed.
type promise struct {
	id         string
	ref        string
	payer      int
	payee      int
	amount     int64
	due        int
	seq        int64
	pair       string
	condRaw    json.RawMessage
	raw        json.RawMessage // the signed object as submitted (with sig); nil once sealed
	order      int             // submission order within the commit phase
	vetoed     bool
	done       bool   // pending handled at seal (sealed or rejected)
	sealedAt   uint16 // seq of its public commitment.sealed event (eventMarks.note), 0 if none or past 16 bits
	settledAt  uint16 // seq of its last public commitment.settled event, likewise
	lock       int64
	sealedTurn int
	outcome    string
	paid       int64
	penalty    int64
	settled    int // turn it settled in; 0 while open
}

// condition is the commitment's parsed condition, read once, at the settle of its due turn
// (settleOne): the shared always condition (nearly every commitment's), or else its canonical
// bytes (condRaw, which every sealed commitment keeps for the state's terms and the reveal)
// parsed again. A sealed commitment does not hold its parsed condition until then: a condition
// tree with its agent ids costs a table more than its bytes, and the parse is a few
// microseconds once per commitment. condRaw was parsed and checked at submission, so the parse
// cannot fail; should it, the zero Condition is never true (void).
func (c *promise) condition() *commitment.Condition {
	if string(c.condRaw) == alwaysCondJCS {
		return alwaysCond
	}
	p, err := commitment.ParseCondition(c.condRaw)
	if err != nil {
		return &commitment.Condition{}
	}
	return &p
}

func ceilHalf(a int64) int64 { return a - a/2 } // §7.6 margin lock: 50% rounded up to the microCCD

// locked is the sum of the seat's locks (its open commitments as payer).
func (m *Match) locked(seat int) int64 {
	var t int64
	for _, c := range m.sealed {
		if c.payer == seat && c.outcome == outcomeOpen {
			t += c.lock
		}
	}
	return t
}

func (m *Match) unlocked(seat int) int64 { return m.seat(seat).collateral - m.locked(seat) }

// openCount is the seat's open commitments as payer (the §7.4 limit of 4 counts these).
func (m *Match) openCount(seat int) int {
	n := 0
	for _, c := range m.sealed {
		if c.payer == seat && c.outcome == outcomeOpen {
			n++
		}
	}
	return n
}

// drain moves up to x microCCD from seat a to seat b by the §8.1 drain rule: a's unlocked
// first, then a's locks newest-first (highest seq), each reduced lock staying attached to its
// commitment; it stops when x is covered or a's collateral is 0. It returns what was taken.
func (m *Match) drain(a, b int, x int64) int64 {
	if x <= 0 {
		return 0
	}
	pa, pb := m.seat(a), m.seat(b)
	taken := min(x, max(m.unlocked(a), 0))
	pa.collateral -= taken
	if taken < x {
		locks := []*promise{}
		for _, c := range m.sealed {
			if c.payer == a && c.outcome == outcomeOpen && c.lock > 0 {
				locks = append(locks, c)
			}
		}
		sort.SliceStable(locks, func(i, j int) bool { return locks[i].seq > locks[j].seq })
		for _, c := range locks {
			if taken == x || pa.collateral == 0 {
				break
			}
			r := min(c.lock, x-taken, pa.collateral)
			c.lock -= r
			pa.collateral -= r
			taken += r
		}
	}
	pb.collateral += taken
	return taken
}

// Account is one seat's book as it stands (money in microCCD).
type Account struct {
	Seat       int              `json:"seat"`
	Agent      string           `json:"agent"`
	Collateral int64            `json:"collateral"` // including locks
	Unlocked   int64            `json:"unlocked"`
	Locks      map[string]int64 `json:"locks"` // by commitment id
	Budget     int64            `json:"budget"`
	Alive      bool             `json:"alive"`
	Eliminated int              `json:"eliminated,omitempty"` // turn of elimination
	Dark       bool             `json:"dark"`
}

// Accounts lists every seat's book in seat order.
func (m *Match) Accounts() []Account {
	out := make([]Account, 0, len(m.seats))
	for _, s := range m.seats {
		n := s.Seat.Seat
		a := Account{Seat: n, Agent: s.Agent, Collateral: s.collateral, Unlocked: m.unlocked(n),
			Locks: map[string]int64{}, Budget: s.budget, Alive: s.alive, Eliminated: s.elimTurn, Dark: s.dark}
		for _, c := range m.sealed {
			if c.payer == n && c.outcome == outcomeOpen {
				a.Locks[c.id] = c.lock
			}
		}
		out = append(out, a)
	}
	return out
}

// CheckInvariant checks §8.3 and money conservation. For every seat: 0 ≤ each lock, Σlocks ≤
// collateral, budget ≥ 0. Across the table: Σcollateral + Σbudget + the bounty pot still held
// + the house take = Σentry, so collateral moves only between seats and leaves the table only
// as fees taken at seal (and, at round settlement, the table and inference fees). Nil when all
// hold.
func (m *Match) CheckInvariant() error {
	var entries, total int64
	for _, s := range m.seats {
		n := s.Seat.Seat
		entries += s.Entry
		if s.collateral < 0 || s.budget < 0 {
			return fmt.Errorf("blitz: seat %d: collateral %d budget %d negative", n, s.collateral, s.budget)
		}
		var locks int64
		for _, c := range m.sealed {
			if c.payer == n && c.outcome == outcomeOpen {
				if c.lock < 0 {
					return fmt.Errorf("blitz: seat %d: lock %s negative", n, c.id)
				}
				locks += c.lock
			}
		}
		if locks > s.collateral {
			return fmt.Errorf("blitz: seat %d: locks %d exceed collateral %d (§8.3)", n, locks, s.collateral)
		}
		total += s.collateral + s.budget
	}
	pot := m.pot
	if m.bountyPaid != nil {
		pot = 0
	} else {
		// §8.3 literally: during play collateral only moves between seats (fees come from the
		// action budgets), so the table's collateral is what was seated.
		var coll, seated int64
		for _, s := range m.seats {
			coll += s.collateral
			seated += s.initial
		}
		if coll != seated {
			return fmt.Errorf("blitz: table collateral %d, seated %d (§8.3)", coll, seated)
		}
	}
	if total+pot+m.house != entries {
		return fmt.Errorf("blitz: money not conserved: collateral+budget %d + pot %d + house %d != entries %d",
			total, pot, m.house, entries)
	}
	return nil
}

// Record is one sealed commitment as the runner and the reveal report it.
type Record struct {
	Ref        string          `json:"ref,omitempty"`
	ID         string          `json:"id"`
	Payer      int             `json:"payer"`
	Payee      int             `json:"payee"`
	Amount     int64           `json:"amount"`
	Condition  json.RawMessage `json:"condition"`
	Seq        int64           `json:"seq"`
	Pair       string          `json:"pair,omitempty"`
	SealedTurn int             `json:"sealed_turn"`
	Due        int             `json:"due"`
	Lock       int64           `json:"lock"`
	Outcome    string          `json:"outcome"` // open, honoured, void, breached
	Paid       int64           `json:"paid"`
	Penalty    int64           `json:"penalty"`
	Settled    int             `json:"settled_turn,omitempty"`
}

// Commitments lists every sealed commitment in sealed order. Each Record's Condition is a
// copy of its own (the ledger shares the always condition's bytes between commitments).
func (m *Match) Commitments() []Record {
	out := make([]Record, 0, len(m.sealed))
	for _, c := range m.sealed {
		out = append(out, Record{Ref: c.ref, ID: c.id, Payer: c.payer, Payee: c.payee, Amount: c.amount,
			Condition: bytes.Clone(c.condRaw), Seq: c.seq, Pair: c.pair, SealedTurn: c.sealedTurn, Due: c.due, Lock: c.lock,
			Outcome: c.outcome, Paid: c.paid, Penalty: c.penalty, Settled: c.settled})
	}
	return out
}

// Rejection is one refused submission: at submission or at seal, with its §13 code.
type Rejection struct {
	Seat  int    `json:"seat"`
	Turn  int    `json:"turn"`
	Index int    `json:"index"` // position in the commit answer's commitments[]
	Ref   string `json:"ref,omitempty"`
	ID    string `json:"id,omitempty"`
	Code  string `json:"code"`
	Msg   string `json:"msg"`
}

// Rejections lists every refused submission in order.
func (m *Match) Rejections() []Rejection { return append([]Rejection(nil), m.rejections...) }
