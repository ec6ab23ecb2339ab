package nostr

import (
	"errors"
	"strings"
	"testing"
)

// A fresh key's Hex reads back to the same key, its signature verifies against its public key
// through the wire's parsers, and a bad key is refused without being quoted.
func TestSecretKeySignsWhatVerifies(t *testing.T) {
	k, err := NewSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseSecretKey(k.Hex())
	if err != nil || back.Hex() != k.Hex() || back.Public().String() != k.Public().String() {
		t.Fatalf("round trip: %v %q %q", err, back.Hex(), k.Hex())
	}
	pub, err := ParsePubKey(k.Public().String())
	if err != nil {
		t.Fatal(err)
	}
	hexSig, err := k.Sign(Challenge("n_1"))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := ParseSig(hexSig)
	if err != nil || !Verify(pub, sig, Challenge("n_1")) || Verify(pub, sig, Challenge("n_2")) {
		t.Fatalf("signature: %v", err)
	}
	for _, bad := range []string{"", strings.Repeat("0", 64), strings.Repeat("A", 64), strings.Repeat("f", 64), strings.Repeat("1", 63)} {
		_, err := ParseSecretKey(bad)
		if !errors.Is(err, ErrSecretKey) || (bad != "" && strings.Contains(err.Error(), bad)) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
