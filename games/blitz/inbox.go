package blitz

import (
	"encoding/json"
	"math/bits"
)

// The lines of a talk exchange reach the seats' inboxes (§5.3: what reached a seat since its
// last envelope) when the next envelopes are built, not line by line: sendLine notes each
// line's item and addressees, and deliverLines hands them out in the order sent, each seat's
// inbox cut from one block of exactly the items of the exchange. An inbox line by line grew
// by steps (8 items, then a whole exchange's worth for every seat) and was mostly unused room.

// pendingLine is one line's inbox item and the seats it goes to (bit n for seat n).
type pendingLine struct {
	item []byte
	to   uint64
}

// sendLine sends a line's inbox item from seat from: to seat to, or, when to is 0, to every
// other live seat. A table of more than 63 seats (no format seats one) appends at once.
func (m *Match) sendLine(item []byte, from, to int) {
	if len(m.seats) > 63 {
		for _, o := range m.seats {
			if n := o.Seat.Seat; (to == 0 && n != from && o.alive) || n == to {
				o.inbox = m.inboxAppend(o.inbox, item)
			}
		}
		return
	}
	var mask uint64
	if to != 0 {
		mask = 1 << uint(to)
	} else {
		for _, o := range m.seats {
			if o.Seat.Seat != from && o.alive {
				mask |= 1 << uint(o.Seat.Seat)
			}
		}
	}
	m.lines = append(m.lines, pendingLine{item: item, to: mask})
}

// deliverLines appends the lines sent so far to their seats' inboxes, after what each inbox
// holds, in the order sent. It runs before anything else is put in an inbox (a notice, a call)
// and before the envelopes read them (buildPrompts). The pending list keeps its room for the
// next exchange, its items let go.
func (m *Match) deliverLines() {
	if len(m.lines) == 0 {
		return
	}
	var count [64]int
	total := 0
	for _, l := range m.lines {
		for t := l.to; t != 0; t &= t - 1 {
			count[bits.TrailingZeros64(t)]++
		}
	}
	for i, s := range m.seats {
		if c := count[i+1]; c > 0 {
			total += len(s.inbox) + c
		}
	}
	block := make([]json.RawMessage, total)
	off := 0
	for i, s := range m.seats {
		if c := count[i+1]; c > 0 {
			n := len(s.inbox) + c
			s.inbox = append(block[off:off:off+n], s.inbox...)
			off += n
		}
	}
	for _, l := range m.lines {
		for t := l.to; t != 0; t &= t - 1 {
			s := m.seats[bits.TrailingZeros64(t)-1]
			s.inbox = append(s.inbox, l.item)
		}
	}
	clear(m.lines)
	m.lines = m.lines[:0]
}
