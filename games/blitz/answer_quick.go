package blitz

import (
	"encoding/json"
	"sync"
	"unicode/utf8"

	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// The common talk answer read in one pass over its bytes, without a parse tree:
//
//	{"messages":[{"type":"public","text":"…","tone":"offer"}, {"type":"private","to":3,…}, …]}
//
// or the common commit answer, {"commitments":[{signed §7.1 object}, …]}, with, optionally,
// the echo members (v, round, turn, phase, exchange, seat) and accusation.
// quickAnswer accepts only input the strict path (canon.Parse, then fastAnswer and
// readMessage) reads the same way, and gives the same answerBody and messages; anything
// else (an escape in a string, a member outside the vocabulary or given twice, a number that
// is not a short plain integer, more than 64 messages, non-ASCII outside a string,
// malformed JSON, a commitment commitment.ScanQuick does not take) returns false, and the
// caller takes the strict path, which finds the same answer or the precise error. Names are compared exactly and each may appear once per object;
// every accepted name is ASCII and no two accepted names fold to each other, so no duplicate or
// case-folded member can get through. Strings have no escape, so their bytes are their text
// and, between the quotes as received, their JCS form (JCS escapes only ", \ and controls,
// which an escape-free valid string cannot hold).

// quickScan is the cursor of quickAnswer. The hot loops (messages, each message) copy its
// offset into a local and work on (bytes, offset) pairs through ws, at, strAt and intAt: an
// offset kept in a register, where the cursor's field was stored and loaded again between
// every step.
type quickScan struct {
	canon.Cursor
}

// str reads an escape-free string at the cursor (after whitespace): its literal with the
// quotes and its content. false on anything else: no string, an escape, a control
// character, invalid UTF-8, no closing quote.
func (q *quickScan) str() (lit, text []byte, ok bool) {
	var end int
	if text, end, _, ok = strAt(q.D, q.I); !ok {
		return nil, nil, false
	}
	lit = q.D[end-len(text)-2 : end]
	q.I = end
	return lit, text, true
}

// ws is the offset of the first byte of d at or after i that is not JSON whitespace
// (canon.Cursor.WS on a local offset).
func ws(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i
	}
	return canon.SkipWS(d, i)
}

// at skips whitespace from i and reports whether the next byte is b: the offset past it if
// so, else the offset after the whitespace.
func at(d []byte, i int, b byte) (int, bool) {
	i = ws(d, i)
	if i < len(d) && d[i] == b {
		return i + 1, true
	}
	return i, false
}

// strAt reads an escape-free string at d[i] (after whitespace): its content, the offset past
// its closing quote, and whether it is all ASCII. false on anything else: no string, an
// escape, a control character, invalid UTF-8, no closing quote.
func strAt(d []byte, i int) (text []byte, end int, ascii, ok bool) {
	i = ws(d, i)
	if i >= len(d) || d[i] != '"' {
		return nil, i, false, false
	}
	ascii = true
	// Past the plain bytes at once (canon.SkipPlain); the loop judges from the first special
	// one (a quote, a backslash, a control character or a byte of a multi-byte character).
	for j := canon.SkipPlain(d, i+1); j < len(d); j++ {
		c := d[j]
		switch {
		case c == '"':
			text = d[i+1 : j]
			if !ascii && !utf8.Valid(text) {
				return nil, i, false, false
			}
			return text, j + 1, ascii, true
		case c == '\\' || c < 0x20:
			return nil, i, false, false
		case c >= utf8.RuneSelf:
			ascii = false
			j = canon.SkipPlain(d, j+1) - 1 // on to the next special byte
		}
	}
	return nil, i, false, false
}

// smallInt reads a plain integer (-?digits, JSON's grammar: no leading zero) of at most 9
// digits: its literal and value. Anything else (a fraction, an exponent, more digits) is
// false: the strict path judges it.
func (q *quickScan) smallInt() (lit []byte, n int, ok bool) {
	var end int
	if lit, n, end, ok = intAt(q.D, q.I); ok {
		q.I = end
	}
	return lit, n, ok
}

