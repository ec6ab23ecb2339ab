package ledger

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// State is the ledger as its rows add up: every hold, every pot and the totals per unit. It is
// a function of the rows alone (Replay), so two States from the same rows are equal
// (reflect.DeepEqual). A State handed out by the actor is a copy the caller may keep.
type State struct {
	Last  uint64            // the last row's Seq (0: no row)
	Units map[string]Totals // by unit
	Holds map[string]Hold   // by id
	Pots  map[string]Pot    // by id
	refs  map[string]uint64 // unit "\x00" ref → the row that recorded it
	keys  map[string]Posted // Post key → what that Post wrote
}

// Totals are one unit's money by where it is. Check holds them to the invariant.
type Totals struct {
	Received int64 // every receive
	Held     int64 // in holds now
	Staked   int64 // in pots not yet settled
	PaidOut  int64 // settled to outside accounts
	Refunded int64 // refunded to outside accounts
	House    int64 // settled to the house
}

// Hold is money received and not yet staked or refunded, under the caller's id.
type Hold struct {
	ID       string
	Unit     string
	Balance  int64 // received − staked + released − refunded
	Received int64
	Staked   int64 // net of releases
	Refunded int64
	Memo     json.RawMessage
	Opened   uint64 // the row that opened it
}

// Pot is a round's or match's stakes until they are settled, once.
type Pot struct {
	ID      string
	Unit    string
	Balance int64            // Σ Stakes until settled, then 0
	Stakes  map[string]int64 // hold → amount staked (net of releases)
	Settled uint64           // the settle row (0: not settled)
	Payouts []Payout         // set by the settle
	House   int64            // set by the settle
	Memo    json.RawMessage
	Opened  uint64
}

// Posted is what one Post wrote: rows First..Last (none when Last < First).
type Posted struct{ First, Last uint64 }

// NewState is the empty ledger.
func NewState() *State {
	return &State{Units: map[string]Totals{}, Holds: map[string]Hold{}, Pots: map[string]Pot{},
		refs: map[string]uint64{}, keys: map[string]Posted{}}
}

// Clone is a deep copy (memos are shared: they are never written in place).
func (s *State) Clone() *State {
	c := &State{Last: s.Last, Units: maps.Clone(s.Units), Holds: maps.Clone(s.Holds), Pots: make(map[string]Pot, len(s.Pots)),
		refs: maps.Clone(s.refs), keys: maps.Clone(s.keys)}
	for id, p := range s.Pots {
		p.Stakes = maps.Clone(p.Stakes)
		p.Payouts = slices.Clone(p.Payouts)
		c.Pots[id] = p
	}
	return c
}

// PaidTo is what settled pots in unit have paid account, in total: the running balance of an
// account the ledger pays into and never pays out of (DOTDOTDOT's season pool, §11.3).
func (s *State) PaidTo(unit, account string) int64 {
	var sum int64
	for _, p := range s.Pots {
		if p.Unit != unit || p.Settled == 0 {
			continue
		}
		for _, py := range p.Payouts {
			if py.Account == account {
				sum += py.Amount
			}
		}
	}
	return sum
}

// Posted reports what the Post with key wrote, if one was committed.
func (s *State) Posted(key string) (Posted, bool) {
	p, ok := s.keys[key]
	return p, ok
}

