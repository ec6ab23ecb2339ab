package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/gowebpki/jcs"
)

// Canonical returns the RFC 8785 (JCS) canonical bytes of one JSON value, after the strict
// checks on the raw bytes: valid UTF-8, exactly one value, no member name twice in one object,
// no two member names of one object equal under Unicode case folding, every integer-valued
// number within ±(2^53−1), nesting ≤ MaxDepth. Errors wrap ErrSyntax, ErrInvalidUTF8,
// ErrTrailingData, ErrTooDeep, ErrDuplicateMember, ErrFoldedMember or ErrUnsafeInteger.
func Canonical(raw []byte) ([]byte, error) {
	n, err := parse(raw)
	if err != nil {
		return nil, err
	}
	return canonicalTree(n, "", false)
}

// CanonicalWithout is Canonical for a JSON object with its top-level member name removed: the
// "object without sig" of §7.2. The duplicate and folding checks apply to the whole object,
// name included (a "Sig" beside "sig" is refused). A missing member is not an error. Errors as
// Canonical, plus ErrNotObject.
func CanonicalWithout(raw []byte, name string) ([]byte, error) {
	root, err := parse(raw)
	if err != nil {
		return nil, err
	}
	if root.node().kind != '{' {
		return nil, fmt.Errorf("%w", ErrNotObject)
	}
	return canonicalTree(root, name, true)
}

// without rebuilds the object root of raw with the member name left out, from the members'
// raw spans (whitespace inside values is kept; JCS drops it).
func without(root ref, name string) []byte {
	var b bytes.Buffer
	b.Grow(len(root.span()))
	b.WriteByte('{')
	first := true
	for _, m := range root.members() {
		if root.name(m) == name {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.Write(root.t.raw[m.keyStart:root.val(m).node().end])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func transform(raw []byte) ([]byte, error) {
	out, err := jcs.Transform(raw)
	if err != nil {
		// The strict parse accepts only what JCS accepts; reaching here is a number JCS cannot
		// write (e.g. 1e400, beyond float64).
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	return out, nil
}

// Digest is SHA-256 of canonical bytes: the 32 bytes a §7.3 signature covers.
func Digest(canonical []byte) [32]byte { return sha256.Sum256(canonical) }

// ID is "sha256:" followed by the lowercase hex of Digest(canonical) (§7.2 commitment id).
func ID(canonical []byte) string {
	d := Digest(canonical)
	return IDOf(d)
}

// IDOf formats a digest as an id: "sha256:<64 lowercase hex>".
func IDOf(d [32]byte) string {
	var b [7 + 64]byte
	copy(b[:], "sha256:")
	hex.Encode(b[7:], d[:])
	return string(b[:])
}
