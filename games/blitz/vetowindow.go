package blitz

import "time"

// vetoWindow is how long, on a clock that closes phases early (Pace.CloseEarly: the chat
// clock of §4.5), a lever holder keeps the commit phase open for its veto after its own commit
// answer was taken: a fifth of the commit phase (36 s of the chat clock's three minutes). §12
// allows a veto "only during commit" on the human's own pending commitment, and pendings exist
// only once the seat has answered; closing the phase the moment the last seat answers would
// leave no instant to veto in, and the veto task's first rung (§9) could never ring at chat
// pace. The fifth is §5.3's own proportion: on the agent clock the commit phase is 25 s and the
// agent answers within 20 s, which leaves the human the last 5 s. The window never runs past the
// phase's scheduled end (docs/protocol-notes.md, games/blitz, "Veto window").
func (c clock) vetoWindow() time.Duration { return c.commit / 5 }

// vetoHold reports until when the open commit phase stays open after every live seat has
// answered: the latest (commit answer + vetoWindow) over the live seats that hold the levers
// (a Human beside an agent; never a walk-in, which answers for itself), have not used their veto and have a pending commitment of their own that
// is not vetoed, capped at the phase's current deadline. false when no seat waits, or its
// window has passed, so the phase closes now.
func (m *Match) vetoHold() (time.Time, bool) {
	var until time.Time
	for _, c := range m.pending {
		s := m.seat(c.payer)
		// A walk-in is its own human: its commit answer is its human's word, so it holds no window
		// (else every chat-clock Practice commit would wait out a minute nobody uses, against §4.5
		// "a round is as slow as its slowest player and no slower").
		if c.vetoed || !s.alive || !s.Human || s.Walkin || s.Levers == LeversNone || s.vetoUsed {
			continue
		}
		if end := s.committedAt.Add(m.clk.vetoWindow()); end.After(until) {
			until = end
		}
	}
	if until.After(m.deadline) {
		until = m.deadline
	}
	return until, until.After(m.now)
}

// closeIfAllAnswered closes the open phase now when the clock closes phases early and every
// live seat has answered it (§4.5 closeEarly), except that a commit phase first waits out the
// veto window of any seat that can still veto (vetoHold): the phase's deadline moves to the
// window's end, and Advance closes it then, or a later call here does once the veto is spent.
func (m *Match) closeIfAllAnswered() {
	if !m.clk.closeEarly || !m.allAnswered() {
		return
	}
	if m.stage == stCommit {
		if until, ok := m.vetoHold(); ok {
			m.deadline = until
			return
		}
	}
	m.closePhase(m.now)
	m.cascade(m.now)
}
