package dotdotdot

import (
	"errors"
	"fmt"

	"arena/actors"
)

// A walk-in seat whose table was stopped by an operator or parked as failed (actors.TableStopped,
// supervisor.go). §4.4: next "blocks until the arena has a move for this seat", and a stopped
// table has none it can take; "a walk-in MUST NOT hold more than one live round", and a stopped
// round is not live. So the seat is given up at once: the open move is dropped (not counted as
// missed), polls are answered with NextStopped, answers are stale, and the walk-in is free to
// join again. If an operator restarts the table, its moves for this seat are answered with
// silence (the away rule's empty answer) and its result is not the walk-in's.

// NextStopped is the Next status of a seat whose table was stopped or parked: the seat is given
// up; join again to play.
const NextStopped = "stopped"

// deskSeatStopped goes mailbox → desk: the seat's table stopped. The desk forgets the live entry
// (so the seat's mailbox is not respawned, nor its table restarted, at the next boot) and tells
// the walk-in actor.
type deskSeatStopped struct {
	Hash    string
	Stopped actors.TableStopped
}

// walkinSeatStopped goes desk → walk-in: give up the seat if it is this one.
type walkinSeatStopped struct{ Stopped actors.TableStopped }

// stop takes a actors.TableStopped for this seat; false when it is for another seat or round, the round
// is already over, or it was already taken (a second stop).
func (m *mailbox) stop(s *actors.TableStopped) bool {
	if s.Table != m.table || s.Seat != m.seat || m.result != nil || m.stopped != "" ||
		(m.round != "" && s.Round != m.round) {
		return false
	}
	m.stopped = s.Status
	if m.stopped == "" {
		m.stopped = actors.StatusStopped
	}
	m.round, m.cur, m.state, m.away, m.missed = s.Round, nil, 0, false, 0
	return true
}

func (m *mailbox) stoppedNext() Next {
	return Next{Waiting: true, Status: NextStopped, Round: m.round, Table: m.table, Seat: m.seat, Game: m.game,
		Brief: fmt.Sprintf("Table %s was %s by the arena and round %s will not go on with you; your seat is given up. Join again to play.",
			m.table, m.stopped, m.round)}
}

// seatStopped gives up the live seat named by s (walk-in actor). The mailbox stays this
// walk-in's until its next join, so polls keep hearing NextStopped rather than an older result.
func (w *walkin) seatStopped(s actors.TableStopped) {
	l := w.rec.Live
	if l == nil || l.Table != s.Table || l.Seat != s.Seat || (l.Round != "" && l.Round != s.Round) {
		return
	}
	w.rec.Live = nil
	w.persist()
}

// liveEnded is the end of the live seat's round as its table's record says it, or nil while the
// round is not over (or the record cannot be read).
func (w *walkin) liveEnded() *actors.RoundEnded {
	l := w.rec.Live
	if l == nil || l.Table == "" {
		return nil
	}
	rec, err := w.a.Stored(l.Table)
	if err != nil || rec.Status != actors.StatusFinished || rec.Result == nil || rec.Round != l.Round {
		return nil
	}
	return &actors.RoundEnded{Table: l.Table, Round: l.Round, Seat: l.Seat, Result: *rec.Result}
}

// liveGone reports whether the live seat's table is stopped or failed (its record says so),
// for a seat whose actors.TableStopped never reached the walk-in (the server went down meanwhile, or
// the table stopped before this fix). A record that cannot be decoded (actors.ErrDamaged: boot
// recovery parked the table as failed) releases the seat; one that cannot be read for another
// reason (I/O) leaves it held.
func (w *walkin) liveGone() bool {
	l := w.rec.Live
	if l == nil || l.Table == "" {
		return false
	}
	rec, err := w.a.Stored(l.Table)
	if errors.Is(err, actors.ErrDamaged) {
		return true
	}
	if err != nil {
		return false
	}
	return rec.Round == l.Round && (rec.Status == actors.StatusStopped || rec.Status == actors.StatusFailed)
}
