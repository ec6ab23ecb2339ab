package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"arena/games/canon"
)

// wireCommitment is §7.1's schema, decoded with exact-case names only (canon.Decode).
type wireCommitment struct {
	V         int             `json:"v"`
	Round     string          `json:"round"`
	Turn      int             `json:"turn"`
	Seq       int64           `json:"seq"`
	Payer     string          `json:"payer"`
	Payee     string          `json:"payee"`
	Amount    int64           `json:"amount"`
	Condition json.RawMessage `json:"condition"`
	Due       int             `json:"due"`
	Pair      *string         `json:"pair"`
	Sig       string          `json:"sig"`
}

// intent is a walk-in's commitment (§4.4): no v, round, turn, seq, payer or sig; payee by seat
// number or agent id; whole chips in place of amount; ref a name for it.
type intent struct {
	Ref       string          `json:"ref"`
	Payee     json.RawMessage `json:"payee"`
	Amount    *int64          `json:"amount"`
	Chips     *int64          `json:"chips"`
	Condition json.RawMessage `json:"condition"`
	Due       int             `json:"due"`
	Pair      *string         `json:"pair"`
}

var pairRE = regexp.MustCompile(`^deal:[0-9a-f]{8}$`)

// subError is a refused submission: the §13 code and why.
type subError struct{ code, msg string }

func (e *subError) Error() string { return e.code + ": " + e.msg }

func subErr(code, f string, a ...any) *subError { return &subError{code, fmt.Sprintf(f, a...)} }

// fill turns a walk-in intent into the signed §7.1 object (§4.4): the arena fills v, round,
// turn, seq (the seat's next), payer and signs with the seat's key through the Keyring. Seat
// numbers in payee and in backs/survives become agent ids; "ref:<name>" in honoured becomes
// the id that ref names.
func (m *Match) fill(seat int, raw json.RawMessage) (json.RawMessage, string, *subError) {
	var in intent
	if err := canon.Decode(raw, &in); err != nil {
		return nil, "", subErr(CodeBadCommitment, "intent: %v", err)
	}
	if len(in.Ref) > 64 {
		return nil, "", subErr(CodeBadCommitment, "ref longer than 64")
	}
	payee, err := m.seatRef(in.Payee)
	if err != nil {
		return nil, in.Ref, subErr(CodeBadCommitment, "payee: %v", err)
	}
	var amount int64
	switch {
	case in.Amount != nil && in.Chips == nil:
		amount = *in.Amount
	case in.Chips != nil && in.Amount == nil:
		if *in.Chips < 1 || *in.Chips > maxSafe/ccd {
			return nil, in.Ref, subErr(CodeBadCommitment, "chips out of range")
		}
		amount = *in.Chips * ccd
	default:
		return nil, in.Ref, subErr(CodeBadCommitment, "give exactly one of amount and chips")
	}
	due := in.Due
	if due == 0 {
		due = m.turn // a walk-in that names no due turn means this one
	}
	condRaw := in.Condition
	if len(bytes.TrimSpace(condRaw)) == 0 || string(bytes.TrimSpace(condRaw)) == "null" {
		condRaw = json.RawMessage(`{"always":true}`)
	}
	var condV any
	if err := json.Unmarshal(condRaw, &condV); err != nil {
		return nil, in.Ref, subErr(CodeBadCondition, "condition: %v", err)
	}
	condV, serr := m.resolveCondition(condV, 0)
	if serr != nil {
		return nil, in.Ref, serr
	}
	s := m.seat(seat)
	obj := map[string]any{"v": 1, "round": m.setup.Round, "turn": m.turn, "seq": s.nextSeq,
		"payer": s.Agent, "payee": m.seat(payee).Agent, "amount": amount, "condition": condV, "due": due}
	if in.Pair != nil {
		obj["pair"] = *in.Pair
	}
	c, err := canon.Marshal(obj)
	if err != nil {
		return nil, in.Ref, subErr(CodeBadCommitment, "%v", err)
	}
	d := canon.Digest(c)
	if m.keys == nil {
		return nil, in.Ref, subErr(CodeInvalidSignature, "no keyring")
	}
	sig, err := m.keys.Sign(seat, d[:])
	if err != nil {
		return nil, in.Ref, subErr(CodeInvalidSignature, "arena cannot sign for seat %d: %v", seat, err)
	}
	s.nextSeq++
	obj["sig"] = canon.FormatSig(sig)
	signed, err := json.Marshal(obj)
	if err != nil {
		return nil, in.Ref, subErr(CodeBadCommitment, "%v", err)
	}
	return signed, in.Ref, nil
}

