package blitz

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

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
	comVals []canon.Value // the commitments already strictly parsed (fast path), else nil
}

// Dropped names one part of an answer that was not taken (§4.4 dropped[]).
type Dropped struct {
	Field string `json:"field"` // "messages", "commitments", "accusation"
	Index int    `json:"index"`
	Ref   string `json:"ref,omitempty"`
	Code  string `json:"code"`
	Msg   string `json:"msg"`
}

// Act applies one input at instant now. Kinds: "answer" (the open move), "playbook" (an
// off-the-shelf seat's playbook and dials, during scouting: playbookInput), "call", "veto",
// "accuse" (§12 levers), "anchored" (games.AnchoredBody), "minted" (MintedBody: a seat's lent
// Badge is registered, §15 badge.minted), "scripted" (Move = the open move, no
// body: the seat's answer that follows came from the fallback policy, §15 agent.scripted),
// "refused" (Move = the open move, body {code, msg}: the seat's channel refused its answer
// before the game saw it, refusedAnswer). A refusal is a *games.Error with the
// protocol's code and leaves the match unchanged. An answer whose parts are partly refused is
// not an error: Step.Reply is {"dropped":[...]} naming each part not taken, and commitments
// refused carry a private commitment.rejected. The match keeps in.Body in its input log (games.Match:
// the caller must not change the bytes afterwards).
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
			err = refuse(CodeBadTarget, "accuse body: %s", canon.Reason(e))
		} else {
			err = m.accuse(in.Seat, b.Seat, true)
		}
	case "anchored":
		err = m.anchoredInput(in.Body)
	case "minted":
		err = m.mintedInput(in.Seat, in.Body)
	case "scripted":
		err = m.scripted(in)
	case "playbook":
		err = m.playbookInput(in.Seat, in.Body)
	case "refused":
		err = m.refusedAnswer(in)
	default:
		err = refuse(games.CodeBadRequest, "unknown input kind %q", in.Kind)
	}
	if err != nil {
		m.step = nil
		return games.Step{}, err
	}
	// The log keeps a body only if it is JSON, so a snapshot or input log entry can always be
	// written: an answer's or a lever's body was decoded strictly (one that is not JSON was
	// refused), and a kind that takes no body (scripted) is logged without whatever came with it.
	if len(bytes.TrimSpace(in.Body)) == 0 || (in.Kind != "answer" && !json.Valid(in.Body)) {
		in.Body = nil // kept as null
	}
	m.logInput(logOp{Op: "act", At: now, Input: in})
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
	if in.House {
		m.scriptedAnswer(s)
	}
	if m.stage == stCommit {
		s.committedAt = m.now // its veto window starts here (vetoHold)
	}
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
			d, any := m.commitAnswer(in.Seat, b.Commitments, b.comVals)
			dropped = append(dropped, d...)
			nonEmpty = nonEmpty || any
		}
	}
	if b.Accusation != nil {
		if s.answerAccuses() {
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
	if len(dropped) == 0 {
		m.step.Reply = []byte(`{"dropped":[]}`) // what json.Marshal writes for an empty list
	} else {
		m.step.Reply, _ = json.Marshal(map[string]any{"dropped": dropped})
	}
	m.closeIfAllAnswered()
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

// commitAnswer takes up to 4 submissions (§5.3) as pending (§7.4); walk-in seats send intents
// that the arena fills and signs (§4.4).
// vals, when not nil, are subs already strictly parsed.
func (m *Match) commitAnswer(seat int, subs []json.RawMessage, vals []canon.Value) ([]Dropped, bool) {
	var dropped []Dropped
	took := false
	s := m.seat(seat)
	if m.step != nil { // one event per submission (pending or rejected), sized once
		m.step.Events = slices.Grow(m.step.Events, len(subs))
	}
	for i, raw := range subs {
		if i >= 4 {
			msg := "at most 4 submissions per commit"
			m.rejections = append(m.rejections, Rejection{Seat: seat, Turn: m.turn, Index: i, Code: CodeTooManySubmissions, Msg: msg})
			payload := jcsObject(kv{"code", CodeTooManySubmissions}, kv{"index", i}, kv{"msg", msg})
			m.emitRaw("commitment.rejected", privateVis(seat), payload, nil)
			m.tellAgent(s, payload, "commitment.rejected")
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
			var parsed *canon.Value
			if !s.Walkin && i < len(vals) { // a walk-in's is fill's bytes, the arena's signing
				parsed = &vals[i]
			}
			c, err = m.submit(seat, signed, parsed)
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
			payload := jcsObject(kv{"code", err.code}, kv{"index", i}, kv{"msg", err.msg}, kv{"ref", ref})
			m.emitRaw("commitment.rejected", privateVis(seat), payload, nil)
			m.tellAgent(s, payload, "commitment.rejected")
			dropped = append(dropped, Dropped{Field: "commitments", Index: i, Ref: ref, Code: err.code, Msg: err.msg})
			continue
		}
		c.ref, c.order = ref, i
		if ref != "" {
			m.refs[ref] = c.id
		}
		m.pending = append(m.pending, c)
		m.emitPending(c, i, ref)
	}
	return dropped, took
}

// scripted records that an in-house or off-the-shelf seat's answer to the open move comes from
// the fallback policy because its model could not answer (§15 agent.scripted, public). It must
// name the open move and come before the seat's answer.
// hasFallback reports whether the arena plays seat s with a fallback policy (§15 agent.scripted:
// "an in-house or off-the-shelf seat"): kinds ots, house and arena.
func hasFallback(s *seatState) bool { return s.Kind == "ots" || s.Kind == "house" || s.Kind == "arena" }

// scriptedAnswer is an answer of seat s's that came from the house policy (games.Input.House):
// for a seat with a fallback policy it emits public agent.scripted {seat, turn, phase} (§15)
// ahead of the answer's own events, once per turn and phase (the payload names no exchange, so
// a talk phase's three answers say it once). Any other seat's flag is ignored.
func (m *Match) scriptedAnswer(s *seatState) {
	at := games.Move{Turn: m.turn, Phase: stageName[m.stage]}
	if !hasFallback(s) || s.scriptedAt == at {
		return
	}
	s.scriptedAt = at
	m.emit("agent.scripted", visPublic, map[string]any{"seat": s.Seat.Seat, "turn": m.turn, "phase": stageName[m.stage]})
}

func (m *Match) scripted(in games.Input) error {
	s := m.seat(in.Seat)
	switch {
	case !hasFallback(s):
		return refuse(games.CodeBadRequest, "seat %d (%s) has no fallback policy", in.Seat, s.Kind)
	case m.stage != stScouting && m.stage != stTalk && m.stage != stCommit, in.Move != m.Phase(),
		!s.alive, m.answered[in.Seat]:
		return refuse(CodeStale, "no open move %+v for seat %d", in.Move, in.Seat)
	}
	m.emit("agent.scripted", visPublic, map[string]any{"seat": in.Seat, "turn": m.turn, "phase": stageName[m.stage]})
	return nil
}

// tellAgent puts a refusal's payload (canonical JSON, members sorting before "type") in the
// next envelope's inbox of a seat that hears only through its envelopes, with its type: a BYO
// agent over A2A, whose answer is the response to the arena's call, so the answer's reply
// ({"dropped": [...]}) reaches nobody. A walk-in reads the same refusal in its reply's dropped[]
// and gets no inbox item. Lines already sent go first, in the order sent. Agents tolerate inbox
// item types they do not know (§5.2).
func (m *Match) tellAgent(s *seatState, payload []byte, typ string) {
	if s.Walkin || !s.alive {
		return
	}
	m.deliverLines()
	item := append(payload[:len(payload)-1:len(payload)-1], `,"type":`...)
	item = append(appendJCSString(item, typ), '}')
	s.inbox = append(s.inbox, item)
}

// refusedAnswer takes a seat's channel's word that it refused the seat's answer to the open
// move before the game saw it (body {code, msg}: the A2A channel runs the walk-in door's strict
// reader on the agent's bytes, and a body the walk-in door would refuse is refused there, with
// the same code). The move is used up, empty (§13): the seat is answered for closeEarly, says
// nothing, and hears why in its next envelope's inbox, {code, exchange?, msg, phase, turn,
// type: "answer.refused"}, beside a private answer.refused event. It must name the open move
// (stale otherwise, changing nothing).
func (m *Match) refusedAnswer(in games.Input) error {
	s := m.seat(in.Seat)
	open := m.stage == stScouting || m.stage == stTalk || m.stage == stCommit
	switch {
	case !open, in.Move != m.Phase(), !s.alive, m.answered[in.Seat], m.now.After(m.respBy):
		return refuse(CodeStale, "no open move %+v for seat %d", in.Move, in.Seat)
	}
	var b struct {
		Code string `json:"code"`
		Msg  string `json:"msg"`
	}
	if err := canon.Decode(in.Body, &b); err != nil || b.Code == "" {
		return refuse(games.CodeBadRequest, "refused body: {code, msg}")
	}
	m.answered[in.Seat] = true
	if m.stage == stCommit {
		s.committedAt = m.now
	}
	members := []kv{{"code", b.Code}}
	if in.Move.Exchange > 0 {
		members = append(members, kv{"exchange", in.Move.Exchange})
	}
	members = append(members, kv{"msg", b.Msg}, kv{"phase", in.Move.Phase}, kv{"turn", in.Move.Turn})
	payload := jcsObject(members...)
	m.emitRaw("answer.refused", privateVis(in.Seat), payload, nil)
	m.tellAgent(s, payload, "answer.refused")
	m.closeIfAllAnswered()
	return nil
}

// CodePlaybookLocked refuses a playbook change once scouting has ended: the playbook is committed
// in the open-round anchor (§5.2, §5.5).
const CodePlaybookLocked = "playbook_locked"

// playbookInput sets off-the-shelf seat n's playbook and dials (§5.2: "Humans may edit the
// playbook and dials until scouting ends"): body is a Playbook (ParsePlaybook, strict). Its
// canonical bytes replace the seat's Options.playbooks entry, which its next envelope carries
// (state.me.playbook) and the open-round anchor commits at scouting's close; a private
// playbook.set {seat, playbook} records it. Refusals: bad_request (not an off-the-shelf seat, a
// bad playbook), playbook_locked (scouting is over), not_now (the round has not opened).
func (m *Match) playbookInput(n int, body []byte) error {
	s := m.seat(n)
	switch {
	case s.Kind != "ots":
		return refuse(games.CodeBadRequest, "seat %d is not an off-the-shelf seat: it has no playbook", n)
	case m.stage == stSeating:
		return &games.Error{Code: CodeNotNow, Msg: "the round has not opened", Retry: true}
	case m.stage != stScouting:
		return refuse(CodePlaybookLocked, "scouting is over: the playbook was committed in the open-round anchor (§5.2, §5.5)")
	}
	pb, err := ParsePlaybook(body)
	if err != nil {
		return err
	}
	raw := json.RawMessage(pb.JSON())
	if m.opt.Playbooks == nil {
		m.opt.Playbooks = map[string]json.RawMessage{}
	}
	m.opt.Playbooks[itoa(n)] = raw
	m.emit("playbook.set", visPrivate(n), map[string]any{"seat": n, "playbook": raw})
	m.step.Reply, _ = json.Marshal(map[string]any{"playbook": raw})
	return nil
}
