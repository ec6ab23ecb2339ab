package commitment

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"arena/games/canon"
)

// Each hostile input Parse refuses is its own test. A signed object is built, then tampered with
// on the raw bytes, so the refusal cannot come from a bad signature.

func baseObj() string {
	return `{"v":1,"round":"T-7","turn":1,"seq":1,"payer":"` + alice + `","payee":"` + bob + `","amount":40000000,"condition":{"always":true},"due":2}`
}

func TestHostileCaseVariantAmount(t *testing.T) {
	// "Amount" beside "amount": the canonical bytes keep both, Go's decoder would keep one.
	obj := strings.Replace(baseObj(), `"amount":40000000`, `"amount":40000000,"Amount":1000000`, 1)
	raw := signedLoose(t, obj, testKey("alice"))
	if _, _, err := Parse(raw); Code(err) != CodeBadCommitment || !strings.Contains(err.Error(), "case folding") {
		t.Fatalf("err = %v, want bad_commitment (case folding)", err)
	}
}

func TestHostileLongSSeq(t *testing.T) {
	// "\u017feq" (ſeq) folds to "seq".
	obj := strings.Replace(baseObj(), `"seq":1`, `"seq":1,"\u017feq":9`, 1)
	if _, _, err := Parse(signedLoose(t, obj, testKey("alice"))); Code(err) != CodeBadCommitment || !strings.Contains(err.Error(), "case folding") {
		t.Fatalf("err = %v, want bad_commitment (case folding)", err)
	}
	// ſeq alone (no seq): an unknown member, not a stand-in for seq.
	obj = strings.Replace(baseObj(), `"seq":1`, `"\u017feq":1`, 1)
	if _, _, err := Parse(signed(t, obj, testKey("alice"))); Code(err) != CodeBadCommitment || !strings.Contains(err.Error(), "unknown member") {
		t.Fatalf("ſeq alone: err = %v, want bad_commitment (unknown member)", err)
	}
}

func TestHostileCaseVariantAlone(t *testing.T) {
	// "Amount" with no "amount": Go's decoder would fill Amount; exact-case decoding refuses.
	obj := strings.Replace(baseObj(), `"amount"`, `"Amount"`, 1)
	if _, _, err := Parse(signed(t, obj, testKey("alice"))); Code(err) != CodeBadCommitment {
		t.Fatalf("err = %v, want bad_commitment", err)
	}
}

func TestHostileMemberTwice(t *testing.T) {
	// The same member twice (after signing, so the raw bytes differ from what was signed).
	raw := signed(t, baseObj(), testKey("alice"))
	tampered := strings.Replace(string(raw), `"amount":40000000`, `"amount":40000000,"amount":90000000`, 1)
	if _, _, err := Parse([]byte(tampered)); Code(err) != CodeBadCommitment || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("err = %v, want bad_commitment (duplicate)", err)
	}
	// The sig member twice, too.
	tampered = strings.Replace(string(raw), `"sig":`, `"sig":"ed25519:`+strings.Repeat("0", 128)+`","sig":`, 1)
	if _, _, err := Parse([]byte(tampered)); Code(err) != CodeBadCommitment {
		t.Fatalf("sig twice: err = %v", err)
	}
}

func TestHostileUnsafeAmount(t *testing.T) {
	// 9007199254740993 is written by JCS as ...992: the signed bytes and the settled value
	// would differ.
	obj := strings.Replace(baseObj(), `40000000`, `9007199254740993`, 1)
	raw := signedLoose(t, obj, testKey("alice"))
	if _, _, err := Parse(raw); Code(err) != CodeBadCommitment || !strings.Contains(err.Error(), "2^53") {
		t.Fatalf("err = %v, want bad_commitment (unsafe integer)", err)
	}
	// 2^53−1 itself is representable and accepted by the schema.
	obj = strings.Replace(baseObj(), `40000000`, `9007199254740991`, 1)
	c, _, err := Parse(signed(t, obj, testKey("alice")))
	if err != nil || c.Amount != 9007199254740991 {
		t.Fatalf("2^53-1: %v %d", err, c.Amount)
	}
}

func TestHostileSmallOrderKey(t *testing.T) {
	// The identity key "verifies" 0x01‖0^63 over any digest under crypto/ed25519.
	_, cb, err := Parse(signed(t, baseObj(), testKey("alice")))
	if err != nil {
		t.Fatal(err)
	}
	identity := make(ed25519.PublicKey, 32)
	identity[0] = 1
	forged := make([]byte, 64)
	forged[0] = 1
	if err := Verify(cb, canon.FormatSig(forged), identity); Code(err) != CodeInvalidSignature {
		t.Fatalf("identity forgery: err = %v, want invalid_signature", err)
	}
}

func TestHostileSmallOrderR(t *testing.T) {
	// A genuine key, with a signature whose R is the identity point: refused.
	key := testKey("alice")
	_, cb, _ := Parse(signed(t, baseObj(), key))
	sig := make([]byte, 64)
	sig[0] = 1
	if err := Verify(cb, canon.FormatSig(sig), key.Public().(ed25519.PublicKey)); Code(err) != CodeInvalidSignature {
		t.Fatalf("small-order R: %v", err)
	}
}

func TestHostileNonCanonicalKey(t *testing.T) {
	key := testKey("alice")
	_, cb, _ := Parse(signed(t, baseObj(), key))
	// y = p + 1 encodes y = 1 (the identity) non-canonically: ee ff .. ff 7f.
	nc := make(ed25519.PublicKey, 32)
	nc[0] = 0xee
	for i := 1; i < 31; i++ {
		nc[i] = 0xff
	}
	nc[31] = 0x7f
	if err := Verify(cb, canon.FormatSig(make([]byte, 64)), nc); Code(err) != CodeInvalidSignature || !strings.Contains(err.Error(), "non-canonical") {
		t.Fatalf("non-canonical key: %v", err)
	}
}
