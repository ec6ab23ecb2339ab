package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arena/games"
	"arena/games/blitz/commitment"
	"arena/games/canon"
)

// subError is a refused submission: the §13 code and why.
type subError struct{ code, msg string }

func (e *subError) Error() string { return e.code + ": " + e.msg }

func subErr(code, f string, a ...any) *subError { return &subError{code, fmt.Sprintf(f, a...)} }

// asSub turns an error of the commitment package into a subError with its code.
func asSub(err error) *subError {
	code := commitment.Code(err)
	if code == "" {
		code = CodeBadCommitment
	}
	msg := err.Error()
	if ge, ok := err.(*games.Error); ok {
		msg = ge.Msg
	}
	return &subError{code, msg}
}

// fill turns a walk-in intent into the signed §7.1 object (§4.4) with commitment.ParseIntent
// and commitment.Fill: the arena fills v, round, turn, seq (the seat's next), payer and signs
// through the Keyring with the seat's lent key. Seat numbers in payee and conditions become
// agent ids; "ref:<name>" in honoured becomes the id that ref names (refs are per round).
func (m *Match) fill(seat int, raw json.RawMessage) (json.RawMessage, string, *subError) {
	in, err := commitment.ParseIntent(raw)
	if err != nil {
		return nil, refOf(raw), asSub(err)
	}
	if len(in.Ref) > 64 {
		return nil, "", subErr(CodeBadCommitment, "ref longer than 64")
	}
	if m.keys == nil {
		return nil, in.Ref, subErr(CodeInvalidSignature, "no keyring")
	}
	s := m.seat(seat)
	ctx := commitment.FillContext{Round: m.setup.Round, Turn: m.turn, Seq: int(s.nextSeq), Payer: s.Agent,
		Agent: func(n int) (string, bool) {
			if n < 1 || n > len(m.seats) {
				return "", false
			}
			return m.seat(n).Agent, true
		},
		Ref: func(r string) (string, bool) { id, ok := m.refs[r]; return id, ok }}
	_, _, signed, err := commitment.Fill(in, ctx, func(d []byte) ([]byte, error) { return m.keys.Sign(seat, d) })
	if err != nil {
		return nil, in.Ref, asSub(err)
	}
	s.nextSeq++
	return signed, in.Ref, nil
}

// refOf digs the ref out of an intent that did not parse, so the refusal can name it.
func refOf(raw json.RawMessage) string {
	var r struct {
		Ref string `json:"ref"`
	}
	_ = json.Unmarshal(raw, &r)
	if len(r.Ref) > 64 {
		return ""
	}
	return r.Ref
}

