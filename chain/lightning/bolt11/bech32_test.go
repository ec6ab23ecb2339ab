package bolt11

import (
	"errors"
	"strings"
	"testing"
)

// The BIP-173 test vectors ("Test vectors"; bitcoin/bips bip-0173.mediawiki), as facts: the
// strings that are valid bech32, and the invalid ones with the BIP's reason.
var bip173Valid = []string{
	"A12UEL5L",
	"a12uel5l",
	"an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
	"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
	"11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
	"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
	"?1ezyfcl",
}

var bip173Invalid = []struct {
	s      string
	reason string
	err    error
}{
	{"\x20" + "1nwldj5", "HRP character out of range", ErrBech32},
	{"\x7f" + "1axkwrx", "HRP character out of range", ErrBech32},
	{"\x80" + "1eym55h", "HRP character out of range", ErrBech32},
	{"pzry9x0s0muk", "No separator character", ErrBech32},
	{"1pzry9x0s0muk", "Empty HRP", ErrBech32},
	{"x1b4n0q5v", "Invalid data character", ErrBech32},
	{"li1dgmt3", "Too short checksum", ErrBech32},
	{"de1lg7wt" + "\xff", "Invalid character in checksum", ErrBech32},
	{"A1G7SGD8", "checksum calculated with uppercase form of HRP", ErrChecksum},
	{"10a06t8", "empty HRP", ErrBech32},
	{"1qzzfhee", "empty HRP", ErrBech32},
	// Not in the BIP's list: its segwit list's mixed-case address.
	{"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", "Mixed case", ErrBech32},
}

// TestBech32BIP173: every valid string decodes and re-encodes to itself in lower case; every
// invalid one is refused for its reason.
func TestBech32BIP173(t *testing.T) {
	for _, s := range bip173Valid {
		hrp, data, err := decodeBech32(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got := encodeBech32(hrp, data); got != strings.ToLower(s) {
			t.Errorf("%q re-encodes as %q", s, got)
		}
	}
	for _, c := range bip173Invalid {
		if _, _, err := decodeBech32(c.s); !errors.Is(err, c.err) {
			t.Errorf("%q (%s): %v, want %v", c.s, c.reason, err, c.err)
		}
	}
}

// TestBech32NoLengthLimit: the BIP's 84-character HRP string, invalid in BIP-173 only because it
// is 91 characters long, is valid here (BOLT 11 drops the limit), and so is a 1,000-character one.
func TestBech32NoLengthLimit(t *testing.T) {
	s := "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx"
	if len(s) != 91 {
		t.Fatalf("len %d", len(s))
	}
	if hrp, _, err := decodeBech32(s); err != nil || len(hrp) != 84 {
		t.Fatalf("%q: hrp %q, %v", s, hrp, err)
	}
	long := encodeBech32("ln", make([]byte, 1000))
	hrp, data, err := decodeBech32(long)
	if err != nil || hrp != "ln" || len(data) != 1000 {
		t.Fatalf("1000 values: %q %d %v", hrp, len(data), err)
	}
}

// TestBech32mRefused: a bech32m checksum (BIP-350's constant) is not a bech32 checksum.
func TestBech32mRefused(t *testing.T) {
	// "a1lqfn3a" is BIP-350's valid bech32m string with an empty data part: its polymod is the
	// bech32m constant.
	data := []byte{31, 0, 9, 19, 17, 29} // l q f n 3 a
	if got := polymod(append(hrpExpand("a"), data...)); got != 0x2bc830a3 {
		t.Fatalf("polymod %#x, want the bech32m constant", got)
	}
	if _, _, err := decodeBech32("a1lqfn3a"); !errors.Is(err, ErrChecksum) {
		t.Fatalf("bech32m: %v, want ErrChecksum", err)
	}
}

// TestBech32SingleErrors: changing any one character of a valid invoice to any other character
// of the alphabet fails the checksum (bech32 detects every single substitution).
func TestBech32SingleErrors(t *testing.T) {
	v := readVectors(t)
	s := v.Valid[1]
	sep := strings.LastIndexByte(s, '1')
	for i := sep + 1; i < len(s); i++ {
		for j := 0; j < len(charset); j++ {
			if charset[j] == s[i] {
				continue
			}
			bad := s[:i] + string(charset[j]) + s[i+1:]
			if _, _, err := decodeBech32(bad); !errors.Is(err, ErrChecksum) {
				t.Fatalf("character %d changed to %c: %v", i, charset[j], err)
			}
		}
	}
}
