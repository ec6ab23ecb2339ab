package blitz

import "arena/games"

// talkRoom is where the talk answers of the open exchange put what they hand out: each
// answer's events (its step's list) and the bytes that outlive it (private payloads, inbox
// items) are exact-size pieces carved from two blocks made for the exchange, not two
// allocations of their own per answer. Every seat's answer to an exchange is about the same
// size and lives about as long as the others (the lines reach the next envelopes; the events
// are persisted as the steps are handed out), so a block is made for the answer that finds
// too little room, at its own size times the seats that have still to answer (itself
// included): the same bytes in all, in a sixth of the allocations, each a span of its own
// size class less (a talk answer's two lists were the round's most frequent large objects).
// Every piece is a full slice (its capacity is its length): an append to one copies it and
// never writes into the next. The match lets both blocks go as the exchange closes, so a table
// between exchanges holds none of their room.
type talkRoom struct {
	ev  []games.Event // room left: a block's unused tail, zero values
	buf []byte        // room left
}

// events returns an empty list with room for exactly n events, from the block when it has the
// room, else from a new block sized for n times seats answers.
func (r *talkRoom) events(n, seats int) []games.Event {
	if len(r.ev) < n {
		r.ev = make([]games.Event, n*max(seats, 1))
	}
	s := r.ev[:0:n]
	r.ev = r.ev[n:]
	if len(r.ev) == 0 {
		r.ev = nil
	}
	return s
}

// bytes returns an empty buffer with room for exactly n bytes, as events does.
func (r *talkRoom) bytes(n, seats int) []byte {
	if len(r.buf) < n {
		r.buf = make([]byte, n*max(seats, 1))
	}
	s := r.buf[:0:n]
	r.buf = r.buf[n:]
	if len(r.buf) == 0 {
		r.buf = nil
	}
	return s
}

// drop lets both blocks go (their pieces handed out stay valid: they hold the block).
func (r *talkRoom) drop() { r.ev, r.buf = nil, nil }

// talkersLeft is how many live seats have still to answer the open move, the one answering now
// (already marked answered) included.
func (m *Match) talkersLeft() int {
	n := 1
	for _, s := range m.seats {
		if s.alive && !m.answered[s.Seat.Seat] {
			n++
		}
	}
	return n
}
