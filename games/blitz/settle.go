package blitz

import (
	"sort"
	"strconv"
)

// settleTurn is §8.2 at the end of the turn: due commitments in sealed order, elimination,
// the dark check, the task's rungs; then the standing accusations are recorded for §9 and the
// mid-round anchor is asked for after turn MidRoundTurn(turns).
func (m *Match) settleTurn() {
	for _, c := range m.sealed {
		if c.outcome == outcomeOpen && c.due == m.turn {
			m.settleOne(c)
		}
	}
	for _, s := range m.seats {
		if s.alive && s.collateral == 0 {
			m.eliminate(s)
		}
	}
	for _, s := range m.seats {
		if !s.alive || !canGoDark(s.SeatOptions) {
			continue
		}
		if s.spoke {
			s.emptyRun = 0
			continue
		}
		s.emptyRun++
		if s.emptyRun >= 2 && !s.dark {
			s.dark = true
			m.emit("agent.dark", visPublic, map[string]any{"seat": s.Seat.Seat, "dark": true})
		}
	}
	m.rungsAfterSettle()
	// The accusations standing at this settle, by accused seat: only the ghost task reads them,
	// at its two checkpoints (rungsAtRoundSettlement), so only those are kept (a map a turn
	// held all round was most of a kilobyte of a live table).
	if _, t3, t4 := checkpoints(m.format.Turns); m.task.Kind == "ghost" && (m.turn == t3 || m.turn == t4) {
		st := map[int]int{}
		for _, s := range m.seats {
			if s.accusation != 0 {
				st[s.accusation]++
			}
		}
		m.standingAt[m.turn] = st
	}
	if m.turn == MidRoundTurn(m.format.Turns) {
		m.requestAnchor("turn", m.transcript.sum())
	}
}

// canGoDark reports whether the §8.2 step 3 dark check applies to seat s: "Any BYO agent with
// two consecutive empty turns is marked dark". Only a seat of kind "byo" (or "", which
// seat.taken shows as "byo") that is not a walk-in qualifies. A walk-in's silence has its own
// rule, §4.5 "Away" (the table answers it with silence at once), and house, arena and ots
// seats are played by the arena, whose fallback policy answers for them (agent.scripted); none
// of those is marked dark (docs/protocol-notes.md, games/blitz, "Dark").
func canGoDark(s SeatOptions) bool {
	return (s.Kind == "byo" || s.Kind == "") && !s.Walkin
}

// penalty is §8.2's breach penalty: 25% of the amount, ×1.5 when the payee is the mole
// (37.5%), rounded down to the microCCD.
func (m *Match) penalty(c *promise) int64 {
	if c.payee == m.mole {
		return c.amount * 375 / 1000
	}
	return c.amount * 25 / 100
}

// settleOne settles one due commitment (§8.2 step 1).
func (m *Match) settleOne(c *promise) {
	P, Q := m.seat(c.payer), m.seat(c.payee)
	c.settled = m.turn
	if !c.condition().Eval(m, c.due) {
		c.lock = 0 // released to the payer's unlocked
		c.outcome = outcomeVoid
		m.emitSettled(c)
		return
	}
	// pay from the lock, then from unlocked
	fromLock := min(c.amount, c.lock)
	c.lock = 0
	c.outcome = outcomeHonoured // closes the commitment: its lock no longer counts
	P.collateral -= fromLock
	Q.collateral += fromLock
	paid := fromLock
	fromUnlocked := min(c.amount-paid, max(m.unlocked(c.payer), 0))
	P.collateral -= fromUnlocked
	Q.collateral += fromUnlocked
	paid += fromUnlocked
	if paid < c.amount {
		c.outcome = outcomeBreached
		paid += m.drain(c.payer, c.payee, c.amount-paid) // the payer's other locks, newest-first
		c.penalty = m.drain(c.payer, c.payee, m.penalty(c))
	}
	c.paid = paid
	m.emitSettled(c)
}

// emitSettled emits the two commitment.settled events: public {id, outcome} and sealed
// {amount, id, outcome, paid, penalty} (JCS order), each payload written straight into its
// event (openEvent).
func (m *Match) emitSettled(c *promise) {
	b, at := m.openEvent()
	b = appendID(append(b, `{"id":`...), c.id)
	b = appendJCSString(append(b, `,"outcome":`...), c.outcome)
	m.closeEvent(append(b, '}'), at, "commitment.settled", visPublic, &patternFields{ID: c.id, Outcome: c.outcome, Payer: c.payer, Payee: c.payee, c: c}, nil)
	b, at = m.openEvent()
	b = strconv.AppendInt(append(b, `{"amount":`...), c.amount, 10)
	b = appendID(append(b, `,"id":`...), c.id)
	b = appendJCSString(append(b, `,"outcome":`...), c.outcome)
	b = strconv.AppendInt(append(b, `,"paid":`...), c.paid, 10)
	b = strconv.AppendInt(append(b, `,"penalty":`...), c.penalty, 10)
	m.closeEvent(append(b, '}'), at, "commitment.settled", visSealed, nil, nil)
}

