package commitment

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// Commitment is a signed conditional promise to pay (§7.1). Amount is microCCD. Pair is
// "deal:<8 lowercase hex>" or empty. Sig is "ed25519:<128 hex>", over the 32-byte SHA-256
// digest of the canonical bytes of the object without sig (§7.2, §7.3).
type Commitment struct {
	V         int       `json:"v"`
	Round     string    `json:"round"`
	Turn      int       `json:"turn"`
	Seq       int       `json:"seq"`
	Payer     string    `json:"payer"`
	Payee     string    `json:"payee"`
	Amount    int64     `json:"amount"`
	Condition Condition `json:"condition"`
	Due       int       `json:"due"`
	Pair      string    `json:"pair,omitempty"`
	Sig       string    `json:"sig,omitempty"`
}

// MinAmount is the least amount of a commitment: 1 CCD in microCCD (§7.1).
const MinAmount int64 = 1_000_000

// Canonical is a commitment's identity: its canonical bytes (JCS of the object without sig,
// §7.2), their SHA-256 Digest (what the signature covers, §7.3) and ID = "sha256:" + hex.
type Canonical struct {
	Bytes  []byte
	Digest [32]byte
	ID     string
}

// wire is the received object, every required member a pointer so that absence (or null) is
// told apart from a zero value.
type wire struct {
	V         *int            `json:"v"`
	Round     *string         `json:"round"`
	Turn      *int            `json:"turn"`
	Seq       *int            `json:"seq"`
	Payer     *string         `json:"payer"`
	Payee     *string         `json:"payee"`
	Amount    *int64          `json:"amount"`
	Condition json.RawMessage `json:"condition"`
	Due       *int            `json:"due"`
	Pair      *string         `json:"pair"`
	Sig       *string         `json:"sig"`
}

// Parse takes a commitment's raw bytes as received and returns it with its canonical bytes and
// id. Order: canon.CanonicalWithout(raw, "sig") first (raw-byte checks, §7.2), then strict
// decode (exact-case names, no unknown member, no null), then the §7.1 schema: v == 1; round
// "T-" + digits; turn ≥ 1; seq ≥ 1; payer and payee well-formed agent ids and different;
// amount ≥ 1_000_000 microCCD; condition in the §10 vocabulary with every survives n ≤ due;
// turn ≤ due; pair absent or "deal:<8 lowercase hex>"; sig present in "ed25519:<128 hex>" form
// (checked by Verify). due ≤ the format's turns, seq order, payee seated and alive are the round's
// checks. Errors: *games.Error bad_commitment, bad_condition or invalid_signature.
func Parse(raw []byte) (Commitment, Canonical, error) {
	cb, err := canon.CanonicalWithout(raw, "sig")
	if err != nil {
		return Commitment{}, Canonical{}, badCommitment("%v", err)
	}
	var w wire
	if err := canon.Decode(raw, &w); err != nil {
		return Commitment{}, Canonical{}, badCommitment("%v", err)
	}
	c, gerr := w.check()
	if gerr != nil {
		return Commitment{}, Canonical{}, gerr
	}
	d := canon.Digest(cb)
	return c, Canonical{Bytes: cb, Digest: d, ID: canon.IDOf(d)}, nil
}

func (w *wire) check() (Commitment, *games.Error) {
	switch {
	case w.V == nil, w.Round == nil, w.Turn == nil, w.Seq == nil, w.Payer == nil, w.Payee == nil,
		w.Amount == nil, w.Condition == nil, w.Due == nil:
		return Commitment{}, badCommitment("missing member: v, round, turn, seq, payer, payee, amount, condition and due are required")
	case *w.V != 1:
		return Commitment{}, badCommitment("v: %d, want 1", *w.V)
	case !validRound(*w.Round):
		return Commitment{}, badCommitment("round: %q is not T-<n>", *w.Round)
	case *w.Turn < 1:
		return Commitment{}, badCommitment("turn: %d, want ≥ 1", *w.Turn)
	case *w.Seq < 1:
		return Commitment{}, badCommitment("seq: %d, want ≥ 1", *w.Seq)
	case !validAgent(*w.Payer):
		return Commitment{}, badCommitment("payer: %q is not an agent id", *w.Payer)
	case !validAgent(*w.Payee):
		return Commitment{}, badCommitment("payee: %q is not an agent id", *w.Payee)
	case *w.Payer == *w.Payee:
		return Commitment{}, badCommitment("payee is the payer")
	case *w.Amount < MinAmount:
		return Commitment{}, badCommitment("amount: %d microCCD, want ≥ %d", *w.Amount, MinAmount)
	case *w.Due < *w.Turn:
		return Commitment{}, badCommitment("due: %d before turn %d", *w.Due, *w.Turn)
	case w.Pair != nil && !validPair(*w.Pair):
		return Commitment{}, badCommitment("pair: %q is not deal:<8 lowercase hex>", *w.Pair)
	case w.Sig == nil:
		return Commitment{}, games.Errorf(CodeInvalidSignature, "missing sig")
	}
	if _, err := canon.ParseSig(*w.Sig); err != nil {
		return Commitment{}, games.Errorf(CodeInvalidSignature, "sig: %v", err)
	}
	cond, e := parseCond(w.Condition, 0, false)
	if e != nil {
		return Commitment{}, e
	}
	if n := cond.maxSurvivesN(); n > *w.Due {
		return Commitment{}, badCondition("survives: turn %d after due %d", n, *w.Due)
	}
	c := Commitment{V: 1, Round: *w.Round, Turn: *w.Turn, Seq: *w.Seq, Payer: *w.Payer,
		Payee: *w.Payee, Amount: *w.Amount, Condition: cond, Due: *w.Due, Sig: *w.Sig}
	if w.Pair != nil {
		c.Pair = *w.Pair
	}
	return c, nil
}

// Verify checks sig (the "ed25519:<128 hex>" text) over c.Digest under key with canon.Verify,
// which also refuses small-order or non-canonical keys and R (§7.3). Error: *games.Error
// invalid_signature.
func Verify(c Canonical, sig string, key ed25519.PublicKey) error {
	s, err := canon.ParseSig(sig)
	if err != nil {
		return games.Errorf(CodeInvalidSignature, "sig: %v", err)
	}
	if err := canon.CheckKey(key); err != nil {
		return games.Errorf(CodeInvalidSignature, "key: %v", err)
	}
	if !canon.Verify(key, c.Digest[:], s) {
		return games.Errorf(CodeInvalidSignature, "signature does not verify for %s", c.ID)
	}
	return nil
}

// Code returns the protocol code of an error from this package ("" if it carries none).
func Code(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return ""
}

// validAgent accepts an agent id as this package can judge it without the registry: 1 to 256
// printable ASCII characters, no space. Whether it is seated is the round's check.
func validAgent(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// validRound accepts "T-" followed by 1 to 18 decimal digits (§3, "T-<n>").
func validRound(s string) bool {
	n, ok := strings.CutPrefix(s, "T-")
	return ok && len(n) >= 1 && len(n) <= 18 && allIn(n, "0123456789")
}

// validPair accepts "deal:<8 lowercase hex>" (§3).
func validPair(s string) bool {
	h, ok := strings.CutPrefix(s, "deal:")
	return ok && len(h) == 8 && allIn(h, "0123456789abcdef")
}

// validID accepts a commitment id "sha256:<64 lowercase hex>" (§7.3).
func validID(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	return ok && len(h) == 64 && allIn(h, "0123456789abcdef")
}

func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}