// apply adds row r (Seq, At and Unit as stored) to s, or refuses it leaving s unchanged. undo
// reverts a successful apply (the rows of one Post are all or nothing).
func (s *State) apply(r *Row) (undo func(), err error) {
	if r.Seq != s.Last+1 {
		return nil, fmt.Errorf("%w: row %d after %d", ErrBadRow, r.Seq, s.Last)
	}
	if r.Unit == "" && r.Kind != KindHold && r.Kind != KindPot { // the unit comes from a hold or pot that is not there
		if _, ok := s.Holds[r.Hold]; r.Hold != "" && !ok {
			return nil, fmt.Errorf("%w: hold %s", ErrUnknown, r.Hold)
		}
		if _, ok := s.Pots[r.Pot]; r.Pot != "" && !ok {
			return nil, fmt.Errorf("%w: pot %s", ErrUnknown, r.Pot)
		}
	}
	if err := r.wellFormed(); err != nil {
		return nil, err
	}
	prevLast := s.Last
	prevUnit, hadUnit := s.Units[r.Unit]
	t := prevUnit
	var undoOne func()
	switch r.Kind {
	case KindHold:
		if _, ok := s.Holds[r.Hold]; ok {
			return nil, fmt.Errorf("%w: hold %s", ErrExists, r.Hold)
		}
		s.Holds[r.Hold] = Hold{ID: r.Hold, Unit: r.Unit, Memo: r.Memo, Opened: r.Seq}
		undoOne = func() { delete(s.Holds, r.Hold) }
	case KindPot:
		if _, ok := s.Pots[r.Pot]; ok {
			return nil, fmt.Errorf("%w: pot %s", ErrExists, r.Pot)
		}
		s.Pots[r.Pot] = Pot{ID: r.Pot, Unit: r.Unit, Stakes: map[string]int64{}, Memo: r.Memo, Opened: r.Seq}
		undoOne = func() { delete(s.Pots, r.Pot) }
	case KindNote:
		if r.Hold != "" {
			h, err := s.hold(r)
			if err != nil {
				return nil, err
			}
			old := h
			h.Memo = r.Memo
			s.Holds[r.Hold] = h
			undoOne = func() { s.Holds[r.Hold] = old }
		} else {
			p, err := s.pot(r)
			if err != nil {
				return nil, err
			}
			old := p
			p.Memo = r.Memo
			s.Pots[r.Pot] = p
			undoOne = func() { s.Pots[r.Pot] = old }
		}
	case KindReceive, KindRefund:
		h, err := s.hold(r)
		if err != nil {
			return nil, err
		}
		ref := r.Unit + "\x00" + r.Ref
		if r.Ref != "" {
			if seq, ok := s.refs[ref]; ok {
				return nil, fmt.Errorf("%w: %s (row %d)", ErrDuplicate, r.Ref, seq)
			}
		}
		old := h
		if r.Kind == KindReceive {
			if h.Balance+r.Amount > MaxAmount || t.Received+r.Amount > MaxAmount {
				return nil, fmt.Errorf("%w: hold %s would exceed %d", ErrBadRow, r.Hold, MaxAmount)
			}
			h.Balance += r.Amount
			h.Received += r.Amount
			t.Received += r.Amount
			t.Held += r.Amount
		} else {
			if r.Amount > h.Balance {
				return nil, fmt.Errorf("%w: refund %d from hold %s holding %d", ErrInsufficient, r.Amount, r.Hold, h.Balance)
			}
			h.Balance -= r.Amount
			h.Refunded += r.Amount
			t.Held -= r.Amount
			t.Refunded += r.Amount
		}
		s.Holds[r.Hold] = h
		if r.Ref != "" {
			s.refs[ref] = r.Seq
		}
		undoOne = func() {
			s.Holds[r.Hold] = old
			if r.Ref != "" {
				delete(s.refs, ref)
			}
		}
	case KindStake, KindRelease:
		h, err := s.hold(r)
		if err != nil {
			return nil, err
		}
		p, err := s.pot(r)
		if err != nil {
			return nil, err
		}
		if p.Settled != 0 {
			return nil, fmt.Errorf("%w: pot %s (row %d)", ErrSettled, r.Pot, p.Settled)
		}
		oldH, oldP := h, p
		p.Stakes = maps.Clone(p.Stakes)
		if r.Kind == KindStake {
			if r.Amount > h.Balance {
				return nil, fmt.Errorf("%w: stake %d from hold %s holding %d", ErrInsufficient, r.Amount, r.Hold, h.Balance)
			}
			h.Balance -= r.Amount
			h.Staked += r.Amount
			p.Balance += r.Amount
			p.Stakes[r.Hold] += r.Amount
			t.Held -= r.Amount
			t.Staked += r.Amount
		} else {
			if r.Amount > p.Stakes[r.Hold] {
				return nil, fmt.Errorf("%w: release %d of hold %s's stake %d in pot %s", ErrInsufficient, r.Amount, r.Hold, p.Stakes[r.Hold], r.Pot)
			}
			h.Balance += r.Amount
			h.Staked -= r.Amount
			p.Balance -= r.Amount
			if p.Stakes[r.Hold] -= r.Amount; p.Stakes[r.Hold] == 0 {
				delete(p.Stakes, r.Hold)
			}
			t.Held += r.Amount
			t.Staked -= r.Amount
		}
		s.Holds[r.Hold], s.Pots[r.Pot] = h, p
		undoOne = func() { s.Holds[r.Hold], s.Pots[r.Pot] = oldH, oldP }
	case KindSettle:
		p, err := s.pot(r)
		if err != nil {
			return nil, err
		}
		if p.Settled != 0 {
			return nil, fmt.Errorf("%w: pot %s (row %d)", ErrSettled, r.Pot, p.Settled)
		}
		sum, ok := settleSum(r.House, r.Payouts)
		if !ok || sum != p.Balance {
			return nil, fmt.Errorf("%w: payouts and house take sum to %d, pot %s holds %d", ErrUnbalanced, sum, r.Pot, p.Balance)
		}
		old := p
		t.Staked -= p.Balance
		t.PaidOut += sum - r.House
		t.House += r.House
		p.Balance, p.Settled, p.Payouts, p.House = 0, r.Seq, slices.Clone(r.Payouts), r.House
		s.Pots[r.Pot] = p
		undoOne = func() { s.Pots[r.Pot] = old }
	}
	s.Units[r.Unit] = t
	s.Last = r.Seq
	return func() {
		undoOne()
		if hadUnit {
			s.Units[r.Unit] = prevUnit
		} else {
			delete(s.Units, r.Unit)
		}
		s.Last = prevLast
	}, nil
}