// submit validates one signed submission from seat at submission time: commitment.Parse
// (canonical bytes first: duplicate or case-folded members and unsafe integers refused; then
// exact-case decode; then the §7.1 schema and §10 condition), then the round's own checks
// (this round and turn, payer the sender, payee another seated agent alive, due ≤ turns,
// condition agents seated), then commitment.Verify against the Keyring's key (small-order keys
// refused). The state-dependent checks (seq, unlocked, budget, open count, pair) run at seal.
//
// parsed, when given, is raw already strictly parsed (the answer's own scan): the commitment is
// then read from that tree, with the same outcome as from raw.
func (m *Match) submit(seat int, raw json.RawMessage, parsed *canon.Value) (*promise, *subError) {
	var w commitment.Commitment
	var cb commitment.Canonical
	var forms commitment.Forms
	var err error
	if parsed != nil {
		w, cb, forms, err = commitment.ParseValue(*parsed)
	} else {
		w, cb, forms, err = commitment.ParseForms(raw)
	}
	if err != nil {
		return nil, asSub(err)
	}
	s := m.seat(seat)
	switch {
	case w.Round != m.setup.Round:
		return nil, subErr(CodeBadCommitment, "round %q is not %q", w.Round, m.setup.Round)
	case w.Turn != m.turn:
		return nil, subErr(CodeBadCommitment, "turn %d is not %d", w.Turn, m.turn)
	case w.Payer != s.Agent:
		return nil, subErr(CodeBadCommitment, "payer is not the submitting agent")
	case w.Due > m.format.Turns:
		return nil, subErr(CodeBadCommitment, "due %d after the last turn %d", w.Due, m.format.Turns)
	}
	payee := m.seatOf(w.Payee)
	if payee == 0 || payee == seat {
		return nil, subErr(CodeBadCommitment, "payee is not another seated agent")
	}
	if !m.seat(payee).alive {
		return nil, subErr(CodePayeeNotAlive, "payee seat %d is eliminated", payee)
	}
	if e := m.condSeated(w.Condition); e != nil {
		return nil, e
	}
	if m.keys == nil {
		return nil, subErr(CodeInvalidSignature, "no key for seat %d", seat)
	}
	pub, ok := m.keys.PublicKey(seat)
	if !ok {
		return nil, subErr(CodeInvalidSignature, "no key for seat %d", seat)
	}
	if err := commitment.Verify(cb, w.Sig, pub); err != nil {
		return nil, asSub(err)
	}
	// The transcript carries the object and its condition in canonical form, sig included.
	return &promise{id: cb.ID, payer: seat, payee: payee, amount: w.Amount, due: w.Due, seq: int64(w.Seq),
		pair: w.Pair, condRaw: forms.Condition, raw: forms.Signed, outcome: outcomeOpen}, nil
}

// alwaysCond is the §10 always condition every promise whose condition is always evaluates
// (promise.condition): a condition is only read once parsed (settleOne's Eval), so one serves
// every table.
var alwaysCond = &commitment.Condition{Op: commitment.OpAlways}

// alwaysCondJCS is the always condition's canonical form, alwaysCondRaw the one copy of it
// the sealed promises that have it share (full: an append copies).
const alwaysCondJCS = `{"always":true}`

var alwaysCondRaw = json.RawMessage(alwaysCondJCS)[:len(alwaysCondJCS):len(alwaysCondJCS)]

// digestOf is the digest a commitment id names ("sha256:<64 lowercase hex>", canon.IDOf),
// read through a table of the hex digits' values (one load a digit, no branch on the digit).
func digestOf(id string) [32]byte {
	var d [32]byte
	h := strings.TrimPrefix(id, "sha256:") // an id canon.IDOf wrote: 64 lowercase hex digits
	if len(h) > 2*len(d) {
		h = h[:2*len(d)]
	}
	for i := 0; 2*i+1 < len(h); i++ {
		d[i] = hexVal[h[2*i]]<<4 | hexVal[h[2*i+1]]
	}
	return d
}

// hexVal is each byte's value as a hex digit (0-9, a-f; the rest never reach digestOf, which
// reads ids canon.IDOf wrote).
var hexVal = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
	}
	return t
}()

// seatOf is the seat of an agent id, 0 if none.
func (m *Match) seatOf(agent string) int {
	for _, o := range m.seats {
		if o.Agent == agent {
			return o.Seat.Seat
		}
	}
	return 0
}

// condSeated refuses (bad_condition) a condition naming an agent not seated in the round.
func (m *Match) condSeated(c commitment.Condition) *subError {
	switch c.Op {
	case commitment.OpBacks:
		if m.seatOf(c.X) == 0 || m.seatOf(c.Y) == 0 {
			return subErr(CodeBadCondition, "backs names an agent not seated")
		}
	case commitment.OpSurvives:
		if m.seatOf(c.X) == 0 {
			return subErr(CodeBadCondition, "survives names an agent not seated")
		}
	}
	for _, a := range c.Args {
		if e := m.condSeated(a); e != nil {
			return e
		}
	}
	return nil
}

