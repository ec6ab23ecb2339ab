package commitment

import (
	"encoding/json"

	"arena/games"
	"arena/games/canon"
)

// MicroPerChip is how many micro-units one whole chip is: a walk-in's `chips` stands for
// chips × 1_000_000 in `amount` (§4.4).
const MicroPerChip int64 = 1_000_000

// Intent is a walk-in's commitment (§4.4, round-script.md): no v, round, turn, seq, payer or
// sig, which the arena fills and signs. The payee is an agent id (Payee) or a seat number
// (PayeeSeat); the amount is microCCD, given as `amount` or as whole `chips`; condition
// operands may name seats by number and honoured may name a script ref ("ref:<name>"). Ref is
// a script-only name for the commitment, stripped before canonicalisation.
type Intent struct {
	Ref       string
	Payee     string
	PayeeSeat int
	Amount    int64 // microCCD
	Chips     bool  // the amount was given as whole chips
	Condition Condition
	Due       int
	Pair      string
}

// ParseIntent reads one walk-in commitment strictly (canon's raw checks, exact names, no
// unknown member: a v, round, turn, seq, payer or sig is refused as unknown). Required: payee,
// exactly one of amount (microCCD ≥ 1_000_000) and chips (whole chips ≥ 1), condition, due ≥ 1.
// Optional: pair ("deal:<8 lowercase hex>"), ref (non-empty). Errors: *games.Error
// bad_commitment or bad_condition.
func ParseIntent(raw json.RawMessage) (Intent, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return Intent{}, badCommitment("%s", canon.Reason(err))
	}
	if v.Kind() != canon.Object {
		return Intent{}, badCommitment("a commitment is a JSON object")
	}
	var in Intent
	var cond canon.Value
	var hasPayee, hasAmount, hasChips, hasCond, hasDue bool
	var chips int64
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		ok := true
		switch name {
		case "ref":
			in.Ref, ok = m.Str()
			ok = ok && in.Ref != ""
		case "payee":
			hasPayee = true
			if s, isStr := m.Str(); isStr {
				in.Payee, ok = s, validAgent(s)
			} else {
				n, isInt := m.Int()
				in.PayeeSeat, ok = int(n), isInt && n >= 1 && n <= maxSeat
			}
		case "amount":
			hasAmount = true
			in.Amount, ok = m.Int()
		case "chips":
			hasChips = true
			chips, ok = m.Int()
			ok = ok && chips >= 1 && chips <= (1<<53-1)/MicroPerChip
		case "condition":
			hasCond, cond = true, m
		case "due":
			hasDue = true
			var n int64
			n, ok = m.Int()
			ok = ok && n >= 1 && n <= maxTurn
			in.Due = int(n)
		case "pair":
			in.Pair, ok = m.Str()
			ok = ok && validPair(in.Pair)
		default:
			return Intent{}, badCommitment("unknown member %q (the arena fills v, round, turn, seq, payer and sig)", name)
		}
		if !ok {
			return Intent{}, badCommitment("%s: wrong type or out of range", name)
		}
	}
	switch {
	case !hasPayee:
		return Intent{}, badCommitment("payee: required (seat number or agent id)")
	case hasAmount && hasChips:
		return Intent{}, badCommitment("amount and chips: give one")
	case hasChips:
		in.Amount, in.Chips = chips*MicroPerChip, true
	case !hasAmount:
		return Intent{}, badCommitment("amount or chips: required")
	}
	if in.Amount < MinAmount {
		return Intent{}, badCommitment("amount: %d microCCD, want ≥ %d", in.Amount, MinAmount)
	}
	if !hasCond {
		return Intent{}, badCommitment("condition: required")
	}
	if !hasDue {
		return Intent{}, badCommitment("due: required, a turn ≥ 1")
	}
	c, e := parseCond(cond, 0, true)
	if e != nil {
		return Intent{}, e
	}
	in.Condition = c
	return in, nil
}