// hold is r's hold, which must exist in r's unit.
func (s *State) hold(r *Row) (Hold, error) {
	h, ok := s.Holds[r.Hold]
	if !ok {
		return Hold{}, fmt.Errorf("%w: hold %s", ErrUnknown, r.Hold)
	}
	if h.Unit != r.Unit {
		return Hold{}, fmt.Errorf("%w: hold %s is in %s, the row in %s", ErrBadRow, r.Hold, h.Unit, r.Unit)
	}
	return h, nil
}

// pot is r's pot, which must exist in r's unit.
func (s *State) pot(r *Row) (Pot, error) {
	p, ok := s.Pots[r.Pot]
	if !ok {
		return Pot{}, fmt.Errorf("%w: pot %s", ErrUnknown, r.Pot)
	}
	if p.Unit != r.Unit {
		return Pot{}, fmt.Errorf("%w: pot %s is in %s, the row in %s", ErrBadRow, r.Pot, p.Unit, r.Unit)
	}
	return p, nil
}

// maxPayouts bounds a settle's payouts.
const maxPayouts = 1024

// wellFormed checks what a row says on its own (the state checks the rest).
func (r *Row) wellFormed() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: row %d (%s): %s", ErrBadRow, r.Seq, r.Kind, fmt.Sprintf(format, a...))
	}
	if !okID(r.Unit) {
		return bad("unit %q", r.Unit)
	}
	if len(r.Ref) > maxID || len(r.Account) > maxID {
		return bad("reference or account longer than %d bytes", maxID)
	}
	if r.Memo != nil && !json.Valid(r.Memo) {
		return bad("memo is not JSON")
	}
	needHold := r.Kind == KindHold || r.Kind == KindReceive || r.Kind == KindStake || r.Kind == KindRelease || r.Kind == KindRefund
	needPot := r.Kind == KindPot || r.Kind == KindStake || r.Kind == KindRelease || r.Kind == KindSettle
	switch r.Kind {
	case KindHold, KindPot, KindReceive, KindStake, KindRelease, KindSettle, KindRefund:
	case KindNote:
		needHold, needPot = r.Hold != "", r.Hold == ""
	default:
		return bad("unknown kind")
	}
	if needHold != (r.Hold != "") || (needHold && !okID(r.Hold)) {
		return bad("hold %q", r.Hold)
	}
	if needPot != (r.Pot != "") || (needPot && !okID(r.Pot)) {
		return bad("pot %q", r.Pot)
	}
	money := r.Kind == KindReceive || r.Kind == KindStake || r.Kind == KindRelease || r.Kind == KindRefund
	if money != (r.Amount != 0) || r.Amount < 0 || r.Amount > MaxAmount {
		return bad("amount %d", r.Amount)
	}
	if (r.Kind == KindReceive || r.Kind == KindRefund) && !okID(r.Account) {
		return bad("account %q", r.Account)
	}
	if r.Kind != KindSettle && (r.Payouts != nil || r.House != 0) {
		return bad("payouts outside a settle")
	}
	if r.Kind == KindSettle {
		if len(r.Payouts) > maxPayouts || r.House < 0 || r.House > MaxAmount {
			return bad("%d payouts, house %d", len(r.Payouts), r.House)
		}
		for _, p := range r.Payouts {
			if !okID(p.Account) || p.Amount < 0 || p.Amount > MaxAmount {
				return bad("payout %d to %q", p.Amount, p.Account)
			}
		}
	}
	return nil
}

