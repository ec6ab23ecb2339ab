package blitz

import "strconv"

// eventHead holds the members of an event's JCS bytes (§15) that stay the same from one event
// to the next within a call: `at`, `phase`, `round` and `turn`. A talk answer emits two dozen
// events at one instant in one phase and turn, so their constant text is written once per
// call instead of escaped member by member for each event (appendEvent). The bytes are exactly
// appendEvent's: members in JCS order, the strings written by appendJCSString.
type eventHead struct {
	ok    bool
	at    string
	phase string
	round string
	turn  int

	buf   []byte // the three parts below, end to end; rewritten only when a key changes
	head  int    // buf[:head] is `{"at":"…","payload":`
	mid   int    // buf[head:mid] is `,"phase":"…","round":"…","seq":`
	turnT int    // buf[mid:turnT] is `,"turn":N,"type":`

	// The last few (type, visibility) pairs' closing bytes, `"type","visibility":"vis"}`: a
	// call's events come in a few kinds (a talk answer's are message.public, message.private
	// and talking), so each kind's are written once and copied after, not escaped member by
	// member for every event. Slots are reused round-robin (next); a slot's bytes are only
	// ever copied out.
	tails [4]tailBytes
	next  int
}

// tailBytes is one (type, visibility) pair's closing bytes.
type tailBytes struct {
	typ, vis string
	b        []byte
}

// typeVis returns the closing bytes of an event of type typ and visibility vis:
// appendJCSString(typ), `,"visibility":`, appendJCSString(vis) and the closing brace.
func (h *eventHead) typeVis(typ, vis string) []byte {
	for i := range h.tails {
		if t := &h.tails[i]; t.b != nil && t.typ == typ && t.vis == vis {
			return t.b
		}
	}
	t := &h.tails[h.next]
	h.next = (h.next + 1) % len(h.tails)
	b := appendJCSString(t.b[:0], typ)
	b = append(b, `,"visibility":`...)
	b = appendJCSString(b, vis)
	t.typ, t.vis, t.b = typ, vis, append(b, '}')
	return t.b
}

// set makes the cached parts those of an event at instant at, in phase and round, of turn.
func (h *eventHead) set(at, phase, round string, turn int) {
	if h.ok && h.at == at && h.phase == phase && h.round == round && h.turn == turn {
		return
	}
	h.ok, h.at, h.phase, h.round, h.turn = true, at, phase, round, turn
	b := append(h.buf[:0], `{"at":`...)
	b = appendJCSString(b, at)
	b = append(b, `,"payload":`...)
	h.head = len(b)
	b = append(b, `,"phase":`...)
	b = appendJCSString(b, phase)
	b = append(b, `,"round":`...)
	b = appendJCSString(b, round)
	b = append(b, `,"seq":`...)
	h.mid = len(b)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(turn), 10)
	b = append(b, `,"type":`...)
	h.turnT = len(b)
	h.buf = b
}

// appendEvent appends the JCS bytes of the event with these seq, type, visibility and payload
// (canonical JSON) and the cached members to b, and says where in the result the payload
// starts. set must have been called for the event's at, phase, round and turn.
func (h *eventHead) appendEvent(b []byte, seq int64, typ, vis string, payload []byte) ([]byte, int) {
	b = h.appendHead(b)
	at := len(b)
	return h.appendTail(append(b, payload...), seq, typ, vis), at
}

// appendHead appends the event's bytes before its payload: `{"at":"…","payload":`.
func (h *eventHead) appendHead(b []byte) []byte { return append(b, h.buf[:h.head]...) }

// appendTail appends the event's bytes after its payload, from `,"phase":` to the closing brace.
func (h *eventHead) appendTail(b []byte, seq int64, typ, vis string) []byte {
	b = append(b, h.buf[h.head:h.mid]...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, h.buf[h.mid:h.turnT]...)
	return append(b, h.typeVis(typ, vis)...)
}