// eliminate is §8.2 step 2: the seat's open commitments as payer close breached with 0 paid;
// those as payee stay live; it is called no more.
func (m *Match) eliminate(s *seatState) {
	s.alive = false
	s.elimTurn = m.turn
	m.emit("agent.eliminated", visPublic, map[string]any{"seat": s.Seat.Seat})
	for _, c := range m.sealed {
		if c.payer == s.Seat.Seat && c.outcome == outcomeOpen {
			c.lock = 0
			c.outcome = outcomeBreached
			c.settled = m.turn
			m.emitSettled(c)
		}
	}
}

// Accusation is one resolved accusation (§11.1): amount is the stake moved, microCCD.
type Accusation struct {
	Seat    int   `json:"seat"`
	On      int   `json:"on"`
	Correct bool  `json:"correct"`
	Amount  int64 `json:"amount"`
}

// BountyPaid is §11.2's split, microCCD.
type BountyPaid struct {
	Pot        int64            `json:"pot"`
	Rungs      int              `json:"rungs"`
	ToMole     int64            `json:"to_mole"`
	ToAccusers map[string]int64 `json:"to_accusers"`
}

// Accusations lists the resolved accusations in seat order (empty before round settlement).
func (m *Match) Accusations() []Accusation { return append([]Accusation(nil), m.resolved...) }

// Bounty is the bounty split (zero before round settlement).
func (m *Match) Bounty() BountyPaid {
	if m.bountyPaid == nil {
		return BountyPaid{}
	}
	return *m.bountyPaid
}

// settleRound is §11 after the last turn's settle: accusations at 10% computed on the balances
// as they stand, then applied; the rungs whose moment is round settlement; the bounty; house
// fees; payouts; the reveal and the transcript anchor.
func (m *Match) settleRound() {
	m.stage = stSettled
	m.emit("phase.started", visPublic, map[string]any{"phase": "settled"})
	type move struct {
		from, to int
		amt      int64
	}
	var moves []move
	for _, s := range m.seats {
		if s.accusation == 0 {
			continue
		}
		a := Accusation{Seat: s.Seat.Seat, On: s.accusation, Correct: s.accusation == m.mole}
		if a.Correct {
			a.Amount = m.seat(m.mole).collateral * 10 / 100
			moves = append(moves, move{m.mole, a.Seat, a.Amount})
		} else {
			a.Amount = s.collateral * 10 / 100
			moves = append(moves, move{a.Seat, m.mole, a.Amount})
		}
		m.resolved = append(m.resolved, a)
	}
	for _, mv := range moves {
		// every lock is closed by now (due ≤ turns), so these are plain transfers; drain keeps
		// the cap at collateral all the same
		m.drain(mv.from, mv.to, mv.amt)
	}
	for _, a := range m.resolved {
		m.emit("accusation.resolved", visPublic, a)
	}
	m.rungsAtRoundSettlement()

	// §11.2 the bounty
	r := len(m.rungsReached())
	b := &BountyPaid{Pot: m.pot, Rungs: r, ToMole: m.pot * int64(r) / 3, ToAccusers: map[string]int64{}}
	rest := m.pot - b.ToMole
	var correct []int
	for _, a := range m.resolved {
		if a.Correct {
			correct = append(correct, a.Seat)
		}
	}
	sort.Ints(correct)
	if len(correct) == 0 {
		b.ToMole += rest
	} else {
		each := rest / int64(len(correct))
		for _, s := range correct {
			b.ToAccusers[itoa(s)] = each
			m.seat(s).collateral += each
		}
		b.ToAccusers[itoa(correct[0])] += rest - each*int64(len(correct))
		m.seat(correct[0]).collateral += rest - each*int64(len(correct))
	}
	m.seat(m.mole).collateral += b.ToMole
	m.bountyPaid = b
	m.emit("bounty.paid", visPublic, b)

	// §11.3 payouts; §14 table and inference fees per human seat, from its payout
	payouts := map[string]int64{}
	fees := map[string]int64{}
	for _, s := range m.seats {
		if s.Human {
			fee := m.fees.Table
			if s.Kind == "ots" {
				fee += m.fees.Inference
			}
			fee = min(fee, s.budget+s.collateral)
			fromBudget := min(fee, s.budget)
			s.budget -= fromBudget
			s.collateral -= fee - fromBudget
			m.house += fee
			if fee > 0 {
				fees[itoa(s.Seat.Seat)] = fee
			}
		}
		payouts[itoa(s.Seat.Seat)] = s.collateral + s.budget
	}
	m.emit("round.settled", visPublic, map[string]any{"payouts": payouts, "house": m.house, "fees": fees})
	m.revealRound()
}
