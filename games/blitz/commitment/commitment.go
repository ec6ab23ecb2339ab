package commitment

import (
	"crypto/ed25519"
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

// Bounds that keep every integer of a commitment meaningful as an int on any platform; the
// round's own limits (due ≤ the format's turns, seats ≤ 8) are far inside them.
const (
	maxTurn = 1 << 20
	maxSeat = 1 << 20
	maxSeq  = 1 << 40
)

// Parse takes a commitment's raw bytes as received and returns it with its canonical bytes and
// id. Order: the strict raw checks and canonical bytes first (canon.Parse, then JCS of the
// object without sig, §7.2), then an exact-case read of the members (no unknown member, no
// null, integers written as integers), then the §7.1 schema: v == 1; round a valid ParseRound id;
// turn ≥ 1; seq ≥ 1; payer and payee well-formed agent ids and different; amount ≥ 1_000_000
// microCCD; condition in the §10 vocabulary with every survives n ≤ due; turn ≤ due; pair
// absent or "deal:<8 lowercase hex>"; sig present in "ed25519:<128 hex>" form (checked by
// Verify). due ≤ the format's turns, seq order, payee seated and alive are the round's checks.
// Errors: *games.Error bad_commitment, bad_condition or invalid_signature.
func Parse(raw []byte) (Commitment, Canonical, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return Commitment{}, Canonical{}, badCommitment("%s", canon.Reason(err))
	}
	c, cb, _, gerr := parseValue(v)
	if gerr != nil {
		return Commitment{}, Canonical{}, gerr
	}
	return c, cb, nil
}

// Forms are the JCS forms of a commitment's parts a transcript carries: Signed is the whole
// object sig included, Condition its condition (JCS of the condition as received, which is
// also JCS of the parsed Condition marshalled back: the §10 vocabulary holds only strings,
// true and integers written as integers).
type Forms struct {
	Signed    []byte
	Condition []byte
}

// ParseForms is Parse also returning the Forms.
func ParseForms(raw []byte) (Commitment, Canonical, Forms, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return Commitment{}, Canonical{}, Forms{}, badCommitment("%s", canon.Reason(err))
	}
	return ParseValue(v)
}

// ParseValue is Parse for a value that already passed canon.Parse (the whole value, or a
// member or element of one: the strict checks hold for every part of a checked value), so an
// answer's commitments are not scanned a second time. It also returns the Forms, written from
// the same tree. Errors as Parse, for the same bytes.
func ParseValue(v canon.Value) (Commitment, Canonical, Forms, error) {
	c, cb, f, gerr := parseValue(v)
	if gerr != nil {
		return Commitment{}, Canonical{}, Forms{}, gerr
	}
	return c, cb, f, nil
}

// parseValue is Parse after the strict scan: the object check, the canonical bytes without
// sig, the exact-case read and schema; then the Forms.
func parseValue(v canon.Value) (Commitment, Canonical, Forms, *games.Error) {
	if v.Kind() != canon.Object {
		return Commitment{}, Canonical{}, Forms{}, badCommitment("a commitment is a JSON object")
	}
	// One walk gives the signed bytes (without sig), the whole object's form and the
	// condition's, with the errors CanonicalWithout would give.
	full, cb, condJCS, err := v.CanonicalForms("sig", "condition")
	if err != nil {
		return Commitment{}, Canonical{}, Forms{}, badCommitment("%s", canon.Reason(err))
	}
	c, gerr := read(v)
	if gerr != nil {
		return Commitment{}, Canonical{}, Forms{}, gerr
	}
	d := canon.Digest(cb)
	return c, Canonical{Bytes: cb, Digest: d, ID: canon.IDOf(d)}, Forms{Signed: full, Condition: condJCS}, nil
}

// Members of a commitment object, as bits of a presence mask.
const (
	hasV = 1 << iota
	hasRound
	hasTurn
	hasSeq
	hasPayer
	hasPayee
	hasAmount
	hasCondition
	hasDue
	hasPair
	hasSig
	required = hasV | hasRound | hasTurn | hasSeq | hasPayer | hasPayee | hasAmount | hasCondition | hasDue
)