// seal runs at the end of commit (§7.4): pending commitments in submission order, vetoed ones
// skipped, each checked for seq, alive payee, unlocked ≥ margin lock, budget ≥ fee and open
// count < 4, pairs (§7.5) sealed together or not at all. Sealing charges the fee, creates the
// lock, emits commitment.sealed (public parties; sealed terms) and asks for a commitment
// anchor; a refusal is a private commitment.rejected with its code.
//
// Order (docs/protocol-notes.md, golden pair_seq): no seat's commitment is sealed ahead of an
// earlier submission of the same seat, since a seat's sealed order is its settlement order and
// its seq order. The seal is a merge of the seats' own submission lists: the next one decided
// is the earliest-submitted at the head of its seat's list that can go; a pair member goes
// only when its partner is at the head of its own seat's list too (so a pair is sealed when
// its later member comes up, or later if that seat's earlier submissions still wait), and both
// go together. Pairs that wait on each other across two seats' lists (seat 1 [P, z], seat 2
// [x, P2], pairs P/P2 and x/z) cannot all be sealed together in order: the one whose later
// member was submitted last is refused (pair_unmatched) until the rest can go.
func (m *Match) seal() {
	var live []*promise // non-vetoed pendings, in submission order
	for _, c := range m.pending {
		if !c.vetoed && !c.done {
			live = append(live, c)
		}
	}
	if m.step != nil {
		// This step's events, sized once: a seal is two events (a refusal one), and the settle
		// that closes the turn in the same step (closePhase) two per commitment due now, and a
		// few more (phase.started, the bells, dark and elimination notices).
		due := 0
		for _, c := range m.sealed {
			if c.outcome == outcomeOpen && c.due == m.turn {
				due++
			}
		}
		for _, c := range live {
			if c.due == m.turn {
				due++
			}
		}
		m.step.Events = slices.Grow(m.step.Events, 2*len(live)+2*due+8)
		m.step.Anchors = slices.Grow(m.step.Anchors, len(live))
	}
	groups := map[string][]*promise{}
	pos := make(map[*promise]int, len(live))
	for i, c := range live {
		pos[c] = i
		if c.pair != "" {
			groups[c.pair] = append(groups[c.pair], c)
		}
	}
	partner := func(c *promise) *promise {
		g := groups[c.pair]
		if len(g) != 2 {
			return nil
		}
		o := g[0]
		if o == c {
			o = g[1]
		}
		if o.payer != c.payee || o.payee != c.payer {
			return nil
		}
		return o
	}
	// The seq check (§7.1: "reused or decreasing seq MUST be rejected") is judged per agent over
	// its submissions in the order it submitted them, before any seal and apart from the state
	// checks: each non-vetoed submission's seq must be above the payer's last sealed seq
	// (earlier turns) and above every seq it submitted before this one in this phase that was
	// not itself bad_seq (docs/protocol-notes.md).
	seqErr := map[*promise]*subError{}
	floor := map[int]int64{}
	for _, s := range m.seats {
		floor[s.Seat.Seat] = s.lastSeq
	}
	for _, c := range live {
		if f := floor[c.payer]; c.seq <= f {
			seqErr[c] = subErr(CodeBadSeq, "seq %d not above %d", c.seq, f)
			continue
		}
		floor[c.payer] = c.seq
	}
	check := func(c *promise) *subError {
		if e := seqErr[c]; e != nil {
			return e
		}
		return m.sealCheck(c)
	}
	// head reports whether c is its seat's earliest submission not yet decided.
	head := func(c *promise) bool {
		for _, o := range live[:pos[c]] {
			if o.payer == c.payer && !o.done {
				return false
			}
		}
		return true
	}
	for left := len(live); left > 0; {
		var next, with *promise
		for _, c := range live {
			if c.done || !head(c) {
				continue
			}
			o := (*promise)(nil)
			if c.pair != "" {
				o = partner(c)
			}
			if o == nil || head(o) {
				next, with = c, o
				break
			}
		}
		if next == nil { // every head waits on a partner behind another head: refuse one pair
			for _, c := range live {
				if c.done || !head(c) {
					continue
				}
				o := partner(c) // non-nil: a head with no partner would have gone
				if next == nil || max(pos[c], pos[o]) > max(pos[next], pos[with]) {
					next, with = c, o
				}
			}
			if pos[with] < pos[next] {
				next, with = with, next
			}
			e := subErr(CodePairUnmatched, "pair %s waits on a pair that waits on it: no seal order keeps every seat's submissions in order", next.pair)
			m.reject(next, e)
			m.reject(with, e)
			left -= 2
			continue
		}
		if with == nil {
			if next.pair != "" {
				m.reject(next, subErr(CodePairUnmatched, "pair %s has no single counterpart with payer and payee swapped", next.pair))
			} else if e := check(next); e != nil {
				m.reject(next, e)
			} else {
				m.doSeal(next)
			}
			left--
			continue
		}
		e1, e2 := check(next), check(with)
		left -= 2
		if e1 == nil && e2 == nil {
			m.doSeal(next)
			m.doSeal(with)
			continue
		}
		if e1 == nil {
			e1 = subErr(CodePairUnmatched, "its pair partner %s cannot be sealed", with.id)
		}
		if e2 == nil {
			e2 = subErr(CodePairUnmatched, "its pair partner %s cannot be sealed", next.id)
		}
		m.reject(next, e1)
		m.reject(with, e2)
	}
	m.pending = nil
}