// FillContext is what the arena knows when it makes a walk-in's commitment whole.
type FillContext struct {
	Round string // "T-<n>"
	Turn  int    // the turn of the commit phase
	Seq   int    // the payer's next seq (the round keeps the counter)
	Payer string // the walk-in's (lent Badge) agent id
	// Agent maps a seat number to its agent id; false if no such seat.
	Agent func(seat int) (string, bool)
	// Ref maps a script ref to a commitment id for honoured "ref:<name>"; nil if refs are not
	// in use (a ref then cannot be resolved).
	Ref func(ref string) (string, bool)
}

// Fill makes an intent whole: resolves seat numbers and refs, sets v = 1 and the context's
// round, turn, seq and payer, canonicalises (ref is not part of the object), signs the 32-byte
// digest with sign (ed25519 with the walk-in's lent key, §4.4), and re-parses the signed bytes
// with Parse so a filled commitment passes exactly the checks an A2A one does. Returns the
// commitment, its canonical bytes and id, and the signed JSON. Errors: *games.Error
// bad_commitment, bad_condition, or invalid_signature when sign fails.
func Fill(in Intent, f FillContext, sign func(digest []byte) ([]byte, error)) (Commitment, Canonical, []byte, error) {
	payee := in.Payee
	if in.PayeeSeat != 0 {
		id, ok := lookupSeat(f, in.PayeeSeat)
		if !ok {
			return fail(badCommitment("payee: no seat %d", in.PayeeSeat))
		}
		payee = id
	}
	cond, e := resolve(in.Condition, f)
	if e != nil {
		return fail(e)
	}
	c := Commitment{V: 1, Round: f.Round, Turn: f.Turn, Seq: f.Seq, Payer: f.Payer, Payee: payee,
		Amount: in.Amount, Condition: cond, Due: in.Due, Pair: in.Pair}
	unsigned, err := canon.Marshal(c)
	if err != nil {
		return fail(badCommitment("%s", canon.Reason(err)))
	}
	d := canon.Digest(unsigned)
	sig, err := sign(d[:])
	if err != nil {
		return fail(games.Errorf(CodeInvalidSignature, "signing: %v", err))
	}
	c.Sig = canon.FormatSig(sig)
	raw, err := json.Marshal(c)
	if err != nil {
		return fail(badCommitment("%s", canon.Reason(err)))
	}
	pc, cb, err := Parse(raw)
	if err != nil {
		return Commitment{}, Canonical{}, nil, err
	}
	return pc, cb, raw, nil
}

func fail(e *games.Error) (Commitment, Canonical, []byte, error) {
	return Commitment{}, Canonical{}, nil, e
}

func lookupSeat(f FillContext, seat int) (string, bool) {
	if f.Agent == nil {
		return "", false
	}
	return f.Agent(seat)
}

// resolve returns a copy of c with seat numbers replaced by agent ids and refs by ids.
func resolve(c Condition, f FillContext) (Condition, *games.Error) {
	out := c
	if c.XSeat != 0 {
		id, ok := lookupSeat(f, c.XSeat)
		if !ok {
			return Condition{}, badCondition("%s: no seat %d", c.Op, c.XSeat)
		}
		out.X, out.XSeat = id, 0
	}
	if c.YSeat != 0 {
		id, ok := lookupSeat(f, c.YSeat)
		if !ok {
			return Condition{}, badCondition("%s: no seat %d", c.Op, c.YSeat)
		}
		out.Y, out.YSeat = id, 0
	}
	if c.Op == OpBacks && out.X == out.Y {
		return Condition{}, badCondition("backs: payer and payee are the same agent")
	}
	if c.Ref != "" {
		var id string
		ok := false
		if f.Ref != nil {
			id, ok = f.Ref(c.Ref)
		}
		if !ok || !validID(id) {
			return Condition{}, badCondition("honoured: unknown ref %q", c.Ref)
		}
		out.ID, out.Ref = id, ""
	}
	if len(c.Args) > 0 {
		out.Args = make([]Condition, len(c.Args))
		for i, a := range c.Args {
			r, e := resolve(a, f)
			if e != nil {
				return Condition{}, e
			}
			out.Args[i] = r
		}
	}
	return out, nil
}
