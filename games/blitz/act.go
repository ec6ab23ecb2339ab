package blitz

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

// maxBody bounds any input body: 8+8 messages of 600 characters and 4 commitments fit in a
// tenth of it.
const maxBody = 256 << 10

// answerBody is an agent's answer (§4, §4.4, §6, §7): the echo of the move, then messages on
// talk, commitments on commit, and an optional accusation (§12). Decoded exact-case, no
// unknown members, no duplicates.
type answerBody struct {
	V           *int              `json:"v"`
	Round       *string           `json:"round"`
	Turn        *int              `json:"turn"`
	Phase       *string           `json:"phase"`
	Exchange    *int              `json:"exchange"`
	Seat        *int              `json:"seat"`
	Messages    []json.RawMessage `json:"messages"`
	Commitments []json.RawMessage `json:"commitments"`
	Accusation  *int              `json:"accusation"`

	msgVals []canon.Value // the messages already strictly parsed (fast path), else nil
}

// Dropped names one part of an answer that was not taken (§4.4 dropped[]).
type Dropped struct {
	Field string `json:"field"` // "messages", "commitments", "accusation"
	Index int    `json:"index"`
	Ref   string `json:"ref,omitempty"`
	Code  string `json:"code"`
	Msg   string `json:"msg"`
}

// Act applies one input at instant now. Kinds: "answer" (the open move), "call", "veto",
// "accuse" (§12 levers), "anchored" (games.AnchoredBody), "scripted" (Move = the open move, no
// body: the seat's answer that follows came from the fallback policy, §15 agent.scripted). A refusal is a *games.Error with the
// protocol's code and leaves the match unchanged. An answer whose parts are partly refused is
// not an error: Step.Reply is {"dropped":[...]} naming each part not taken, and commitments
// refused carry a private commitment.rejected.
func (m *Match) Act(now time.Time, in games.Input) (games.Step, error) {
	if len(in.Body) > maxBody {
		return games.Step{}, refuse(games.CodeBadRequest, "body over %d bytes", maxBody)
	}
	if in.Kind != "anchored" && (in.Seat < 1 || in.Seat > len(m.seats)) {
		return games.Step{}, refuse(games.CodeNotSeated, "seat %d is not at this table", in.Seat)
	}
	var err error
	m.begin(now)
	switch in.Kind {
	case "answer":
		err = m.answer(in)
	case "call":
		err = m.callLever(in.Seat, in.Body)
	case "veto":
		err = m.vetoLever(in.Seat, in.Body)
	case "accuse":
		var b struct {
			Seat int `json:"seat"`
		}
		if e := canon.Decode(in.Body, &b); e != nil {
			err = refuse(CodeBadTarget, "accuse body: %v", e)
		} else {
			err = m.accuse(in.Seat, b.Seat, true)
		}
	case "anchored":
		err = m.anchoredInput(in.Body)
	case "scripted":
		err = m.scripted(in)
	default:
		err = refuse(games.CodeBadRequest, "unknown input kind %q", in.Kind)
	}
	if err != nil {
		m.step = nil
		return games.Step{}, err
	}
	if len(bytes.TrimSpace(in.Body)) == 0 {
		in.Body = nil // an empty answer; kept as null so the snapshot stays valid JSON
	}
	m.log = append(m.log, logOp{Op: "act", At: now, Input: in})
	return m.end(), nil
}

// answer takes a seat's answer to the open move. Everything that can refuse the whole answer
// is checked before anything changes.
func (m *Match) answer(in games.Input) error {
	s := m.seat(in.Seat)
	open := m.stage == stScouting || m.stage == stTalk || m.stage == stCommit
	cur := m.Phase()
	switch {
	case !open:
		return refuse(CodeStale, "no move open (%s)", stageName[m.stage])
	case in.Move != cur:
		return refuse(CodeStale, "answer for %+v, open move is %+v", in.Move, cur)
	case !s.alive:
		return refuse(CodeStale, "seat %d is eliminated", in.Seat)
	case m.answered[in.Seat]:
		return refuse(CodeStale, "seat %d already answered this move", in.Seat)
	case m.now.After(m.respBy):
		return refuse(CodeStale, "past the move's deadline %s", fmtTime(m.respBy))
	}
	b, err := decodeAnswer(in.Body)
	if err != nil {
		return refuse(games.CodeBadRequest, "answer: %v", err)
	}
	switch {
	case b.V != nil && *b.V != 1:
		return refuse(games.CodeBadRequest, "v %d", *b.V)
	case b.Round != nil && *b.Round != m.setup.Round,
		b.Turn != nil && *b.Turn != cur.Turn,
		b.Phase != nil && *b.Phase != cur.Phase,
		b.Exchange != nil && *b.Exchange != cur.Exchange:
		return refuse(CodeStale, "the answer names another move")
	case b.Seat != nil && *b.Seat != in.Seat:
		return refuse(games.CodeBadRequest, "the answer names seat %d", *b.Seat)
	}
	// From here the answer is taken; parts may be dropped.
	m.answered[in.Seat] = true
	var dropped []Dropped
	nonEmpty := false
	if len(b.Messages) > 0 {
		if m.stage != stTalk {
			for i := range b.Messages {
				dropped = append(dropped, Dropped{Field: "messages", Index: i, Code: CodeBadMessage, Msg: "messages are sent on talk"})
			}
		} else {
			d, any := m.talk(in.Seat, b.Messages, b.msgVals)
			dropped = append(dropped, d...)
			nonEmpty = nonEmpty || any
		}
	}
	if len(b.Commitments) > 0 {
		if m.stage != stCommit {
			for i := range b.Commitments {
				dropped = append(dropped, Dropped{Field: "commitments", Index: i, Code: CodeBadCommitment, Msg: "commitments are sent on commit"})
			}
		} else {
			d, any := m.commitAnswer(in.Seat, b.Commitments)
			dropped = append(dropped, d...)
			nonEmpty = nonEmpty || any
		}
	}
	if b.Accusation != nil {
		if s.Walkin || s.Human {
			if err := m.accuse(in.Seat, *b.Accusation, false); err != nil {
				ge, _ := err.(*games.Error)
				code := CodeRefused
				if ge != nil {
					code = ge.Code
				}
				dropped = append(dropped, Dropped{Field: "accusation", Code: code, Msg: err.Error()})
			} else {
				nonEmpty = true
			}
		}
		// elsewhere the field is ignored (§12)
	}
	if nonEmpty && m.stage != stScouting {
		s.spoke = true
		if s.dark {
			s.dark = false
			s.emptyRun = 0
			m.emit("agent.dark", visPublic, map[string]any{"seat": in.Seat, "dark": false})
		}
	}
	if dropped == nil {
		dropped = []Dropped{}
	}
	m.step.Reply, _ = json.Marshal(map[string]any{"dropped": dropped})
	if m.clk.closeEarly && m.allAnswered() {
		m.closePhase(m.now)
		m.cascade(m.now)
	}
	return nil
}