func okID(s string) bool { return s != "" && len(s) <= maxID }

// Replay is the state rows add up to, read in order from rows (the ledger's Started, and an
// audit). A row that does not decode, is out of sequence or does not apply fails with
// ErrCorrupt.
func Replay(rows Rows) (*State, error) {
	s := NewState()
	err := rows.LedgerRows(1, func(seq uint64, b []byte) error {
		var r Row
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%w: row %d: %v", ErrCorrupt, seq, err)
		}
		if r.Seq != seq {
			return fmt.Errorf("%w: row %d stored under %d", ErrCorrupt, r.Seq, seq)
		}
		if _, err := s.apply(&r); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if r.Key != "" {
			p, ok := s.keys[r.Key]
			if !ok {
				p.First = seq
			} else if p.Last != seq-1 {
				return fmt.Errorf("%w: row %d repeats the key of rows %d..%d", ErrCorrupt, seq, p.First, p.Last)
			}
			p.Last = seq
			s.keys[r.Key] = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// settleSum is a settle's house take plus its payouts, and false once the running sum passes
// MaxAmount: no pot holds more, and stopping there keeps the sum from wrapping int64 (up to
// maxPayouts amounts of MaxAmount each would).
func settleSum(house int64, payouts []Payout) (int64, bool) {
	sum := house
	for _, py := range payouts {
		if py.Amount < 0 || py.Amount > MaxAmount {
			return 0, false
		}
		sum += py.Amount
		if sum > MaxAmount {
			return 0, false
		}
	}
	return sum, sum >= 0
}

// Check is the ledger invariant, for every unit: money is never created or lost,
//
//	Σ hold balances + Σ pot balances + paid out + refunded + house == received,
//
// every balance is within [0, MaxAmount], the totals agree with the holds and pots they sum, a
// settled pot is empty and paid exactly what was staked in it, and each pot's stakes sum to its
// balance. Every test that moves money calls it; the ledger keeps it by construction.
func Check(s *State) error {
	held, staked := map[string]int64{}, map[string]int64{}
	for id, h := range s.Holds {
		if h.Balance < 0 || h.Balance > MaxAmount || h.Balance != h.Received-h.Staked-h.Refunded {
			return fmt.Errorf("ledger: invariant: hold %s: balance %d, received %d − staked %d − refunded %d", id, h.Balance, h.Received, h.Staked, h.Refunded)
		}
		held[h.Unit] += h.Balance
	}
	for id, p := range s.Pots {
		var sum int64
		for hold, amt := range p.Stakes {
			if amt <= 0 {
				return fmt.Errorf("ledger: invariant: pot %s: stake %d from %s", id, amt, hold)
			}
			sum += amt
		}
		if p.Settled == 0 {
			if p.Balance != sum {
				return fmt.Errorf("ledger: invariant: pot %s: balance %d, stakes %d", id, p.Balance, sum)
			}
			staked[p.Unit] += p.Balance
			continue
		}
		paid, ok := settleSum(p.House, p.Payouts)
		if !ok || p.Balance != 0 || paid != sum {
			return fmt.Errorf("ledger: invariant: settled pot %s: balance %d, paid %d of stakes %d", id, p.Balance, paid, sum)
		}
	}
	for unit, t := range s.Units {
		if t.Held != held[unit] || t.Staked != staked[unit] {
			return fmt.Errorf("ledger: invariant: %s: totals say held %d staked %d, the holds and pots %d and %d", unit, t.Held, t.Staked, held[unit], staked[unit])
		}
		for _, v := range []int64{t.Received, t.Held, t.Staked, t.PaidOut, t.Refunded, t.House} {
			if v < 0 {
				return fmt.Errorf("ledger: invariant: %s: negative total in %+v", unit, t)
			}
		}
		if t.Held+t.Staked+t.PaidOut+t.Refunded+t.House != t.Received {
			return fmt.Errorf("ledger: invariant: %s: held %d + staked %d + paid out %d + refunded %d + house %d != received %d",
				unit, t.Held, t.Staked, t.PaidOut, t.Refunded, t.House, t.Received)
		}
	}
	for unit, v := range held {
		if _, ok := s.Units[unit]; !ok && v != 0 {
			return fmt.Errorf("ledger: invariant: %s: holds %d with no totals", unit, v)
		}
	}
	return nil
}
