package blitz

import "arena/games"

// eventMarks are the events the reveal's decisive moments can name (moments), noted as they are
// emitted so that a live match need not keep its transcript: the public commitment.sealed and
// commitment.settled event of each commitment (by id), the first agent.eliminated, the first
// mole.rung and the last accusation placed or moved.
type eventMarks struct {
	sealed, settled []commitMark
	firstElim       *games.Event
	firstBell       *games.Event
	lastAcc         *games.Event
}

// commitMark is where one commitment's public event is in the transcript.
type commitMark struct {
	id   string
	seq  int64
	turn int
}

// note records ev if a moment can name it. pf is the event's pattern fields, which carry the
// commitment id of the public commitment events.
func (k *eventMarks) note(ev *games.Event, pf *patternFields) {
	switch ev.Type {
	case "commitment.sealed", "commitment.settled":
		if ev.Visibility != visPublic || pf == nil {
			return
		}
		mk := commitMark{id: pf.ID, seq: ev.Seq, turn: ev.Turn}
		if ev.Type == "commitment.sealed" {
			k.sealed = append(k.sealed, mk)
		} else {
			k.settled = append(k.settled, mk)
		}
	case "agent.eliminated":
		if k.firstElim == nil {
			k.firstElim = cloneEvent(ev)
		}
	case "mole.rung":
		if k.firstBell == nil {
			k.firstBell = cloneEvent(ev)
		}
	case "accusation.sealed", "accusation.moved":
		k.lastAcc = cloneEvent(ev)
	}
}

// last is the last mark of id in marks (the zero Event when there is none), as an event with the
// type, seq and turn a Moment reads.
func lastMark(marks []commitMark, typ, id string) games.Event {
	for i := len(marks) - 1; i >= 0; i-- {
		if marks[i].id == id {
			return games.Event{Seq: marks[i].seq, Turn: marks[i].turn, Type: typ}
		}
	}
	return games.Event{}
}

func cloneEvent(ev *games.Event) *games.Event {
	c := *ev
	return &c
}
