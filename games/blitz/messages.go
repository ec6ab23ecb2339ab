package blitz

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	"arena/games/canon"
)

// Messages (§6): reading, limits, the events and the inbox items.

var tones = map[string]bool{"ask": true, "offer": true, "accept": true, "decline": true, "neutral": true}

// message is one §6 message as read by readMessage.
type message struct {
	typ, text, tone string
	to              canon.Value
	hasTo           bool
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
			msg.text, ok = val.Str()
		case "tone":
			msg.tone, ok = val.Str()
		case "to":
			msg.to, msg.hasTo, ok = val, true, true
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
// addressee only, sealed in the transcript, with a public `talking` event.
func (m *Match) talk(seat int, msgs []json.RawMessage, vals []canon.Value) ([]Dropped, bool) {
	var dropped []Dropped
	pub, priv := 0, 0
	took := false
	if m.step != nil {
		m.step.Events = slices.Grow(m.step.Events, 2*len(msgs)) // a line is at most two events
	}
	for i, raw := range msgs {
		drop := func(f string, a ...any) {
			dropped = append(dropped, Dropped{Field: "messages", Index: i, Code: CodeBadMessage, Msg: sprintf(f, a...)})
		}
		var parsed *canon.Value
		if i < len(vals) {
			parsed = &vals[i]
		}
		msg, bad := readMessage(raw, parsed)
		if bad != "" {
			drop("%s", bad)
			continue
		}
		if msg.tone == "" {
			msg.tone = "neutral"
		}
		n := utf8.RuneCountInString(msg.text)
		switch {
		case !tones[msg.tone]:
			drop("tone %q not in the vocabulary", msg.tone)
			continue
		case n == 0 || n > 600:
			drop("text must be 1–600 characters, got %d", n)
			continue
		}
		switch msg.typ {
		case "public":
			if msg.hasTo {
				drop("a public message has no to")
				continue
			}
			if pub == 8 {
				drop("8 public messages per exchange")
				continue
			}
			pub++
			took = true
			m.emitRaw("message.public", visPublic, lineJSON(nil, "", seat, msg.text, 0, msg.tone, 0, 0),
				&patternFields{From: seat, Text: msg.text})
			item := lineJSON(nil, "public", seat, msg.text, 0, msg.tone, m.turn, m.exchange)
			for _, o := range m.seats {
				if o.Seat.Seat != seat && o.alive {
					o.inbox = append(o.inbox, item)
				}
			}
		case "private":
			to, err := m.seatRef(msg.to.Raw())
			if err != nil || to == seat {
				drop("to must be another seat")
				continue
			}
			if !m.seat(to).alive {
				drop("seat %d is eliminated", to)
				continue
			}
			if priv == 8 {
				drop("8 private messages per exchange")
				continue
			}
			priv++
			took = true
			m.emitRaw("message.private", visSealed, lineJSON(nil, "", seat, msg.text, to, msg.tone, 0, 0), nil)
			m.emitRaw("talking", visPublic, talkingJSON(seat, to, msg.tone), &patternFields{From: seat, To: to})
			m.noteTalking(seat, to)
			m.seat(to).inbox = append(m.seat(to).inbox, lineJSON(nil, "private", seat, msg.text, to, msg.tone, m.turn, m.exchange))
			if to == m.mole {
				m.whisperFrom[seat] = true
			}
		default:
			drop("type must be public or private")
		}
	}
	return dropped, took
}

// lineJSON writes a message line in JCS form: the event payload {from, text, to?, tone} when
// typ is "", the inbox item {exchange, from, text, to?, tone, turn, type} otherwise.
func lineJSON(b []byte, typ string, from int, text string, to int, tone string, turn, exchange int) json.RawMessage {
	if b == nil {
		b = make([]byte, 0, len(text)+len(tone)+96) // one allocation: the members around the text are short
	}
	b = append(b, '{')
	if typ != "" {
		b = append(b, `"exchange":`...)
		b = strconv.AppendInt(b, int64(exchange), 10)
		b = append(b, ',')
	}
	b = append(b, `"from":`...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, `,"text":`...)
	b = appendJCSString(b, text)
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

func talkingJSON(from, to int, tone string) []byte {
	b := append(make([]byte, 0, 48), `{"from":`...)
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