// read takes the members of a checked object by exact name, then checks the schema.
func read(v canon.Value) (Commitment, *games.Error) {
	var c Commitment
	var cond canon.Value
	seen := 0
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		var ok bool
		var n int64
		switch name {
		case "v":
			n, ok = m.Int()
			c.V = int(n)
			seen |= hasV
		case "round":
			c.Round, ok = m.Str()
			seen |= hasRound
		case "turn":
			n, ok = m.Int()
			ok = ok && n >= -maxTurn && n <= maxTurn
			c.Turn = int(n)
			seen |= hasTurn
		case "seq":
			n, ok = m.Int()
			ok = ok && n >= -maxSeq && n <= maxSeq
			c.Seq = int(n)
			seen |= hasSeq
		case "payer":
			c.Payer, ok = m.Str()
			seen |= hasPayer
		case "payee":
			c.Payee, ok = m.Str()
			seen |= hasPayee
		case "amount":
			c.Amount, ok = m.Int()
			seen |= hasAmount
		case "condition":
			cond, ok = m, true // its shape is the condition parser's: bad_condition
			seen |= hasCondition
		case "due":
			n, ok = m.Int()
			ok = ok && n >= -maxTurn && n <= maxTurn
			c.Due = int(n)
			seen |= hasDue
		case "pair":
			c.Pair, ok = m.Str()
			seen |= hasPair
		case "sig":
			c.Sig, ok = m.Str()
			seen |= hasSig
		default:
			return Commitment{}, badCommitment("unknown member %q", name)
		}
		if !ok {
			if name == "sig" {
				return Commitment{}, games.Errorf(CodeInvalidSignature, "sig: not a string")
			}
			return Commitment{}, badCommitment("%s: wrong type or out of range", name)
		}
	}
	var sig [ed25519.SignatureSize]byte
	if gerr := schema(&c, seen, cond, c.Sig, &sig); gerr != nil {
		return Commitment{}, gerr
	}
	return c, nil
}

// schema is the §7.1 schema check of read, on the members read into c (seen: the presence
// mask) and the condition's value; it parses the condition into c (c is the caller's, read in
// place: a commitment is some 300 bytes of pointers and words, not copied in and out), and decodes the sig's form (which it
// checks) into sig, so that a caller that keeps the bytes need not decode it again. sigText is
// the sig member's text (c.Sig).
func schema(c *Commitment, seen int, cond canon.Value, sigText string, sig *[ed25519.SignatureSize]byte) *games.Error {
	switch {
	case seen&required != required:
		return badCommitment("missing member: v, round, turn, seq, payer, payee, amount, condition and due are required")
	case c.V != 1:
		return badCommitment("v: %d, want 1", c.V)
	case !validRound(c.Round):
		return badCommitment("round: %q is not T-<n> with n from 1 to 2^64-1, no leading zero", c.Round)
	case c.Turn < 1:
		return badCommitment("turn: %d, want ≥ 1", c.Turn)
	case c.Seq < 1:
		return badCommitment("seq: %d, want ≥ 1", c.Seq)
	case !validAgent(c.Payer):
		return badCommitment("payer: %q is not an agent id", c.Payer)
	case !validAgent(c.Payee):
		return badCommitment("payee: %q is not an agent id", c.Payee)
	case c.Payer == c.Payee:
		return badCommitment("payee is the payer")
	case c.Amount < MinAmount:
		return badCommitment("amount: %d microCCD, want ≥ %d", c.Amount, MinAmount)
	case c.Due < c.Turn:
		return badCommitment("due: %d before turn %d", c.Due, c.Turn)
	case seen&hasPair != 0 && !validPair(c.Pair):
		return badCommitment("pair: %q is not deal:<8 lowercase hex>", c.Pair)
	case seen&hasSig == 0:
		return games.Errorf(CodeInvalidSignature, "missing sig")
	}
	if !canon.DecodeSig(sigText, sig) {
		_, err := canon.ParseSig(sigText) // for its error
		return games.Errorf(CodeInvalidSignature, "sig: %s", canon.Reason(err))
	}
	parsed, e := parseCond(cond, 0, false)
	if e != nil {
		return e
	}
	if n := parsed.maxSurvivesN(); n > c.Due {
		return badCondition("survives: turn %d after due %d", n, c.Due)
	}
	c.Condition = parsed
	return nil
}

// Verify checks sig (the "ed25519:<128 hex>" text) over c.Digest under key with canon.Verify,
// which also refuses small-order or non-canonical keys and R (§7.3); the key's encoding is
// checked first so the error names it. A key that is no curve point fails the verification.
// Error: *games.Error invalid_signature.
//
// The signature is decoded into the stack.
func Verify(c Canonical, sig string, key ed25519.PublicKey) error {
	var s [ed25519.SignatureSize]byte
	if !canon.DecodeSig(sig, &s) {
		_, err := canon.ParseSig(sig) // for its error
		return games.Errorf(CodeInvalidSignature, "sig: %s", canon.Reason(err))
	}
	return VerifyDecoded(c, &s, key)
}

// VerifyDecoded is Verify for a signature already decoded (canon.DecodeSig), with the same errors
// for a key or a signature that fails. The key's encoding is judged once, inside canon.Verify;
// only a failed check asks CheckKeyEncoding again, to name the key when it is at fault.
func VerifyDecoded(c Canonical, sig *[ed25519.SignatureSize]byte, key ed25519.PublicKey) error {
	if !canon.Verify(key, c.Digest[:], sig[:]) {
		if err := canon.CheckKeyEncoding(key); err != nil {
			return games.Errorf(CodeInvalidSignature, "key: %s", canon.Reason(err))
		}
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

// validRound is ParseRound's rule (§3 "T-<n>", n a u64 from 1, no leading zero).
func validRound(s string) bool {
	_, ok := ParseRound(s)
	return ok
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