// intAt is smallInt at d[i] (after whitespace), also giving the offset past the literal.
func intAt(d []byte, i int) (lit []byte, n, end int, ok bool) {
	i = ws(d, i)
	start := i
	neg := false
	if i < len(d) && d[i] == '-' {
		neg = true
		i++
	}
	ds := i
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		n = n*10 + int(d[i]-'0')
		i++
	}
	nd := i - ds
	if nd == 0 || nd > 9 || (nd > 1 && d[ds] == '0') {
		return nil, 0, start, false
	}
	if i < len(d) {
		switch d[i] {
		case '.', 'e', 'E':
			return nil, 0, start, false
		}
	}
	if neg {
		n = -n
	}
	return d[start:i], n, i, true
}

// null reads the literal null.
func (q *quickScan) null() bool {
	q.WS()
	if len(q.D)-q.I >= 4 && string(q.D[q.I:q.I+4]) == "null" {
		q.I += 4
		return true
	}
	return false
}

// Top-level members of an answer, as bits of a presence mask.
const (
	qaV = 1 << iota
	qaRound
	qaTurn
	qaPhase
	qaExchange
	qaSeat
	qaMessages
	qaCommitments
	qaAccusation
)

// quickScratch holds the lists quickAnswer fills, reused from answer to answer through
// scratches: they live only while the answer is taken (every payload copies what it needs),
// and a talk answer's 16 messages are the largest of them.
type quickScratch struct {
	msgs     []message
	msgSpans []json.RawMessage
	coms     []commitment.Quick
	comSpans []json.RawMessage
	// comForms is the room the commitments' forms are written into (commitment.ScanQuickToLater): they live
	// while the answer is taken, and a commitment taken pending has its signed form copied out
	// into its commitment.pending payload (promise.rehome) before the scratch goes back.
	comForms []byte
	// names holds the round's id and the agent ids its commitments name (commitment.Names),
	// so a commitment's round, payer and payee cost no string of their own; strings never
	// change, so the ones kept from a previous answer (or round) are as good.
	names commitment.Names
}

var scratches = sync.Pool{New: func() any {
	// Sized for a full talk answer (8 + 8 messages, §6) and a full commit answer (4, §5.3), so a
	// scratch made after a collection emptied the pool is made once, not grown.
	return &quickScratch{msgs: make([]message, 0, 16), msgSpans: make([]json.RawMessage, 0, 16),
		coms: make([]commitment.Quick, 0, 4), comSpans: make([]json.RawMessage, 0, 4), comForms: make([]byte, 0, 4<<10)}
}}

// release clears the lists (they point into the answer's bytes) and gives them back; b keeps
// none of them.
func (b *answerBody) release() {
	sc := b.scratch
	if sc == nil {
		return
	}
	// A list the answer did not use (a commit answer's messages, a talk answer's commitments)
	// is nil here: the scratch keeps its own, sized for a full answer, rather than take nil and
	// grow it again from nothing at its next answer of the other kind.
	if b.quick != nil {
		sc.msgs, sc.msgSpans = clearAll(b.quick), clearAll(b.Messages)
	}
	if b.quickCom != nil {
		sc.coms, sc.comSpans = clearAll(b.quickCom), clearAll(b.Commitments)
	}
	b.quick, b.quickCom, b.Messages, b.Commitments, b.scratch = nil, nil, nil, nil, nil
	scratches.Put(sc)
}

// clearAll empties s for its next answer. Only s[:len(s)] can hold anything: a list is only
// ever appended to from empty, and cleared the same way before it goes back, so the room past
// its length is zero already (clearing it too cost write barriers while a collection runs).
func clearAll[T any](s []T) []T {
	clear(s)
	return s[:0]
}

// quickAnswer reads raw as described above; false sends the caller to the strict path. The
// answer it gives must be released once taken.
func quickAnswer(raw []byte) (answerBody, bool) {
	b := answerBody{scratch: scratches.Get().(*quickScratch)}
	b, ok := quickRead(raw, b)
	if !ok {
		b.release()
		return answerBody{}, false
	}
	return b, true
}

