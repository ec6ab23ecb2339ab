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

type intentWire struct {
	Ref       *string         `json:"ref"`
	Payee     json.RawMessage `json:"payee"`
	Amount    *int64          `json:"amount"`
	Chips     *int64          `json:"chips"`
	Condition json.RawMessage `json:"condition"`
	Due       *int            `json:"due"`
	Pair      *string         `json:"pair"`
}

// ParseIntent reads one walk-in commitment strictly (canon's raw checks, exact names, no
// unknown member: a v, round, turn, seq, payer or sig is refused as unknown). Required: payee,
// exactly one of amount (microCCD ≥ 1_000_000) and chips (whole chips ≥ 1), condition, due ≥ 1.
// Optional: pair ("deal:<8 lowercase hex>"), ref (non-empty). Errors: *games.Error
// bad_commitment or bad_condition.
func ParseIntent(raw json.RawMessage) (Intent, error) {
	var w intentWire
	if err := canon.Decode(raw, &w); err != nil {
		return Intent{}, badCommitment("%v", err)
	}
	var in Intent
	if w.Ref != nil {
		if *w.Ref == "" {
			return Intent{}, badCommitment("ref: empty")
		}
		in.Ref = *w.Ref
	}
	if w.Payee == nil {
		return Intent{}, badCommitment("payee: required (seat number or agent id)")
	}
	if err := canon.Decode(w.Payee, &in.Payee); err != nil {
		in.Payee = ""
		if err := canon.Decode(w.Payee, &in.PayeeSeat); err != nil || in.PayeeSeat < 1 {
			return Intent{}, badCommitment("payee: a seat number or an agent id")
		}
	} else if !validAgent(in.Payee) {
		return Intent{}, badCommitment("payee: %q is not an agent id", in.Payee)
	}
	switch {
	case w.Amount != nil && w.Chips != nil:
		return Intent{}, badCommitment("amount and chips: give one")
	case w.Amount != nil:
		in.Amount = *w.Amount
	case w.Chips != nil:
		if *w.Chips < 1 || *w.Chips > (1<<53-1)/MicroPerChip {
			return Intent{}, badCommitment("chips: %d, want 1 to %d", *w.Chips, (1<<53-1)/MicroPerChip)
		}
		in.Amount, in.Chips = *w.Chips*MicroPerChip, true
	default:
		return Intent{}, badCommitment("amount or chips: required")
	}
	if in.Amount < MinAmount {
		return Intent{}, badCommitment("amount: %d microCCD, want ≥ %d", in.Amount, MinAmount)
	}
	if w.Condition == nil {
		return Intent{}, badCommitment("condition: required")
	}
	cond, e := parseCond(w.Condition, 0, true)
	if e != nil {
		return Intent{}, e
	}
	in.Condition = cond
	if w.Due == nil || *w.Due < 1 {
		return Intent{}, badCommitment("due: required, a turn ≥ 1")
	}
	in.Due = *w.Due
	if w.Pair != nil {
		if !validPair(*w.Pair) {
			return Intent{}, badCommitment("pair: %q is not deal:<8 lowercase hex>", *w.Pair)
		}
		in.Pair = *w.Pair
	}
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
		return fail(badCommitment("%v", err))
	}
	d := canon.Digest(unsigned)
	sig, err := sign(d[:])
	if err != nil {
		return fail(games.Errorf(CodeInvalidSignature, "signing: %v", err))
	}
	c.Sig = canon.FormatSig(sig)
	raw, err := json.Marshal(c)
	if err != nil {
		return fail(badCommitment("%v", err))
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