// sealCheck is §7.4's state-dependent validation, against the state as it stands after the
// commitments sealed before this one (the seq is judged apart, in submission order: seal).
func (m *Match) sealCheck(c *promise) *subError {
	p := m.seat(c.payer)
	switch {
	case !m.seat(c.payee).alive:
		return subErr(CodePayeeNotAlive, "payee seat %d is eliminated", c.payee)
	case m.unlocked(c.payer) < ceilHalf(c.amount):
		return subErr(CodeInsufficientUnlocked, "margin lock %d exceeds unlocked %d", ceilHalf(c.amount), m.unlocked(c.payer))
	case p.budget < m.fees.Action:
		return subErr(CodeInsufficientBudget, "action budget %d below fee %d", p.budget, m.fees.Action)
	case m.openCount(c.payer) >= 4:
		return subErr(CodeTooManyOpen, "4 open commitments already")
	}
	if _, dup := m.byID[c.id]; dup {
		return subErr(CodeBadSeq, "commitment %s already sealed", c.id)
	}
	return nil
}

func (m *Match) doSeal(c *promise) {
	p := m.seat(c.payer)
	c.done = true
	p.budget -= m.fees.Action
	m.house += m.fees.Action
	p.lastSeq = max(p.lastSeq, c.seq)
	c.lock = ceilHalf(c.amount)
	c.sealedTurn = m.turn
	c.outcome = outcomeOpen
	m.sealed = append(m.sealed, c)
	m.byID[c.id] = c
	// The two commitment.sealed events, public {due, id, payee, payer} and sealed {amount,
	// commitment, condition, id, lock, pair, seq} (JCS order), each payload written straight
	// into its event (openEvent): the public one lives on as the public log's copy, the sealed
	// one is copied out at its exact size.
	b, at := m.openEvent()
	b = strconv.AppendInt(append(b, `{"due":`...), int64(c.due), 10)
	b = appendID(append(b, `,"id":`...), c.id)
	b = strconv.AppendInt(append(b, `,"payee":`...), int64(c.payee), 10)
	b = strconv.AppendInt(append(b, `,"payer":`...), int64(c.payer), 10)
	m.closeEvent(append(b, '}'), at, "commitment.sealed", visPublic, &patternFields{ID: c.id, Payer: c.payer, Payee: c.payee, c: c}, nil)
	b, at = m.openEvent()
	b = strconv.AppendInt(append(b, `{"amount":`...), c.amount, 10)
	b = append(append(b, `,"commitment":`...), c.raw...)
	b = append(append(b, `,"condition":`...), c.condRaw...)
	b = appendID(append(b, `,"id":`...), c.id)
	b = strconv.AppendInt(append(b, `,"lock":`...), c.lock, 10)
	b = appendJCSString(append(b, `,"pair":`...), c.pair) // "" when unpaired, as ever
	b = strconv.AppendInt(append(b, `,"seq":`...), c.seq, 10)
	m.closeEvent(append(b, '}'), at, "commitment.sealed", visSealed, nil, nil)
	// The signed object is in the sealed event now; a live ledger needs none of it, and its
	// condition's bytes are copied out of the canonical form they were written into, so the
	// ledger holds the condition and not the whole signed object behind it (the always
	// condition, nearly every one, shares one copy: the ledger never writes into it, and
	// Commitments hands out copies).
	c.raw = nil
	if string(c.condRaw) == alwaysCondJCS {
		c.condRaw = alwaysCondRaw
	} else {
		c.condRaw = bytes.Clone(c.condRaw)
	}
	m.requestAnchor("commitment", digestOf(c.id))
	m.rungsAfterSeal()
}

