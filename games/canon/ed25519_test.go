package canon

import (
	"crypto/sha256"
	"errors"
	"testing"

	"filippo.io/edwards25519"
)

// slowCheck is the reference for CheckKey: decode, compare the re-encoding, multiply by the
// cofactor.
func slowCheck(b []byte) error {
	p, err := new(edwards25519.Point).SetBytes(b)
	if err != nil {
		return ErrInvalidKey
	}
	if string(p.Bytes()) != string(b) {
		return ErrNonCanonicalKey
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return ErrSmallOrderKey
	}
	return nil
}

func TestSmallOrderTable(t *testing.T) {
	seen := map[[32]byte]bool{}
	for i, enc := range smallOrder {
		if seen[enc] {
			t.Fatalf("encoding %d repeated", i)
		}
		seen[enc] = true
		if err := slowCheck(enc[:]); !errors.Is(err, ErrSmallOrderKey) {
			t.Fatalf("smallOrder[%d] %x: %v", i, enc, err)
		}
	}
	if smallOrder[0] != [32]byte{1} {
		t.Fatalf("smallOrder[0] is not the identity: %x", smallOrder[0])
	}
	if smallOrder[4][0] != 0xec || smallOrder[4][31] != 0x7f {
		t.Fatalf("smallOrder[4] is not y = −1: %x", smallOrder[4])
	}
}

// candidates: every small-order encoding with its sign bit flipped and, where y + p fits in
// 255 bits, its non-canonical twin; y = 0..40 and p−20..p+18 both signs; and pseudo-random bytes.
func candidates() [][]byte {
	var out [][]byte
	add := func(b [32]byte) { out = append(out, append([]byte(nil), b[:]...)) }
	for _, enc := range smallOrder {
		add(enc)
		f := enc
		f[31] ^= 0x80
		add(f)
	}
	p := [32]byte{0xed}
	for i := 1; i < 31; i++ {
		p[i] = 0xff
	}
	p[31] = 0x7f
	for d := -20; d <= 40; d++ {
		var y [32]byte
		if d >= 0 {
			y[0] = byte(d)
		} else {
			y = p
			y[0] = byte(int(p[0]) + d)
		}
		add(y)
		y[31] |= 0x80
		add(y)
		if d >= 0 && d < 19 { // y + p < 2^255
			z := p
			z[0] += byte(d)
			add(z)
			z[31] |= 0x80
			add(z)
		}
	}
	h := sha256.Sum256([]byte("seed"))
	for i := 0; i < 3000; i++ {
		h = sha256.Sum256(h[:])
		add(h)
	}
	return out
}

// TestCheckKeyMatchesReference: the byte-level checks agree with the decoding reference on
// every candidate, and Verify never accepts a signature whose R the reference refuses.
func TestCheckKeyMatchesReference(t *testing.T) {
	for _, b := range candidates() {
		got, want := CheckKey(b), slowCheck(b)
		// y ≥ p that is also no curve point may be named either way; it is refused both ways.
		if (got == nil) != (want == nil) || (want != nil && !errors.Is(got, want) && !errors.Is(want, ErrInvalidKey)) {
			t.Fatalf("%x: CheckKey %v, reference %v", b, got, want)
		}
	}
}

func BenchmarkCheckKey(b *testing.B) {
	k := smallOrder[3]
	k[0] ^= 1
	for b.Loop() {
		CheckKey(k[:])
	}
}

func TestCheckKeyEncoding(t *testing.T) {
	for _, b := range candidates() {
		got, want := CheckKeyEncoding(b), CheckKey(b)
		// The same verdict but for keys that are no curve point, which only CheckKey sees.
		if errors.Is(want, ErrInvalidKey) {
			continue
		}
		if (got == nil) != (want == nil) || (want != nil && !errors.Is(got, errors.Unwrap(want))) {
			t.Fatalf("%x: CheckKeyEncoding %v, CheckKey %v", b, got, want)
		}
	}
	if err := CheckKeyEncoding(make([]byte, 31)); !errors.Is(err, ErrKeyFormat) {
		t.Fatalf("short key: %v", err)
	}
}
