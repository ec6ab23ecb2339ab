package canon

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
)

// Hostile inputs the strict parser and Verify refuse, each its own test.

func TestCaseVariantMembersRefused(t *testing.T) {
	_, err := Canonical([]byte(`{"amount":1000000,"Amount":5000000}`))
	if !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("amount/Amount: err = %v, want ErrFoldedMember", err)
	}
}

func TestLongSFoldedMemberRefused(t *testing.T) {
	// "\u017feq" (ſeq) folds to "seq" under strings.EqualFold.
	for _, raw := range []string{`{"seq":1,"\u017feq":2}`, "{\"seq\":1,\"\u017feq\":2}", `{"\u017feq":1,"SEQ":2}`} {
		_, err := Canonical([]byte(raw))
		if !errors.Is(err, ErrFoldedMember) {
			t.Fatalf("%s: err = %v, want ErrFoldedMember", raw, err)
		}
	}
	// Kelvin sign K (U+212A) folds to k.
	if _, err := Canonical([]byte(`{"k":1,"\u212a":2}`)); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("kelvin: err = %v", err)
	}
}

func TestDuplicateMemberRefused(t *testing.T) {
	for _, raw := range []string{`{"seq":1,"seq":2}`, `{"a":{"b":1,"b":1}}`, `{"seq":1,"s\u0065q":1}`} {
		if _, err := Canonical([]byte(raw)); !errors.Is(err, ErrDuplicateMember) {
			t.Fatalf("%s: err = %v, want ErrDuplicateMember", raw, err)
		}
	}
}

func TestUnsafeIntegerRefused(t *testing.T) {
	for _, raw := range []string{`{"amount":9007199254740993}`, `9007199254740992`, `-9007199254740992`,
		`1e16`, `9.007199254740993e15`, `1.5e300`, `[12345678901234567890]`, `90071992547409920e-1`} {
		if _, err := Canonical([]byte(raw)); !errors.Is(err, ErrUnsafeInteger) {
			t.Fatalf("%s: err = %v, want ErrUnsafeInteger", raw, err)
		}
	}
	for raw, want := range map[string]string{
		`9007199254740991`:     `9007199254740991`,
		`-9007199254740991`:    `-9007199254740991`,
		`900719925474099.5`:    `900719925474099.5`,
		`90071992547409910e-1`: `9007199254740991`,
		`1E3`:                  `1000`,
		`0.000`:                `0`,
		`-0`:                   `0`,
	} {
		got, err := Canonical([]byte(raw))
		if err != nil || string(got) != want {
			t.Fatalf("%s: got %s, %v; want %s", raw, got, err, want)
		}
	}
}

func TestTrailingDataRefused(t *testing.T) {
	for _, raw := range []string{`{} {}`, `{}x`, `1 2`, `{"a":1}}`} {
		if _, err := Canonical([]byte(raw)); !errors.Is(err, ErrTrailingData) {
			t.Fatalf("%s: err = %v, want ErrTrailingData", raw, err)
		}
	}
}

func TestSmallOrderKeyRefused(t *testing.T) {
	identity := make(ed25519.PublicKey, 32)
	identity[0] = 1
	sig := make([]byte, 64)
	sig[0] = 1
	// Go's crypto/ed25519 accepts this forgery over any message; Verify must not.
	if !ed25519.Verify(identity, []byte("any message"), sig) {
		t.Log("note: crypto/ed25519 no longer accepts the identity forgery")
	}
	if Verify(identity, []byte("any message"), sig) {
		t.Fatal("identity key forgery verified")
	}
	if err := CheckKey(identity); !errors.Is(err, ErrSmallOrderKey) {
		t.Fatalf("CheckKey(identity) = %v", err)
	}
	if _, err := ParseKey(FormatKey(identity)); !errors.Is(err, ErrSmallOrderKey) {
		t.Fatalf("ParseKey(identity) = %v", err)
	}
}

func TestNonCanonicalKeyRefused(t *testing.T) {
	// y = p (2^255 − 19) encodes y = 0 non-canonically: ed ff .. ff 7f.
	k := make([]byte, 32)
	k[0] = 0xed
	for i := 1; i < 31; i++ {
		k[i] = 0xff
	}
	k[31] = 0x7f
	err := CheckKey(k)
	if !errors.Is(err, ErrNonCanonicalKey) {
		t.Fatalf("y=p: %v, want ErrNonCanonicalKey", err)
	}
	if _, err := ParseKey("ed25519:" + strings.Repeat("A", 64)); !errors.Is(err, ErrKeyFormat) {
		t.Fatalf("upper hex: %v", err)
	}
}

// TestLargeObjectDuplicates: past smallObject members the map path finds the same clashes,
// including against members seen before the switch.
func TestLargeObjectDuplicates(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"seq":0`)
	for i := 0; i < 40; i++ {
		b.WriteString(`,"m` + strings.Repeat("x", i) + `":1`)
	}
	base := b.String()
	if _, err := Canonical([]byte(base + `}`)); err != nil {
		t.Fatalf("large object: %v", err)
	}
	if _, err := Canonical([]byte(base + `,"\u017feq":1}`)); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("folded late: %v", err)
	}
	if _, err := Canonical([]byte(base + `,"seq":1}`)); !errors.Is(err, ErrDuplicateMember) {
		t.Fatalf("duplicate late: %v", err)
	}
	if _, err := Canonical([]byte(base + `,"MXXX":1}`)); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("case variant late: %v", err)
	}
}
