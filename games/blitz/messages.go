package blitz

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"arena/games/canon"
)

// Messages (§6): reading, limits, the events and the inbox items.

// toneOK reports whether tone is in the §6 vocabulary.
func toneOK(tone string) bool {
	switch tone {
	case "ask", "offer", "accept", "decline", "neutral":
		return true
	}
	return false
}

// message is one §6 message as read by readMessage or quickAnswer. text is the decoded text
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
			return message{}, err.Error()
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
			msg.typ, ok = val.Str()
		case "text":
			var text string
			if text, ok = val.Str(); ok {
				msg.text = []byte(text)
				msg.textJCS = appendJCSString(nil, text)
				msg.runes = utf8.RuneCountInString(text)
			}
		case "tone":
			msg.tone, ok = val.Str()
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
// addressee only, sealed in the transcript, with a public `talking` event. vals and quick,
// when not nil, are the messages already read (strictly parsed, or by quickAnswer).
//
// The payloads and inbox items of one answer are written into one buffer of their own (each
// a full slice of it, never written again), not one allocation each: a talk answer is up to
// 16 lines, each two to three such objects.
func (m *Match) talk(seat int, msgs []json.RawMessage, vals []canon.Value, quick []message) ([]Dropped, bool) {
	var dropped []Dropped
	pub, priv := 0, 0
	took := false
	size, events := 0, 0
	for i, raw := range msgs {
		switch {
		case i >= len(quick):
			size += 2*len(raw) + 200 // a text's JCS form is never longer than its literal as received
			events += 2
		case quick[i].typ == "public":
			size += lineSize(&quick[i])
			events++ // message.public
		default:
			size += lineSize(&quick[i])
			events += 2 // message.private, talking
		}
	}
	if m.step != nil {
		m.step.Events = slices.Grow(m.step.Events, events)
	}
	buf := make([]byte, 0, size)
	for i, raw := range msgs {
		var msg message
		if i < len(quick) {
			msg = quick[i]
		} else {
			var parsed *canon.Value
			if i < len(vals) {
				parsed = &vals[i]
			}
			var bad string
			if msg, bad = readMessage(raw, parsed); bad != "" {
				dropped = dropMessage(dropped, i, "%s", bad)
				continue
			}
		}
		if msg.tone == "" {
			msg.tone = "neutral"
		}
		n := msg.runes
		switch {
		case !toneOK(msg.tone):
			dropped = dropMessage(dropped, i, "tone %q not in the vocabulary", msg.tone)
			continue
		case n == 0 || n > 600:
			dropped = dropMessage(dropped, i, "text must be 1–600 characters, got %d", n)
			continue
		}
		// Each object is written at the end of buf and taken as a full slice of it.
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
			took = true
			at := len(buf)
			buf = lineJSON(buf, "", seat, msg.textJCS, 0, msg.tone, 0, 0)
			m.emitRaw("message.public", visPublic, buf[at:len(buf):len(buf)], &patternFields{From: seat, offer: hasAmountBytes(msg.text)})
			at = len(buf)
			buf = lineJSON(buf, "public", seat, msg.textJCS, 0, msg.tone, m.turn, m.exchange)
			item := buf[at:len(buf):len(buf)]
			for _, o := range m.seats {
				if o.Seat.Seat != seat && o.alive {
					o.inbox = m.inboxAppend(o.inbox, item)
				}
			}
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
			took = true
			at := len(buf)
			buf = lineJSON(buf, "", seat, msg.textJCS, to, msg.tone, 0, 0)
			m.emitRaw("message.private", visSealed, buf[at:len(buf):len(buf)], nil)
			at = len(buf)
			buf = talkingJSON(buf, seat, to, msg.tone)
			m.emitRaw("talking", visPublic, buf[at:len(buf):len(buf)], &patternFields{From: seat, To: to})
			m.noteTalking(seat, to)
			at = len(buf)
			buf = lineJSON(buf, "private", seat, msg.textJCS, to, msg.tone, m.turn, m.exchange)
			m.seat(to).inbox = m.inboxAppend(m.seat(to).inbox, buf[at:len(buf):len(buf)])
			if to == m.mole {
				m.whisperFrom[seat] = true
			}
		default:
			dropped = dropMessage(dropped, i, "type must be public or private")
		}
	}
	return dropped, took
}

// dropMessage appends the refusal of message i (bad_message, §6).
func dropMessage(dropped []Dropped, i int, f string, a ...any) []Dropped {
	return append(dropped, Dropped{Field: "messages", Index: i, Code: CodeBadMessage, Msg: sprintf(f, a...)})
}

// lineSize bounds the bytes talk writes for one message read by quickAnswer: a public line's
// payload and inbox item (2 texts, 2 tones and 105 bytes of members), or a private line's
// payload, talking payload and inbox item (2 texts, 3 tones, 150 bytes), with seat, turn and
// exchange numbers of up to 3 digits; an absent tone is written "neutral".
func lineSize(msg *message) int {
	return 2*len(msg.textJCS) + 3*max(len(msg.tone), len("neutral")) + 150
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