func (m *Match) allAnswered() bool {
	for _, s := range m.seats {
		if s.alive && !m.answered[s.Seat.Seat] {
			return false
		}
	}
	return true
}

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
	b := append([]byte(`{"from":`), strconv.Itoa(from)...)
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

// commitAnswer takes up to 4 submissions (§5.3) as pending (§7.4); walk-in seats send intents
// that the arena fills and signs (§4.4).
func (m *Match) commitAnswer(seat int, subs []json.RawMessage) ([]Dropped, bool) {
	var dropped []Dropped
	took := false
	s := m.seat(seat)
	for i, raw := range subs {
		if i >= 4 {
			msg := "at most 4 submissions per commit"
			m.rejections = append(m.rejections, Rejection{Seat: seat, Turn: m.turn, Index: i, Code: CodeTooManySubmissions, Msg: msg})
			m.emitRaw("commitment.rejected", visPrivate(seat), jcsObject(kv{"code", CodeTooManySubmissions}, kv{"index", i}, kv{"msg", msg}), nil)
			dropped = append(dropped, Dropped{Field: "commitments", Index: i, Code: CodeTooManySubmissions, Msg: msg})
			continue
		}
		took = true
		ref := ""
		signed := raw
		var err *subError
		if s.Walkin {
			signed, ref, err = m.fill(seat, raw)
		}
		var c *promise
		if err == nil {
			c, err = m.submit(seat, signed)
		}
		if err == nil && ref != "" {
			if _, dup := m.refs[ref]; dup {
				err = subErr(CodeBadCommitment, "ref %q already used this round", ref)
			}
		}
		if err != nil {
			id := ""
			if c != nil {
				id = c.id
			}
			m.rejections = append(m.rejections, Rejection{Seat: seat, Turn: m.turn, Index: i, Ref: ref, ID: id, Code: err.code, Msg: err.msg})
			m.emitRaw("commitment.rejected", visPrivate(seat), jcsObject(kv{"code", err.code}, kv{"index", i}, kv{"msg", err.msg}, kv{"ref", ref}), nil)
			dropped = append(dropped, Dropped{Field: "commitments", Index: i, Ref: ref, Code: err.code, Msg: err.msg})
			continue
		}
		c.ref, c.order = ref, i
		if ref != "" {
			m.refs[ref] = c.id
		}
		m.pending = append(m.pending, c)
		m.emitRaw("commitment.pending", visPrivate(seat), jcsObject(kv{"commitment", c.raw}, kv{"id", c.id}, kv{"index", i}, kv{"ref", ref}), nil)
	}
	return dropped, took
}

// scripted records that an in-house or off-the-shelf seat's answer to the open move comes from
// the fallback policy because its model could not answer (§15 agent.scripted, public). It must
// name the open move and come before the seat's answer.
func (m *Match) scripted(in games.Input) error {
	s := m.seat(in.Seat)
	switch {
	case s.Kind != "ots" && s.Kind != "house" && s.Kind != "arena":
		return refuse(games.CodeBadRequest, "seat %d (%s) has no fallback policy", in.Seat, s.Kind)
	case m.stage != stScouting && m.stage != stTalk && m.stage != stCommit, in.Move != m.Phase(),
		!s.alive, m.answered[in.Seat]:
		return refuse(CodeStale, "no open move %+v for seat %d", in.Move, in.Seat)
	}
	m.emit("agent.scripted", visPublic, map[string]any{"seat": in.Seat, "turn": m.turn, "phase": stageName[m.stage]})
	return nil
}
