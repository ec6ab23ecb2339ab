package canon

import (
	"errors"
	"strings"
)

// Sentinels. Every error this package returns wraps one of them (errors.Is) with context: the
// member path or byte offset at fault.
var (
	// ErrSyntax: the bytes are not one well-formed JSON value (I-JSON, RFC 7493: no lone
	// surrogate escapes, no unescaped control characters).
	ErrSyntax = errors.New("canon: malformed JSON")
	// ErrInvalidUTF8: the bytes are not valid UTF-8.
	ErrInvalidUTF8 = errors.New("canon: invalid UTF-8")
	// ErrTrailingData: something other than whitespace follows the value.
	ErrTrailingData = errors.New("canon: trailing data after the JSON value")
	// ErrTooDeep: arrays/objects nested deeper than MaxDepth.
	ErrTooDeep = errors.New("canon: nesting too deep")
	// ErrDuplicateMember: the same member name twice in one object.
	ErrDuplicateMember = errors.New("canon: duplicate member")
	// ErrFoldedMember: two member names of one object equal under Unicode case folding.
	ErrFoldedMember = errors.New("canon: member names equal under case folding")
	// ErrUnsafeInteger: an integer-valued number outside ±(2^53−1).
	ErrUnsafeInteger = errors.New("canon: integer outside ±(2^53-1)")
	// ErrNotObject: CanonicalWithout was given something other than an object.
	ErrNotObject = errors.New("canon: not a JSON object")
	// ErrUnknownMember: Decode met a member name that is no field's exact json name.
	ErrUnknownMember = errors.New("canon: unknown member")
	// ErrNull: Decode met null where the field cannot hold it (only pointers, interfaces,
	// slices, maps and json.RawMessage may be null).
	ErrNull = errors.New("canon: null not allowed here")
	// ErrType: Decode met a value of the wrong JSON type for its field.
	ErrType = errors.New("canon: wrong value type")
	// ErrTarget: Decode was given something other than a non-nil pointer.
	ErrTarget = errors.New("canon: decode target must be a non-nil pointer")

	// ErrKeyFormat: a key is not "ed25519:" followed by 64 lowercase hex digits.
	ErrKeyFormat = errors.New("canon: key is not ed25519:<64 lowercase hex>")
	// ErrInvalidKey: the 32 bytes decode to no curve point.
	ErrInvalidKey = errors.New("canon: key is not a curve point")
	// ErrNonCanonicalKey: the key is a non-canonical encoding of its point.
	ErrNonCanonicalKey = errors.New("canon: non-canonical key encoding")
	// ErrSmallOrderKey: the key is a point of small order (the identity among them).
	ErrSmallOrderKey = errors.New("canon: small-order key")
	// ErrSigFormat: a signature is not "ed25519:" followed by 128 lowercase hex digits.
	ErrSigFormat = errors.New("canon: signature is not ed25519:<128 lowercase hex>")
)

// Reason is err's text for the one who sent the bytes (an agent, a walk-in, a chat assistant):
// this package's errors without their "canon: " prefixes, which name a Go package and not what
// is wrong. Every error of this package says what is wrong in JSON's words (a member's path, the
// type it wants, the byte offset), never a Go type or field name, so Reason is what a door may
// send.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), "canon: ", "")
}