// seatRef reads a seat number or an agent id.
func (m *Match) seatRef(raw json.RawMessage) (int, error) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		if n < 1 || n > len(m.seats) {
			return 0, fmt.Errorf("seat %d not at the table", n)
		}
		return n, nil
	}
	return m.agentSeat(raw)
}

// resolveCondition rewrites a walk-in condition: seat numbers in backs/survives agent slots
// become agent ids, "ref:<name>" in honoured becomes the commitment id. Depth-bounded so a
// hostile nesting cannot run away (the §10 depth check proper follows in parseCond).
func (m *Match) resolveCondition(v any, depth int) (any, *subError) {
	if depth > 8 {
		return nil, subErr(CodeBadCondition, "condition nests too deep")
	}
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		return v, nil // parseCond refuses it with the precise reason
	}
	out := map[string]any{}
	for op, val := range obj {
		switch op {
		case "backs", "survives":
			arr, ok := val.([]any)
			if !ok {
				out[op] = val
				continue
			}
			cp := append([]any{}, arr...)
			slots := 1
			if op == "backs" {
				slots = 2
			}
			for i := 0; i < slots && i < len(cp); i++ {
				if f, ok := cp[i].(float64); ok && f == float64(int(f)) && int(f) >= 1 && int(f) <= len(m.seats) {
					cp[i] = m.seat(int(f)).Agent
				}
			}
			out[op] = cp
		case "honoured":
			if s, ok := val.(string); ok && strings.HasPrefix(s, "ref:") {
				id, ok := m.refs[strings.TrimPrefix(s, "ref:")]
				if !ok {
					return nil, subErr(CodeBadCondition, "honoured names unknown %s", s)
				}
				out[op] = id
				continue
			}
			out[op] = val
		case "not":
			k, err := m.resolveCondition(val, depth+1)
			if err != nil {
				return nil, err
			}
			out[op] = k
		case "and", "or":
			arr, ok := val.([]any)
			if !ok {
				out[op] = val
				continue
			}
			cp := make([]any, len(arr))
			for i, k := range arr {
				r, err := m.resolveCondition(k, depth+1)
				if err != nil {
					return nil, err
				}
				cp[i] = r
			}
			out[op] = cp
		default:
			out[op] = val
		}
	}
	return out, nil
}

// submit validates one signed submission from seat at submission time (§7.1–§7.3, §10):
// strict canonical bytes first (duplicate or case-folded members, unsafe integers refused),
// then exact-case decode, then schema, condition and signature against the Keyring's key.
// The state-dependent checks (seq, unlocked, budget, open count, pair) run at seal.
func (m *Match) submit(seat int, raw json.RawMessage) (*commitment, *subError) {
	canonical, err := canon.CanonicalWithout(raw, "sig")
	if err != nil {
		return nil, subErr(CodeBadCommitment, "%v", err)
	}
	var w wireCommitment
	if err := canon.Decode(raw, &w); err != nil {
		return nil, subErr(CodeBadCommitment, "%v", err)
	}
	id := canon.ID(canonical)
	s := m.seat(seat)
	switch {
	case w.V != 1:
		return nil, subErr(CodeBadCommitment, "v must be 1")
	case w.Round != m.setup.Round:
		return nil, subErr(CodeBadCommitment, "round %q is not %q", w.Round, m.setup.Round)
	case w.Turn != m.turn:
		return nil, subErr(CodeBadCommitment, "turn %d is not %d", w.Turn, m.turn)
	case w.Payer != s.Agent:
		return nil, subErr(CodeBadCommitment, "payer is not the submitting agent")
	case w.Amount < ccd:
		return nil, subErr(CodeBadCommitment, "amount %d below 1 CCD", w.Amount)
	case w.Due < m.turn || w.Due > m.format.Turns:
		return nil, subErr(CodeBadCommitment, "due %d outside %d..%d", w.Due, m.turn, m.format.Turns)
	case w.Seq < 1:
		return nil, subErr(CodeBadSeq, "seq %d", w.Seq)
	case w.Pair != nil && !pairRE.MatchString(*w.Pair):
		return nil, subErr(CodeBadCommitment, "pair is not deal:<8 hex>")
	case len(w.Condition) == 0:
		return nil, subErr(CodeBadCondition, "condition missing")
	}
	payee := 0
	for _, o := range m.seats {
		if o.Agent == w.Payee {
			payee = o.Seat.Seat
		}
	}
	if payee == 0 || payee == seat {
		return nil, subErr(CodeBadCommitment, "payee is not another seated agent")
	}
	if !m.seat(payee).alive {
		return nil, subErr(CodePayeeNotAlive, "payee seat %d is eliminated", payee)
	}
	cnd, err := m.parseCond(w.Condition, w.Due)
	if err != nil {
		return nil, subErr(CodeBadCondition, "%v", err)
	}
	sig, err := canon.ParseSig(w.Sig)
	if err != nil {
		return nil, subErr(CodeInvalidSignature, "%v", err)
	}
	if m.keys == nil {
		return nil, subErr(CodeInvalidSignature, "no key for seat %d", seat)
	}
	pub, ok := m.keys.PublicKey(seat)
	d := canon.Digest(canonical)
	if !ok || !canon.Verify(pub, d[:], sig) {
		return nil, subErr(CodeInvalidSignature, "signature does not verify under seat %d's key", seat)
	}
	c := &commitment{id: id, payer: seat, payee: payee, amount: w.Amount, due: w.Due, seq: w.Seq,
		cond: cnd, condRaw: canonicalOr(w.Condition), raw: raw, outcome: outcomeOpen}
	if w.Pair != nil {
		c.pair = *w.Pair
	}
	return c, nil
}