// reject refuses pending commitment c at its seal with error e (§7.4): a private
// commitment.rejected event, and the same refusal in the payer's next envelope's inbox as
// {code, id, msg, ref, type: "commitment.rejected"}. The answer that submitted c was taken (its
// reply listed nothing dropped) and no seat reads private events before the reveal, so without
// the inbox item the commitment would vanish without a word ("rejected with a private error").
// Agents tolerate inbox item types they do not know (§5.2).
func (m *Match) reject(c *promise, e *subError) {
	c.done = true
	m.rejections = append(m.rejections, Rejection{Seat: c.payer, Turn: m.turn, Index: c.order, Ref: c.ref, ID: c.id, Code: e.code, Msg: e.msg})
	payload := jcsObject(kv{"code", e.code}, kv{"id", c.id}, kv{"msg", e.msg}, kv{"ref", c.ref})
	m.emitRaw("commitment.rejected", privateVis(c.payer), payload, nil)
	if s := m.seat(c.payer); s.alive {
		m.deliverLines() // lines first, in the order sent (none are open at a seal)
		// The payload's members and "type", which sorts after them all (JCS order).
		item := append(payload[:len(payload)-1:len(payload)-1], `,"type":"commitment.rejected"}`...)
		s.inbox = append(s.inbox, item)
	}
}

// emitPending emits commitment.pending (private to the payer) with its payload {commitment,
// id, index, ref} (JCS order) written straight into the event (openEvent), which copies it
// out at its exact size.
//
// It returns the payload (the event's, which the match never writes into).
func (m *Match) emitPending(c *promise, index int, ref string) []byte {
	b, at := m.openEvent()
	b = append(append(b, pendingHead...), c.raw...)
	b = appendID(append(b, `,"id":`...), c.id)
	b = strconv.AppendInt(append(b, `,"index":`...), int64(index), 10)
	b = appendJCSString(append(b, `,"ref":`...), ref)
	return m.closeEvent(append(b, '}'), at, "commitment.pending", privateVis(c.payer), nil, nil)
}

// pendingHead opens a commitment.pending payload; the signed form follows it.
const pendingHead = `{"commitment":`

// appendID writes a commitment id as a JSON string: "sha256:" and 64 lowercase hex digits
// (canon.IDOf), which JCS writes as they are.
func appendID(b []byte, id string) []byte {
	return append(append(append(b, '"'), id...), '"')
}

// privateVisOf holds visPrivate's strings for the seats of any format (§5.6: at most 8), so
// the events of a seat's commitments do not each build it.
var privateVisOf = func() (out [9]string) {
	for i := range out {
		out[i] = visPrivate(i)
	}
	return out
}()

// privateVis is visPrivate(seat), from the table when the seat is in it.
func privateVis(seat int) string {
	if seat >= 0 && seat < len(privateVisOf) {
		return privateVisOf[seat]
	}
	return visPrivate(seat)
}
