package nostr

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
)

// signJoin signs nonce's challenge with a fresh key as a client does (btcec's own signer), and
// returns the key and signature as the wire carries them.
func signJoin(t testing.TB, nonce string) (sk *btcec.PrivateKey, keyHex, sigHex string) {
	t.Helper()
	sk, err := btcec.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	msg := Challenge(nonce)
	sig, err := schnorr.Sign(sk, msg[:])
	if err != nil {
		t.Fatal(err)
	}
	return sk, hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey())), hex.EncodeToString(sig.Serialize())
}

// TestSignVerifyRoundTrip: a join signed with btcec's schnorr verifies; the same signature over
// another nonce, by another key, or with one bit changed does not.
func TestSignVerifyRoundTrip(t *testing.T) {
	for i := 0; i < 16; i++ {
		nonce := "n0nce-" + strings.Repeat("x", i) + "é"
		_, keyHex, sigHex := signJoin(t, nonce)
		key, err := ParsePubKey(keyHex)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := ParseSig(sigHex)
		if err != nil {
			t.Fatal(err)
		}
		if !Verify(key, sig, Challenge(nonce)) {
			t.Fatalf("a fresh signature does not verify (key %s sig %s)", keyHex, sigHex)
		}
		if Verify(key, sig, Challenge(nonce+"!")) {
			t.Error("the signature verifies for another nonce")
		}
		_, otherHex, _ := signJoin(t, nonce)
		other, err := ParsePubKey(otherHex)
		if err != nil {
			t.Fatal(err)
		}
		if Verify(other, sig, Challenge(nonce)) {
			t.Error("the signature verifies under another key")
		}
		for _, at := range []int{0, 40, 64, 100, 127} {
			b := []byte(sigHex)
			if b[at] == '0' {
				b[at] = '1'
			} else {
				b[at] = '0'
			}
			if s, err := ParseSig(string(b)); err == nil && Verify(key, s, Challenge(nonce)) {
				t.Errorf("the signature with character %d changed verifies", at)
			}
		}
	}
}

// TestChallenge: the challenge is sha256 of the nonce's UTF-8 bytes (FIPS 180-2's "abc").
func TestChallenge(t *testing.T) {
	got := Challenge("abc")
	if hex.EncodeToString(got[:]) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Challenge(abc) = %x", got)
	}
	got = Challenge("")
	if hex.EncodeToString(got[:]) != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("Challenge(\"\") = %x", got)
	}
}

// TestParseRefusals: each malformed field is refused with its own error, decided by the first
// rule it breaks (length, then the first character that is not lower-case hex).
func TestParseRefusals(t *testing.T) {
	good := "dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659"
	goodSig := "6896bd60eeae296db48a229ff71dfe071bde413e6d43f917dc8dcf8c78de33418906d11ac976abccb20b091292bff4ea897efcb639ea871cfa95f6de339e4b0a"
	if _, err := ParsePubKey(good); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseSig(goodSig); err != nil {
		t.Fatal(err)
	}
	keys := []struct {
		in   string
		want error
	}{
		{"", ErrLength},
		{good[:63], ErrLength},
		{good + "0", ErrLength},
		{"0x" + good[2:], ErrNotHex},
		{good[:10] + "g" + good[11:], ErrNotHex},
		{good[:10] + " " + good[11:], ErrNotHex},
		{good[:62] + "é", ErrNotHex}, // 64 bytes, 63 characters
		{good[:10] + "F" + good[11:], ErrUpperHex},
		{strings.ToUpper(good), ErrUpperHex},
		{strings.Repeat("f", 64), ErrKeyRange},
		{"fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", ErrKeyRange}, // x = p
		{"eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34", ErrNotOnCurve},
		{strings.Repeat("0", 64), ErrNotOnCurve}, // x = 0: 7 is no square mod p
	}
	for _, c := range keys {
		k, err := ParsePubKey(c.in)
		if !errors.Is(err, c.want) {
			t.Errorf("ParsePubKey(%q) = %v, want %v", c.in, err, c.want)
		}
		if err != nil && k.String() != "" {
			t.Errorf("ParsePubKey(%q) refused but returned %s", c.in, k)
		}
	}
	sigs := []struct {
		in   string
		want error
	}{
		{"", ErrLength},
		{goodSig[:127], ErrLength},
		{goodSig + "00", ErrLength},
		{good, ErrLength},
		{goodSig[:100] + "z" + goodSig[101:], ErrNotHex},
		{goodSig[:100] + "A" + goodSig[101:], ErrUpperHex},
		{strings.Repeat("f", 64) + goodSig[64:], ErrSigR},
		{goodSig[:64] + strings.Repeat("f", 64), ErrSigS},
		{goodSig[:64] + "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", ErrSigS}, // s = n
	}
	for _, c := range sigs {
		if _, err := ParseSig(c.in); !errors.Is(err, c.want) {
			t.Errorf("ParseSig(%q) = %v, want %v", c.in, err, c.want)
		}
	}
	// s = n − 1 is in range.
	if _, err := ParseSig(goodSig[:64] + "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140"); err != nil {
		t.Errorf("s = n−1 refused: %v", err)
	}
}

// TestVerifyZeroValues: the zero Key and Sig verify nothing and do not panic.
func TestVerifyZeroValues(t *testing.T) {
	_, keyHex, sigHex := signJoin(t, "n")
	key, _ := ParsePubKey(keyHex)
	sig, _ := ParseSig(sigHex)
	if Verify(Key{}, sig, Challenge("n")) || Verify(key, Sig{}, Challenge("n")) || Verify(Key{}, Sig{}, Challenge("n")) {
		t.Fatal("a zero value verifies")
	}
}
