package canon

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"strings"

	"filippo.io/edwards25519"
)

// keyPrefix begins the protocol's text form of keys and signatures (§4.1, §7.3).
const keyPrefix = "ed25519:"

// ParseKey reads "ed25519:<64 lowercase hex>" and applies CheckKey. Upper-case hex is refused so
// that one key has one spelling. Errors wrap ErrKeyFormat or those of CheckKey.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, ok := parseHex(s, ed25519.PublicKeySize)
	if !ok {
		return nil, fmt.Errorf("%w", ErrKeyFormat)
	}
	pub := ed25519.PublicKey(b)
	if err := CheckKey(pub); err != nil {
		return nil, err
	}
	return pub, nil
}

// CheckKey refuses a key that is not 32 bytes (ErrKeyFormat), not a curve point
// (ErrInvalidKey), a non-canonical encoding of its point (ErrNonCanonicalKey: y ≥ p, or x = 0
// with the sign bit set), or a point of small order (ErrSmallOrderKey: the eight points of
// order dividing 8, the identity among them, under which forged signatures verify).
func CheckKey(pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes", ErrKeyFormat, len(pub))
	}
	return checkPoint(pub, ErrNonCanonicalKey, ErrSmallOrderKey)
}

func checkPoint(b []byte, nonCanonical, smallOrder error) error {
	p, err := new(edwards25519.Point).SetBytes(b)
	if err != nil {
		return fmt.Errorf("%w", ErrInvalidKey)
	}
	// SetBytes accepts non-canonical encodings; the re-encoding tells them apart.
	if string(p.Bytes()) != string(b) {
		return fmt.Errorf("%w", nonCanonical)
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return fmt.Errorf("%w", smallOrder)
	}
	return nil
}

// FormatKey writes "ed25519:<64 lowercase hex>".
func FormatKey(pub ed25519.PublicKey) string { return keyPrefix + hex.EncodeToString(pub) }

// ParseSig reads "ed25519:<128 lowercase hex>" into 64 bytes (ErrSigFormat otherwise). The
// signature's content is checked by Verify.
func ParseSig(s string) ([]byte, error) {
	b, ok := parseHex(s, ed25519.SignatureSize)
	if !ok {
		return nil, fmt.Errorf("%w", ErrSigFormat)
	}
	return b, nil
}

// FormatSig writes "ed25519:<128 lowercase hex>".
func FormatSig(sig []byte) string { return keyPrefix + hex.EncodeToString(sig) }

// Verify reports whether sig is a valid Ed25519 signature of msg under pub, and also refuses
// what crypto/ed25519 alone lets through: a small-order or non-canonical key A, a small-order
// or non-canonical R, and (as crypto/ed25519 does) S ≥ L. Under Go's crypto/ed25519 the
// identity key 0x01‖0^31 "verifies" 0x01‖0^63 over any message; here it does not.
func Verify(pub ed25519.PublicKey, msg, sig []byte) bool {
	if len(sig) != ed25519.SignatureSize || CheckKey(pub) != nil {
		return false
	}
	if checkPoint(sig[:32], ErrNonCanonicalKey, ErrSmallOrderKey) != nil {
		return false
	}
	if _, err := new(edwards25519.Scalar).SetCanonicalBytes(sig[32:]); err != nil {
		return false
	}
	return ed25519.Verify(pub, msg, sig)
}

// parseHex reads keyPrefix followed by exactly 2n lowercase hex digits.
func parseHex(s string, n int) ([]byte, bool) {
	h, ok := strings.CutPrefix(s, keyPrefix)
	if !ok || len(h) != 2*n {
		return nil, false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return nil, false
		}
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, false
	}
	return b, true
}