func quickRead(raw []byte, b answerBody) (answerBody, bool) {
	q := &quickScan{Cursor: canon.Cursor{D: raw}}
	if !q.Next('{') {
		return b, false
	}
	if q.Next('}') {
		return b, q.end()
	}
	seen := 0
	for {
		_, name, ok := q.str()
		if !ok || !q.Next(':') {
			return b, false
		}
		var bit int
		switch string(name) {
		case "v":
			bit = qaV
			b.V, ok = q.intp()
		case "turn":
			bit = qaTurn
			b.Turn, ok = q.intp()
		case "exchange":
			bit = qaExchange
			b.Exchange, ok = q.intp()
		case "seat":
			bit = qaSeat
			b.Seat, ok = q.intp()
		case "accusation":
			bit = qaAccusation
			if !q.null() {
				b.Accusation, ok = q.intp()
			}
		case "round", "phase":
			bit = qaRound
			p := &b.Round
			if string(name) == "phase" {
				bit, p = qaPhase, &b.Phase
			}
			var s []byte
			if _, s, ok = q.str(); ok {
				v := string(s)
				*p = &v
			}
		case "messages":
			bit = qaMessages
			if !q.null() {
				ok = q.messages(&b)
			}
		case "commitments":
			bit = qaCommitments
			if !q.null() {
				ok = q.commitments(&b)
			}
		default:
			return b, false
		}
		if !ok || seen&bit != 0 {
			return b, false
		}
		seen |= bit
		if q.Next(',') {
			continue
		}
		if q.Next('}') {
			return b, q.end()
		}
		return b, false
	}
}

// end reports whether only whitespace is left.
func (q *quickScan) end() bool {
	q.WS()
	return q.I == len(q.D)
}

// intp reads an integer member as fastAnswer does (a plain integer; 9 digits at most here).
func (q *quickScan) intp() (*int, bool) {
	_, n, ok := q.smallInt()
	if !ok {
		return nil, false
	}
	return &n, true
}

// messages reads the messages array: at most 64 message objects.
func (q *quickScan) messages(b *answerBody) bool {
	if !q.Next('[') || len(b.quick) > 0 {
		return false // (a second messages member: the strict path refuses it)
	}
	b.Messages = b.scratch.msgSpans[:0]
	b.quick = b.scratch.msgs[:0]
	if q.Next(']') {
		return true
	}
	d, i := q.D, q.I
	for {
		if len(b.quick) == 64 {
			return false
		}
		start := ws(d, i)
		b.quick = append(b.quick, message{}) // read in place: a message is 120 bytes
		end, ok := scanMessage(d, start, &b.quick[len(b.quick)-1])
		if !ok {
			return false
		}
		b.Messages = append(b.Messages, d[start:end:end])
		if i, ok = at(d, end, ','); ok {
			continue
		}
		i, ok = at(d, i, ']')
		q.I = i
		return ok
	}
}

// commitments reads the commitments array: at most 64 signed commitments, each taken by
// commitment.ScanQuickToLater then FinishQuick (the common shape, valid under the schema); any other item sends the
// whole answer to the strict path, which judges each item alone.
func (q *quickScan) commitments(b *answerBody) bool {
	if !q.Next('[') || len(b.quickCom) > 0 {
		return false // (a second commitments member: the strict path refuses it)
	}
	b.Commitments = b.scratch.comSpans[:0]
	b.quickCom = b.scratch.coms[:0]
	b.scratch.comForms = b.scratch.comForms[:0]
	if q.Next(']') {
		return true
	}
	for {
		if len(b.quickCom) == 64 {
			return false
		}
		q.WS()
		start := q.I
		// Read in place (a refused one stays in the list, which release clears); the digests
		// once all are read, two at a time (FinishQuick).
		b.quickCom = append(b.quickCom, commitment.Quick{})
		end, ok := commitment.ScanQuickToLater(&b.quickCom[len(b.quickCom)-1], q.D, q.I, &b.scratch.comForms, &b.scratch.names)
		if !ok {
			return false
		}
		q.I = end
		b.Commitments = append(b.Commitments, q.D[start:end:end])
		if q.Next(',') {
			continue
		}
		if !q.Next(']') {
			return false
		}
		commitment.FinishQuick(b.quickCom)
		return true
	}
}

// Members of a message, as bits of a presence mask.
const (
	qmType = 1 << iota
	qmText
	qmTone
	qmTo
)

