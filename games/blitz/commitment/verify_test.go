package commitment

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"arena/games/canon"
)

// Verify names what is at fault in the same words it did when it checked the key's encoding
// before the signature (the events' msg): the key when the key's encoding is bad (short,
// non-canonical, small order), the signature otherwise; and VerifyDecoded, given the decoded
// signature, says exactly what Verify says.
func TestVerifyErrorsNameTheFault(t *testing.T) {
	key := testKey("alice")
	pub := key.Public().(ed25519.PublicKey)
	c, cb, err := Parse(signed(t, baseObj(), key))
	if err != nil {
		t.Fatal(err)
	}
	good, _ := canon.ParseSig(c.Sig)
	identity := make(ed25519.PublicKey, 32)
	identity[0] = 1
	nonCanonical := make(ed25519.PublicKey, 32)
	nonCanonical[0] = 0xee
	for i := 1; i < 31; i++ {
		nonCanonical[i] = 0xff
	}
	nonCanonical[31] = 0x7f
	forged := make([]byte, 64)
	forged[0] = 1
	other := testKey("bob").Public().(ed25519.PublicKey)
	cases := []struct {
		name string
		sig  []byte
		key  ed25519.PublicKey
		want string // "" for no error
	}{
		{"good", good, pub, ""},
		{"short key", good, pub[:31], "key: "},
		{"identity key", forged, identity, "key: "},
		{"non-canonical key", good, nonCanonical, "key: "},
		{"another key", good, other, "signature does not verify for " + cb.ID},
		{"small-order R", forged, pub, "signature does not verify for " + cb.ID},
	}
	for _, tc := range cases {
		var sig [64]byte
		copy(sig[:], tc.sig)
		e1 := Verify(cb, canon.FormatSig(tc.sig), tc.key)
		e2 := VerifyDecoded(cb, &sig, tc.key)
		switch {
		case tc.want == "" && (e1 != nil || e2 != nil):
			t.Errorf("%s: %v / %v, want no error", tc.name, e1, e2)
		case tc.want != "" && (e1 == nil || e2 == nil):
			t.Errorf("%s: %v / %v, want %q", tc.name, e1, e2, tc.want)
		case tc.want != "" && (!strings.Contains(e1.Error(), tc.want) || e1.Error() != e2.Error() ||
			Code(e1) != CodeInvalidSignature || Code(e2) != CodeInvalidSignature):
			t.Errorf("%s: Verify %v, VerifyDecoded %v, want invalid_signature %q", tc.name, e1, e2, tc.want)
		}
		if ck := canon.CheckKeyEncoding(tc.key); (ck != nil) != strings.HasPrefix(tc.want, "key: ") {
			t.Errorf("%s: CheckKeyEncoding %v, the error names the key: %v", tc.name, ck, strings.HasPrefix(tc.want, "key: "))
		}
	}
	if err := Verify(cb, "ed25519:zz", pub); Code(err) != CodeInvalidSignature || !strings.Contains(err.Error(), "sig: ") {
		t.Errorf("a malformed sig: %v", err)
	}
}
