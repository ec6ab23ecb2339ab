package blitz

import "arena/games"

// eventMarks are the events the reveal's decisive moments can name (moments), noted as they are
// emitted so that a live match need not keep its transcript: the public commitment.sealed and
// commitment.settled event of each commitment, the first agent.eliminated, the first mole.rung
// and the last accusation placed or moved.
//
// A commitment's events are noted on the commitment itself (promise.sealedAt, settledAt: two
// 16-bit seqs in the room its flags leave, so it is no larger), their turns being its
// sealedTurn and settled; the lists, by id, hold only those the match did not pass the
// commitment of, or whose seq is past 16 bits (neither is met in a round of the formats: a
// list entry was 32 bytes a commitment and event, 2 KB of a late-round house table).
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
		if c := pf.c; c != nil && c.id == pf.ID && ev.Seq > 0 && ev.Seq <= 0xffff {
			if ev.Type == "commitment.sealed" && ev.Turn == c.sealedTurn {
				c.sealedAt = uint16(ev.Seq)
				return
			}
			if ev.Type == "commitment.settled" && ev.Turn == c.settled {
				c.settledAt = uint16(ev.Seq)
				return
			}
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

// markOf is the last public event of type typ ("commitment.sealed" or "commitment.settled")
// about c noted (the zero Event when there is none), as an event with the type, seq and turn a
// Moment reads: from c, or from the lists for a commitment noted there.
func (k *eventMarks) markOf(typ string, c *promise) games.Event {
	list, at, turn := k.settled, c.settledAt, c.settled
	if typ == "commitment.sealed" {
		list, at, turn = k.sealed, c.sealedAt, c.sealedTurn
	}
	if e := lastMark(list, typ, c.id); e.Seq > int64(at) {
		return e // noted in the list after the commitment's own (never: a commitment's events are noted one way)
	} else if at != 0 {
		return games.Event{Seq: int64(at), Turn: turn, Type: typ}
	}
	return games.Event{}
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