func canonicalOr(raw json.RawMessage) json.RawMessage {
	if c, err := canon.Canonical(raw); err == nil {
		return c
	}
	return raw
}

// seal runs at the end of commit (§7.4): pending commitments in submission order, vetoed ones
// skipped, each checked for seq, alive payee, unlocked ≥ margin lock, budget ≥ fee and open
// count < 4, pairs (§7.5) sealed together or not at all. Sealing charges the fee, creates the
// lock, emits commitment.sealed (public parties; sealed terms) and asks for a commitment
// anchor; a refusal is a private commitment.rejected with its code.
func (m *Match) seal() {
	groups := map[string][]*commitment{}
	for _, c := range m.pending {
		if !c.vetoed && c.pair != "" {
			groups[c.pair] = append(groups[c.pair], c)
		}
	}
	partner := func(c *commitment) *commitment {
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
	for _, c := range m.pending {
		if c.vetoed || c.done {
			continue
		}
		if c.pair == "" {
			if e := m.sealCheck(c); e != nil {
				m.reject(c, e)
			} else {
				m.doSeal(c)
			}
			continue
		}
		o := partner(c)
		if o == nil {
			m.reject(c, subErr(CodePairUnmatched, "pair %s has no single counterpart with payer and payee swapped", c.pair))
			continue
		}
		e1, e2 := m.sealCheck(c), m.sealCheck(o)
		if e1 == nil && e2 == nil {
			m.doSeal(c)
			m.doSeal(o)
			continue
		}
		if e1 == nil {
			e1 = subErr(CodePairUnmatched, "its pair partner %s cannot be sealed", o.id)
		}
		if e2 == nil {
			e2 = subErr(CodePairUnmatched, "its pair partner %s cannot be sealed", c.id)
		}
		m.reject(c, e1)
		m.reject(o, e2)
	}
	m.pending = nil
}

// sealCheck is §7.4's state-dependent validation, against the state as it stands after the
// commitments sealed before this one.
func (m *Match) sealCheck(c *commitment) *subError {
	p := m.seat(c.payer)
	switch {
	case c.seq <= p.lastSeq:
		return subErr(CodeBadSeq, "seq %d not above %d", c.seq, p.lastSeq)
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

func (m *Match) doSeal(c *commitment) {
	p := m.seat(c.payer)
	c.done = true
	p.budget -= m.fees.Action
	m.house += m.fees.Action
	p.lastSeq = c.seq
	c.lock = ceilHalf(c.amount)
	c.sealedTurn = m.turn
	c.outcome = outcomeOpen
	m.sealed = append(m.sealed, c)
	m.byID[c.id] = c
	m.emit("commitment.sealed", visPublic, map[string]any{"id": c.id, "payer": c.payer, "payee": c.payee, "due": c.due})
	m.emit("commitment.sealed", visSealed, map[string]any{"id": c.id, "amount": c.amount, "lock": c.lock,
		"condition": c.condRaw, "seq": c.seq, "pair": c.pair, "commitment": c.raw})
	var h [32]byte
	copy(h[:], hexBytes(strings.TrimPrefix(c.id, "sha256:")))
	m.requestAnchor("commitment", h)
	m.rungsAfterSeal()
}

func (m *Match) reject(c *commitment, e *subError) {
	c.done = true
	m.rejections = append(m.rejections, Rejection{Seat: c.payer, Turn: m.turn, Index: c.order, Ref: c.ref, ID: c.id, Code: e.code, Msg: e.msg})
	m.emit("commitment.rejected", visPrivate(c.payer), map[string]any{"id": c.id, "ref": c.ref, "code": e.code, "msg": e.msg})
}
