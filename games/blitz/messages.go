package blitz

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

// Messages (§6): reading, limits, the events and the inbox items.

// The §6 vocabularies: a message's type and its tone.
var (
	messageTypes = []string{"public", "private"}
	tones        = []string{"ask", "offer", "accept", "decline", "neutral"}
)

// toneOK reports whether tone is in the §6 vocabulary.
func toneOK(tone string) bool { return slices.Contains(tones, tone) }

// message is one §6 message as read by readMessage. text is the decoded text
// and textJCS the same text as a JCS string literal (quotes included); to is the raw value of
// the `to` member.
type message struct {
	typ, tone     string
	text, textJCS []byte
	runes         int // characters in text
	to            []byte
	hasTo         bool
}

// readMessage reads one message strictly in one pass (canon.Parse: no member twice or
// case-folded, valid UTF-8), exact member names type, to, text, tone, nothing else.
func readMessage(raw json.RawMessage, parsed *canon.Value) (message, string) {
	var v canon.Value
	if parsed != nil {
		v = *parsed
	} else {
		var err error
		if v, err = canon.Parse(raw); err != nil {
			return message{}, canon.Reason(err)
		}
	}
	if v.Kind() != canon.Object {
		return message{}, "a message is an object"
	}
	var msg message
	for i := 0; i < v.Len(); i++ {
		name, val := v.Member(i)
		var ok bool
		switch name {
		case "type":
			msg.typ, _, ok = val.StrIn(messageTypes)
		case "text":
			// A text without an escape is read in place, and its literal is its JCS form; the
			// bytes are only read while the answer is taken (talk copies what it keeps).
			var text []byte
			if text, ok = val.StrBytes(); ok {
				msg.text = text
				if lit := val.Raw(); len(lit) == len(text)+2 {
					msg.textJCS = lit
				} else {
					msg.textJCS = appendJCSString(nil, string(text))
				}
				msg.runes = utf8.RuneCount(text)
			}
		case "tone":
			msg.tone, _, ok = val.StrIn(tones)
		case "to":
			msg.to, msg.hasTo, ok = val.Raw(), true, true
		default:
			return message{}, "unknown member " + strconv.Quote(name)
		}
		if !ok {
			return message{}, name + " must be a string"
		}
	}
	return msg, ""
}

// talk publishes a talk answer's messages (§6): at most 8 public and 8 private per exchange,
// 600 characters each, tone from the vocabulary (absent = neutral). Private lines go to the
// addressee only, sealed in the transcript, with a public `talking` event. vals, when not nil,
// are the messages already strictly parsed.
//
// It works in two passes: the first judges every message (the dropped list, in order) and
// keeps the taken ones, at most 8 + 8; the second writes them. So what the answer needs is
// known before anything is written: the step's events grow once, and the bytes that outlive
// the call (a private line's sealed payload, each line's inbox item) go into one buffer of
// exactly their size, each a full slice of it, never written again. A public payload needs no
// bytes of its own: the event's payload is the public log's copy (emitRaw).
func (m *Match) talk(seat int, msgs []json.RawMessage, vals []canon.Value) ([]Dropped, bool) {
	var dropped []Dropped
	var taken [16]takenLine // 8 public and 8 private at most
	pub, priv, n := 0, 0, 0
	size := 0
	for i, raw := range msgs {
		var parsed *canon.Value
		if i < len(vals) {
			parsed = &vals[i]
		}
		msg, bad := readMessage(raw, parsed)
		if bad != "" {
			dropped = dropMessage(dropped, i, "%s", bad)
			continue
		}
		if msg.tone == "" {
			msg.tone = "neutral"
		}
		switch r := msg.runes; {
		case !toneOK(msg.tone):
			dropped = dropMessage(dropped, i, "tone %q not in the vocabulary", msg.tone)
			continue
		case r == 0 || r > 600:
			dropped = dropMessage(dropped, i, "text must be 1–600 characters, got %d", r)
			continue
		}
		switch msg.typ {
		case "public":
			if msg.hasTo {
				dropped = dropMessage(dropped, i, "a public message has no to")
				continue
			}
			if pub == 8 {
				dropped = dropMessage(dropped, i, "8 public messages per exchange")
				continue
			}
			pub++
			taken[n] = takenLine{msg: msg}
			size += lineLen("public", seat, msg.textJCS, 0, msg.tone, m.turn, m.exchange)
			n++
		case "private":
			to, err := m.seatRef(msg.to)
			if err != nil || to == seat {
				dropped = dropMessage(dropped, i, "to must be another seat")
				continue
			}
			if !m.seat(to).alive {
				dropped = dropMessage(dropped, i, "seat %d is eliminated", to)
				continue
			}
			if priv == 8 {
				dropped = dropMessage(dropped, i, "8 private messages per exchange")
				continue
			}
			priv++
			taken[n] = takenLine{msg: msg, to: to}
			size += lineLen("", seat, msg.textJCS, to, msg.tone, 0, 0) +
				lineLen("private", seat, msg.textJCS, to, msg.tone, m.turn, m.exchange)
			n++
		default:
			dropped = dropMessage(dropped, i, "type must be public or private")
		}
	}
	if m.step != nil && len(msgs) > 0 {
		if need := pub + 2*priv; need > 0 && len(m.step.Events) == 0 {
			m.step.Events = m.talkRoom.events(need, m.talkersLeft())
		} else {
			m.step.Events = slices.Grow(m.step.Events, need) // message.public; message.private, talking
		}
		if m.step.Events == nil {
			// An answer with messages, all dropped, has always handed out an empty list of
			// events, not none (JSON [], not null): a byte of output kept.
			m.step.Events = []games.Event{}
		}
	}
	if n == 0 {
		return dropped, false
	}
	buf := m.talkRoom.bytes(size, m.talkersLeft())
	for _, t := range taken[:n] {
		msg := &t.msg
		// Each object that outlives the call is written at the end of buf and taken as a full
		// slice of it; a public payload is written straight into the event (openEvent).
		if t.to == 0 {
			b, at := m.openEvent()
			b = lineJSON(b, "", seat, msg.textJCS, 0, msg.tone, 0, 0)
			m.closeEvent(b, at, "message.public", visPublic, &patternFields{From: seat, offer: hasAmountBytes(msg.text)}, nil)
			at = len(buf)
			buf = lineJSON(buf, "public", seat, msg.textJCS, 0, msg.tone, m.turn, m.exchange)
			m.sendLine(buf[at:len(buf):len(buf)], seat, 0)
			continue
		}
		to := t.to
		at := len(buf)
		buf = lineJSON(buf, "", seat, msg.textJCS, to, msg.tone, 0, 0)
		m.emitRaw("message.private", visSealed, buf[at:len(buf):len(buf)], nil)
		b, pat := m.openEvent()
		b = talkingJSON(b, seat, to, msg.tone)
		m.closeEvent(b, pat, "talking", visPublic, &patternFields{From: seat, To: to}, nil)
		m.noteTalking(seat, to)
		at = len(buf)
		buf = lineJSON(buf, "private", seat, msg.textJCS, to, msg.tone, m.turn, m.exchange)
		m.sendLine(buf[at:len(buf):len(buf)], seat, to)
		if to == m.mole {
			m.whisperFrom[seat] = true
		}
	}
	return dropped, true
}