// scanMessage reads one message object at d[i] as readMessage would: members type, text,
// tone (strings) and to (here a plain integer only, kept as its literal for seatRef), each at
// most once; the offset past its closing brace. The member names are matched as whole
// literals (msgName), which is what a string read would give for them: an escape-free string
// is its bytes between the quotes. The common type and tone values are the vocabulary's own
// strings (vocabWord), so a message costs no string allocation.
func scanMessage(d []byte, i int, msg *message) (int, bool) {
	i, ok := at(d, i, '{')
	if !ok {
		return i, false
	}
	if j, ok := at(d, i, '}'); ok {
		return j, true
	}
	seen := 0
	for {
		i = ws(d, i)
		k, n := msgName(d[i:])
		if k < 0 { // any other name is outside the vocabulary: the strict path
			return i, false
		}
		bit := 1 << k
		if seen&bit != 0 {
			return i, false
		}
		seen |= bit
		if i, ok = at(d, i+n, ':'); !ok {
			return i, false
		}
		var text []byte
		switch bit {
		case qmType:
			i = ws(d, i)
			if t, n := knownType(d[i:]); n > 0 {
				msg.typ, i = t, i+n
			} else if text, i, _, ok = strAt(d, i); ok {
				msg.typ = vocabWord(text, messageTypes)
			}
		case qmText:
			var ascii bool
			if text, i, ascii, ok = strAt(d, i); ok {
				msg.text = text
				msg.textJCS = d[i-len(text)-2 : i] // the literal, quotes included: its own JCS form
				msg.runes = len(text)
				if !ascii {
					msg.runes = utf8.RuneCount(text)
				}
			}
		case qmTone:
			i = ws(d, i)
			if t, n := knownTone(d[i:]); n > 0 {
				msg.tone, i = t, i+n
			} else if text, i, _, ok = strAt(d, i); ok {
				msg.tone = vocabWord(text, tones)
			}
		case qmTo:
			msg.to, _, i, ok = intAt(d, i)
			msg.hasTo = true
		}
		if !ok {
			return i, false
		}
		if i, ok = at(d, i, ','); ok {
			continue
		}
		return at(d, i, '}')
	}
}

// knownType matches the head of r against the two types' literals, quotes included: the type
// and the literal's length, or 0. A literal matched whole is an escape-free string whose
// closing quote is its last byte, so this is what strAt then vocabWord give for it, with
// constant comparisons (a load or two each) in place of a scan; anything else goes to strAt.
func knownType(r []byte) (string, int) {
	switch {
	case len(r) >= 8 && string(r[:8]) == `"public"`:
		return "public", 8
	case len(r) >= 9 && string(r[:9]) == `"private"`:
		return "private", 9
	}
	return "", 0
}

// knownTone is knownType for the five tones (§6).
func knownTone(r []byte) (string, int) {
	switch {
	case len(r) >= 7 && string(r[:7]) == `"offer"`:
		return "offer", 7
	case len(r) >= 5 && string(r[:5]) == `"ask"`:
		return "ask", 5
	case len(r) >= 8 && string(r[:8]) == `"accept"`:
		return "accept", 8
	case len(r) >= 9 && string(r[:9]) == `"decline"`:
		return "decline", 9
	case len(r) >= 9 && string(r[:9]) == `"neutral"`:
		return "neutral", 9
	}
	return "", 0
}

// vocabWord is text as a string: the vocabulary's own when it is one of words (no allocation
// for the common values), a copy of anything else (which talk refuses, naming it).
func vocabWord(text []byte, words []string) string {
	for _, w := range words {
		if string(text) == w {
			return w
		}
	}
	return string(text)
}

// msgName reads a message's member name at the head of r when it is one of the four, each
// matched as its whole literal: the index of its qm bit and the literal's length, or -1. The
// literals are constants here, so each comparison is a load or two.
func msgName(r []byte) (k, n int) {
	switch {
	case len(r) >= 6 && string(r[:6]) == `"text"`:
		return 1, 6
	case len(r) >= 6 && string(r[:6]) == `"tone"`:
		return 2, 6
	case len(r) >= 6 && string(r[:6]) == `"type"`:
		return 0, 6
	case len(r) >= 4 && string(r[:4]) == `"to"`:
		return 3, 4
	}
	return -1, 0
}
