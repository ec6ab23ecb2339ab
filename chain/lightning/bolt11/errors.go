package bolt11

import "errors"

// The ways Decode (and Sign, which decodes what it signs) refuses an invoice. Every error they
// return wraps exactly one of these, so a caller tells them apart with errors.Is; the text after
// the sentinel's names the field and the rule. A refusal names the first rule broken, in the order
// Decode checks them: the string (ErrTooLong, ErrBech32, ErrChecksum), the human-readable part
// (ErrPrefix, ErrAmount, ErrSubMsat), the data part's framing (ErrTooShort, ErrField), each known
// field's contents (ErrPadding, ErrNonMinimal, ErrDescription, ErrFallback, ErrRoute, ErrPayee),
// the signature (ErrSignature, ErrHighS), and last the invoice as a whole (ErrDuplicate,
// ErrMissingPaymentHash, ErrMissingSecret, ErrDescription, ErrUnknownFeature, ErrFeatureDependency).
var (
	// ErrTooLong: the string is longer than MaxLength characters.
	ErrTooLong = errors.New("bolt11: invoice too long")
	// ErrBech32: not bech32 (BIP-173): a character outside printable US-ASCII or the alphabet,
	// mixed case, no separator, an empty human-readable part, or no room for the checksum.
	ErrBech32 = errors.New("bolt11: not bech32")
	// ErrChecksum: the bech32 checksum does not match ("Encoding Overview": MUST fail).
	ErrChecksum = errors.New("bolt11: bad bech32 checksum")
	// ErrPrefix: the human-readable part is not "ln" and a known currency prefix.
	ErrPrefix = errors.New("bolt11: unknown prefix")
	// ErrAmount: the amount is not a positive decimal integer with no leading 0 and an optional
	// multiplier m, u, n or p, or it does not fit 64 bits of millisatoshis.
	ErrAmount = errors.New("bolt11: bad amount")
	// ErrSubMsat: a p (pico) amount whose last digit is not 0, so not a whole millisatoshi.
	ErrSubMsat = errors.New("bolt11: amount below a millisatoshi")
	// ErrTooShort: the data part cannot hold the timestamp and the signature.
	ErrTooShort = errors.New("bolt11: data part too short")
	// ErrField: a tagged field runs past the signature (its data_length is longer than what is left).
	ErrField = errors.New("bolt11: truncated tagged field")
	// ErrPadding: a known field's bytes are padded with more than 4 bits or with bits that are not 0.
	ErrPadding = errors.New("bolt11: bad field padding")
	// ErrNonMinimal: an x, c or 9 field that starts with a 0 value, or an empty 9, or an x or c
	// whose value does not fit 64 bits.
	ErrNonMinimal = errors.New("bolt11: field not minimally encoded")
	// ErrDescription: a d that is not UTF-8, or neither or both of d and h.
	ErrDescription = errors.New("bolt11: bad description")
	// ErrFallback: an f field of a known version (0-18) with no valid program for it.
	ErrFallback = errors.New("bolt11: bad fallback address")
	// ErrRoute: an r field that is not whole hops, or a hop whose key is not a point.
	ErrRoute = errors.New("bolt11: bad route hint")
	// ErrPayee: an n field whose 33 bytes are not a compressed public key.
	ErrPayee = errors.New("bolt11: bad payee key")
	// ErrSignature: the recovery id is above 3, no key can be recovered, or the signature does not
	// verify under the n field's key.
	ErrSignature = errors.New("bolt11: bad signature")
	// ErrHighS: an n field is present and the signature's s is above half the curve order
	// (the low-S rule).
	ErrHighS = errors.New("bolt11: high-S signature with n")
	// ErrDuplicate: a second p, s, d, h, n, x, c, 9 or m field of the right length.
	ErrDuplicate = errors.New("bolt11: field given twice")
	// ErrMissingPaymentHash: no p field of length 52.
	ErrMissingPaymentHash = errors.New("bolt11: no payment hash")
	// ErrMissingSecret: no s field of length 52.
	ErrMissingSecret = errors.New("bolt11: no payment secret")
	// ErrUnknownFeature: the 9 field sets an even (required) bit this package does not know.
	ErrUnknownFeature = errors.New("bolt11: unknown required feature")
	// ErrFeatureDependency: the 9 field sets a feature without a feature it depends on (BOLT 9).
	ErrFeatureDependency = errors.New("bolt11: feature without its dependency")
	// ErrUnencodable: what Sign was given has no encoding: an unknown currency, an invalid
	// Amount, a timestamp of more than 35 bits, a field type or value above 31, a field of more
	// than 1023 values, or no key. (Sign's other refusals are Decode's, of what it would write.)
	ErrUnencodable = errors.New("bolt11: cannot encode")
)