// takenLine is a message talk takes: to is the addressee of a private line, 0 for a public one.
type takenLine struct {
	msg message
	to  int
}

// dropMessage appends the refusal of message i (bad_message, §6).
func dropMessage(dropped []Dropped, i int, f string, a ...any) []Dropped {
	return append(dropped, Dropped{Field: "messages", Index: i, Code: CodeBadMessage, Msg: sprintf(f, a...)})
}

// lineLen is len(lineJSON(nil, typ, from, textJCS, to, tone, turn, exchange)), counted
// without writing.
func lineLen(typ string, from int, textJCS []byte, to int, tone string, turn, exchange int) int {
	n := len(`{"from":`) + intLen(from) + len(`,"text":`) + len(textJCS) + len(`,"tone":`) + jcsStringLen(tone) + 1
	if typ != "" {
		n += len(`"exchange":`) + intLen(exchange) + 1 + len(`,"turn":`) + intLen(turn) + len(`,"type":`) + jcsStringLen(typ)
	}
	if to != 0 {
		n += len(`,"to":`) + intLen(to)
	}
	return n
}

// intLen is how many bytes strconv.AppendInt writes for i.
func intLen(i int) int {
	n := 1
	if i < 0 {
		n++ // the sign; the digits of -i (math.MinInt's too, counted from its own value below)
	}
	for i >= 10 || i <= -10 {
		i /= 10
		n++
	}
	return n
}

// jcsStringLen is len(appendJCSString(nil, s)).
func jcsStringLen(s string) int {
	n := 2 + len(s)
	for i := jcsPlainPrefix(s); i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}

// inboxAppend appends an item to a seat's inbox. An inbox lives until the seat's next
// envelope, so an emptied one starts small (8 lines: a quiet exchange, and what a live table
// holds between envelopes); the first time it fills it grows once to a whole exchange of lines
// to the seat (8 public and 8 private from every other seat, §6), not by doubling step by step.
func (m *Match) inboxAppend(inbox []json.RawMessage, item []byte) []json.RawMessage {
	switch full := 16*(len(m.seats)-1) + 1; {
	case inbox == nil:
		inbox = make([]json.RawMessage, 0, 8)
	case len(inbox) == cap(inbox) && cap(inbox) < full:
		inbox = append(make([]json.RawMessage, 0, full), inbox...)
	}
	return append(inbox, item)
}

// lineJSON appends a message line in JCS form to b: the event payload {from, text, to?, tone}
// when typ is "", the inbox item {exchange, from, text, to?, tone, turn, type} otherwise.
// textJCS is the text already written as a JCS string literal.
func lineJSON(b []byte, typ string, from int, textJCS []byte, to int, tone string, turn, exchange int) []byte {
	b = append(b, '{')
	if typ != "" {
		b = append(b, `"exchange":`...)
		b = strconv.AppendInt(b, int64(exchange), 10)
		b = append(b, ',')
	}
	b = append(b, `"from":`...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, `,"text":`...)
	b = append(b, textJCS...)
	if to != 0 {
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(to), 10)
	}
	b = append(b, `,"tone":`...)
	b = appendJCSString(b, tone)
	if typ != "" {
		b = append(b, `,"turn":`...)
		b = strconv.AppendInt(b, int64(turn), 10)
		b = append(b, `,"type":`...)
		b = appendJCSString(b, typ)
	}
	return append(b, '}')
}

// talkingJSON appends the talking payload {from, to, tone} to b.
func talkingJSON(b []byte, from, to int, tone string) []byte {
	b = append(b, `{"from":`...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, `,"to":`...)
	b = strconv.AppendInt(b, int64(to), 10)
	b = append(b, `,"tone":`...)
	b = appendJCSString(b, tone)
	return append(b, '}')
}

func (m *Match) noteTalking(a, b int) {
	if a > b {
		a, b = b, a
	}
	for _, p := range m.talking {
		if p == [2]int{a, b} {
			return
		}
	}
	m.talking = append(m.talking, [2]int{a, b})
}
