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

// CheckKey refuses a key that is not 32 bytes (ErrKeyFormat), a non-canonical encoding
// (ErrNonCanonicalKey: y ≥ p, or x = 0 with the sign bit set), a point of small order
// (ErrSmallOrderKey: the eight points of order dividing 8, the identity among them, under which
// forged signatures verify), or no curve point at all (ErrInvalidKey).
func CheckKey(pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes", ErrKeyFormat, len(pub))
	}
	if err := checkEncoding(pub); err != nil {
		return err
	}
	if _, err := new(edwards25519.Point).SetBytes(pub); err != nil {
		return fmt.Errorf("%w", ErrInvalidKey)
	}
	return nil
}

// CheckKeyEncoding is CheckKey without the curve-point decoding: length, canonical encoding
// and small order, by byte comparison (nanoseconds). For the verification path, where a key
// that is no point fails inside the signature check anyway; seat keys with CheckKey.
func CheckKeyEncoding(pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes", ErrKeyFormat, len(pub))
	}
	return checkEncoding(pub)
}

// smallOrder holds the canonical encodings of the eight points of order dividing 8, computed
// at start-up from one point of order 8. With non-canonical encodings refused first, a byte
// comparison with these finds every small-order point without decoding.
var smallOrder = func() (out [8][32]byte) {
	// A point of order 8 (libsodium's blocklist; TestSmallOrderTable checks its order).
	b, _ := hex.DecodeString("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
	p8, err := new(edwards25519.Point).SetBytes(b)
	if err != nil {
		panic("canon: bad order-8 point constant") // a constant: fails at start-up or never
	}
	q := edwards25519.NewIdentityPoint()
	for i := range out {
		copy(out[i][:], q.Bytes())
		q.Add(q, p8)
	}
	return out
}()

// checkEncoding is the byte-level part of the key checks, shared by CheckKey (keys) and Verify
// (keys and R): canonical y (< p = 2^255−19), no "negative zero" (sign bit set where x = 0,
// i.e. y = ±1), and not one of the small-order points.
func checkEncoding(b []byte) error {
	// y ≥ p exactly when the low 255 bits are ed ff .. ff 7f or above.
	if b[31]&0x7f == 0x7f && b[0] >= 0xed && allFF(b[1:31]) {
		return fmt.Errorf("%w", ErrNonCanonicalKey)
	}
	if b[31]&0x80 != 0 {
		var y [32]byte
		copy(y[:], b)
		y[31] &= 0x7f
		if y == smallOrder[0] || y == smallOrder[4] { // y = 1 (identity), y = −1 (order 2): x = 0
			return fmt.Errorf("%w", ErrNonCanonicalKey)
		}
	}
	for i := range smallOrder {
		if string(b) == string(smallOrder[i][:]) {
			return fmt.Errorf("%w", ErrSmallOrderKey)
		}
	}
	return nil
}

func allFF(b []byte) bool {
	for _, c := range b {
		if c != 0xff {
			return false
		}
	}
	return true
}

// FormatKey writes "ed25519:<64 lowercase hex>".
func FormatKey(pub ed25519.PublicKey) string { return keyPrefix + hex.EncodeToString(pub) }

// ParseSig reads "ed25519:<128 lowercase hex>" into 64 bytes (ErrSigFormat otherwise). The
// signature's content is checked by Verify.
func ParseSig(s string) ([]byte, error) {
	b := make([]byte, ed25519.SignatureSize)
	if !DecodeSig(s, (*[ed25519.SignatureSize]byte)(b)) {
		return nil, fmt.Errorf("%w", ErrSigFormat)
	}
	return b, nil
}

// DecodeSig is ParseSig into dst, which the caller owns (the verification path keeps it on
// its stack): true when s is "ed25519:<128 lowercase hex>", with dst holding the 64 bytes;
// false otherwise, dst then undefined. One pass checks and decodes every digit.
func DecodeSig(s string, dst *[ed25519.SignatureSize]byte) bool {
	h, ok := strings.CutPrefix(s, keyPrefix)
	if !ok || len(h) != 2*ed25519.SignatureSize {
		return false
	}
	bad := byte(0)
	for i := range dst {
		hi, lo := hexVal[h[2*i]], hexVal[h[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&0x0f
	}
	return bad&0x80 == 0
}

// hexVal maps a lowercase hex digit to its value and every other byte to 0x80 (which DecodeSig
// collects to refuse the whole text).
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0x80
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
	}
	return t
}()

// ValidSig reports whether s is "ed25519:<128 lowercase hex>", the form ParseSig reads,
// without keeping the bytes.
func ValidSig(s string) bool {
	var b [ed25519.SignatureSize]byte
	return DecodeSig(s, &b)
}

// FormatSig writes "ed25519:<128 lowercase hex>".
func FormatSig(sig []byte) string { return keyPrefix + hex.EncodeToString(sig) }

// Verify reports whether sig is a valid Ed25519 signature of msg under pub, and also refuses
// what crypto/ed25519 alone lets through: a small-order or non-canonical key A, a small-order
// or non-canonical R, and (as crypto/ed25519 does) S ≥ L. Under Go's crypto/ed25519 the
// identity key 0x01‖0^31 "verifies" 0x01‖0^63 over any message; here it does not. The extra
// checks are byte comparisons (no point decoding), so Verify costs what crypto/ed25519 costs;
// an A or R that is no curve point fails inside crypto/ed25519.
func Verify(pub ed25519.PublicKey, msg, sig []byte) bool {
	if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return false
	}
	if checkEncoding(pub) != nil || checkEncoding(sig[:32]) != nil {
		return false
	}
	if _, err := new(edwards25519.Scalar).SetCanonicalBytes(sig[32:]); err != nil {
		return false
	}
	return ed25519.Verify(pub, msg, sig)
}

// checkHex reports whether s is keyPrefix followed by exactly 2n lowercase hex digits, and
// returns the digits.
func checkHex(s string, n int) (string, bool) {
	h, ok := strings.CutPrefix(s, keyPrefix)
	if !ok || len(h) != 2*n {
		return "", false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	return h, true
}

// parseHex reads keyPrefix followed by exactly 2n lowercase hex digits.
func parseHex(s string, n int) ([]byte, bool) {
	h, ok := checkHex(s, n)
	if !ok {
		return nil, false
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, false
	}
	return b, true
}
