// Package bolt11 reads and writes BOLT 11 Lightning invoices (lightning/bolts
// 11-payment-encoding.md): bech32 without the 90-character limit, the human-readable part's
// currency and amount, the timestamp, the tagged fields and the recoverable secp256k1 signature.
// The curve and ECDSA are github.com/btcsuite/btcd/btcec/v2's; the bech32 and the field codec are
// this package's (btcutil's bech32 refuses strings over 90 characters).
//
// Decode is strict: it refuses what the spec says a reader MUST fail, and what it says a reader
// SHOULD treat as invalid, each with a sentinel of errors.go; docs/protocol-notes.md ("chain/
// lightning/bolt11") lists the judgements where the spec is silent or contradicts its examples.
// It keeps every tagged field as written, in order, so Encode gives back the string it read (in
// lower case). Sign writes and signs a new invoice from fields, and decodes what it wrote.
//
// Decode checks the signature but not the clock: whether an invoice has expired is Expired's
// question, with the caller's time.
package bolt11

import (
	"crypto/sha256"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/ecdsa"
)

// MaxLength is the longest invoice Decode reads, in characters: 7089, what one QR code holds
// (version 40, alphanumeric). BOLT 11 drops BIP-173's 90-character limit and sets none; this
// bound keeps a reader's work bounded.
const MaxLength = 7089

// The defaults BOLT 11 gives fields an invoice leaves out.
const (
	DefaultExpiry                  = 3600 // seconds, without an x field
	DefaultMinFinalCLTVExpiryDelta = 18   // blocks, without a c field
)

// Lengths of the data part's fixed pieces, in 5-bit values.
const (
	timestampLen = 7   // 35 bits
	signatureLen = 104 // 520 bits: r ‖ s ‖ recovery id
)

// maxTimestamp is the largest 35-bit timestamp.
const maxTimestamp = 1<<35 - 1

// Unsigned is what an invoice's signature covers: the human-readable part and the data part
// before the signature. It is Sign's input.
type Unsigned struct {
	Currency  Currency
	Amount    Amount // the zero Amount: no amount
	Timestamp uint64 // seconds since 1970-01-01 UTC, below 2^35
	Fields    []Field
}

// Invoice is a decoded invoice: what Decode read out of the string, or Sign out of what it wrote.
// Only Decode and Sign make one. Encode writes the invoice as read; the exported fields are read
// from it, and changing them changes nothing Encode writes (to make a new invoice, Sign).
type Invoice struct {
	Currency  Currency
	Amount    Amount // as written; the zero Amount when the invoice names none
	Msat      uint64 // Amount in millisatoshis; 0 when it names none
	Timestamp uint64 // seconds since 1970-01-01 UTC

	// Payee is the node key the signature is by: the n field's when there is one, else the key
	// recovered from the signature. PayeeGiven says which.
	Payee      *btcec.PublicKey
	PayeeGiven bool

	PaymentHash   [32]byte // the first p field of length 52
	PaymentSecret [32]byte // the first s field of length 52
	// Description is the d field's text; DescriptionHash is nil then. With an h field instead,
	// DescriptionHash is its hash and Description is "". An invoice has exactly one of them.
	Description     string
	DescriptionHash *[32]byte
	Expiry          uint64 // seconds after Timestamp; DefaultExpiry without an x field
	// MinFinalCLTVExpiryDelta is in blocks; DefaultMinFinalCLTVExpiryDelta without a c field.
	MinFinalCLTVExpiryDelta uint64
	Fallbacks               []Fallback // the f fields of known versions, in order
	Routes                  [][]Hop    // the r fields, in order (most preferred first)
	Features                Features   // the 9 field's bits; nil without one
	Metadata                []byte     // the m field; nil without one

	unsigned Unsigned
	sig      [64]byte // r ‖ s
	recID    byte
}

// Encode is the invoice as a string: the one Decode read, in lower case, or the one Sign wrote.
func (inv *Invoice) Encode() string {
	return encodeBech32(inv.unsigned.hrp(), inv.data())
}

// Fields is a copy of the invoice's tagged fields, in the order written: known ones, skipped ones
// (a p, s, h or n of another length, an f of an unknown version) and unknown types alike.
func (inv *Invoice) Fields() []Field {
	out := make([]Field, len(inv.unsigned.Fields))
	for i, f := range inv.unsigned.Fields {
		out[i] = Field{Type: f.Type, Data: append([]byte(nil), f.Data...)}
	}
	return out
}

// Signature is the compact signature as written: r ‖ s (64 bytes) and the recovery id (0-3).
func (inv *Invoice) Signature() ([64]byte, byte) { return inv.sig, inv.recID }

// ExpiresAt is when the invoice expires: Timestamp plus Expiry seconds, or 2^62 seconds after
// 1970 if that is later (time.Time holds no more). A payer SHOULD NOT pay, and a payee SHOULD NOT
// accept, at or after it.
func (inv *Invoice) ExpiresAt() time.Time {
	const farFuture = 1 << 62
	if inv.Expiry >= farFuture-inv.Timestamp {
		return time.Unix(farFuture, 0)
	}
	return time.Unix(int64(inv.Timestamp+inv.Expiry), 0)
}

// Expired reports whether now is at or after ExpiresAt.
func (inv *Invoice) Expired(now time.Time) bool { return !now.Before(inv.ExpiresAt()) }

// hrp is the human-readable part: "ln", the currency, the amount as written.
func (u *Unsigned) hrp() string { return "ln" + string(u.Currency) + u.Amount.String() }

// body is the data part before the signature: the timestamp and the fields, as 5-bit values.
func (u *Unsigned) body() []byte {
	n := timestampLen
	for _, f := range u.Fields {
		n += 3 + len(f.Data)
	}
	out := make([]byte, 0, n+signatureLen)
	for i := timestampLen - 1; i >= 0; i-- {
		out = append(out, byte(u.Timestamp>>(5*i))&31)
	}
	for _, f := range u.Fields {
		out = append(out, f.Type, byte(len(f.Data)>>5), byte(len(f.Data)&31))
		out = append(out, f.Data...)
	}
	return out
}

// sigHash is what the signature signs: sha256 of the hrp's bytes and the body packed into bytes
// ("Data Part").
func sigHash(hrp string, body []byte) [32]byte {
	return sha256.Sum256(append([]byte(hrp), packGroups(body)...))
}

// data is the whole data part: the body and the signature, as 5-bit values.
func (inv *Invoice) data() []byte {
	var sig [65]byte
	copy(sig[:], inv.sig[:])
	sig[64] = inv.recID
	return append(inv.unsigned.body(), toGroups(sig[:])...)
}

// Decode reads an invoice (all lower case or all upper case; no "lightning:" prefix), checks its
// signature, and returns what it says. Every error wraps one sentinel of errors.go, named for the
// first rule s breaks in the order that file gives. A field of a known type and the wrong length
// (p, s, h, n), an f of an unknown version and an unknown type are kept and skipped.
func Decode(s string) (*Invoice, error) {
	if len(s) > MaxLength {
		return nil, fmt.Errorf("%w: %d characters, at most %d", ErrTooLong, len(s), MaxLength)
	}
	hrp, data, err := decodeBech32(s)
	if err != nil {
		return nil, err
	}
	cur, amt, err := parseHRP(hrp)
	if err != nil {
		return nil, err
	}
	if len(data) < timestampLen+signatureLen {
		return nil, fmt.Errorf("%w: %d values, fewer than the %d of a timestamp and a signature", ErrTooShort, len(data), timestampLen+signatureLen)
	}
	body, sigGroups := data[:len(data)-signatureLen], data[len(data)-signatureLen:]
	inv := &Invoice{
		Currency:                cur,
		Amount:                  amt,
		Expiry:                  DefaultExpiry,
		MinFinalCLTVExpiryDelta: DefaultMinFinalCLTVExpiryDelta,
	}
	inv.Msat, _ = amt.Msat()
	for _, v := range body[:timestampLen] {
		inv.Timestamp = inv.Timestamp<<5 | uint64(v)
	}
	inv.unsigned = Unsigned{Currency: cur, Amount: amt, Timestamp: inv.Timestamp}
	for rest := body[timestampLen:]; len(rest) > 0; {
		if len(rest) < 3 {
			return nil, fmt.Errorf("%w: %d values left where a field's type and length take 3", ErrField, len(rest))
		}
		n := int(rest[1])<<5 | int(rest[2])
		if 3+n > len(rest) {
			return nil, fmt.Errorf("%w: field %c has data_length %d, %d values are left", ErrField, charset[rest[0]], n, len(rest)-3)
		}
		inv.unsigned.Fields = append(inv.unsigned.Fields, Field{Type: rest[0], Data: rest[3 : 3+n : 3+n]})
		rest = rest[3+n:]
	}
	seen, err := inv.readFields()
	if err != nil {
		return nil, err
	}
	sig, err := fromGroups(sigGroups)
	if err != nil || len(sig) != 65 {
		return nil, fmt.Errorf("%w: not 65 bytes", ErrSignature)
	}
	copy(inv.sig[:], sig)
	inv.recID = sig[64]
	if err := inv.checkSignature(sigHash(hrp, body)); err != nil {
		return nil, err
	}
	if err := inv.checkWhole(seen); err != nil {
		return nil, err
	}
	return inv, nil
}

// readFields reads every known field of a length the spec reads, into inv, and counts them by
// type (skipped fields are not counted). The first of each type is the one used. Errors are the
// field's contents (ErrPadding, ErrNonMinimal, ErrDescription, ErrFallback, ErrRoute, ErrPayee).
func (inv *Invoice) readFields() (map[byte]int, error) {
	seen := map[byte]int{}
	for _, f := range inv.unsigned.Fields {
		first := seen[f.Type] == 0
		switch f.Type {
		case TypePaymentHash, TypePaymentSecret, TypeDescriptionHash:
			if len(f.Data) != hashLen {
				continue
			}
			b, err := fromGroups(f.Data)
			if err != nil {
				return nil, fmt.Errorf("field %c: %w", charset[f.Type], err)
			}
			if first {
				switch f.Type {
				case TypePaymentHash:
					inv.PaymentHash = [32]byte(b)
				case TypePaymentSecret:
					inv.PaymentSecret = [32]byte(b)
				default:
					h := [32]byte(b)
					inv.DescriptionHash = &h
				}
			}
		case TypePayee:
			if len(f.Data) != payeeLen {
				continue
			}
			b, err := fromGroups(f.Data)
			if err != nil {
				return nil, fmt.Errorf("field n: %w", err)
			}
			pub, err := btcec.ParsePubKey(b)
			if err != nil {
				return nil, fmt.Errorf("%w: %x is not a compressed point", ErrPayee, b)
			}
			if first {
				inv.Payee, inv.PayeeGiven = pub, true
			}
		case TypeDescription:
			b, err := fromGroups(f.Data)
			if err != nil {
				return nil, fmt.Errorf("field d: %w", err)
			}
			if !utf8.Valid(b) {
				return nil, fmt.Errorf("%w: d is not UTF-8", ErrDescription)
			}
			if first {
				inv.Description = string(b)
			}
		case TypeMetadata:
			b, err := fromGroups(f.Data)
			if err != nil {
				return nil, fmt.Errorf("field m: %w", err)
			}
			if first {
				inv.Metadata = b
			}
		case TypeExpiry, TypeMinFinalCLTVExpiryDelta:
			v, err := groupsUint(f.Data)
			if err != nil {
				return nil, fmt.Errorf("field %c: %w", charset[f.Type], err)
			}
			if first && f.Type == TypeExpiry {
				inv.Expiry = v
			} else if first {
				inv.MinFinalCLTVExpiryDelta = v
			}
		case TypeFeatures:
			fs, err := parseFeatures(f.Data)
			if err != nil {
				return nil, err
			}
			if first {
				inv.Features = fs
			}
		case TypeFallback:
			fb, ok, err := parseFallback(f.Data)
			if err != nil {
				return nil, err
			}
			if ok {
				inv.Fallbacks = append(inv.Fallbacks, fb)
			}
			continue // any number of f fields
		case TypeRoute:
			hops, err := parseRoute(f.Data)
			if err != nil {
				return nil, err
			}
			inv.Routes = append(inv.Routes, hops)
			continue // any number of r fields
		default:
			continue // unknown: skipped
		}
		seen[f.Type]++
	}
	return seen, nil
}

// checkSignature checks inv.sig over hash: with an n field, a low-S signature that verifies under
// its key; without, a key recovered from the signature and its recovery id (high-S accepted).
// Errors wrap ErrSignature or ErrHighS.
func (inv *Invoice) checkSignature(hash [32]byte) error {
	if inv.recID > 3 {
		return fmt.Errorf("%w: recovery id %d, want 0 to 3", ErrSignature, inv.recID)
	}
	if inv.PayeeGiven {
		var r, s btcec.ModNScalar
		if r.SetByteSlice(inv.sig[:32]) || r.IsZero() || s.SetByteSlice(inv.sig[32:]) || s.IsZero() {
			return fmt.Errorf("%w: r or s is 0 or not below the curve order", ErrSignature)
		}
		if s.IsOverHalfOrder() {
			return fmt.Errorf("%w", ErrHighS)
		}
		if !ecdsa.NewSignature(&r, &s).Verify(hash[:], inv.Payee) {
			return fmt.Errorf("%w: does not verify under the n field's key", ErrSignature)
		}
		return nil
	}
	var compact [65]byte
	compact[0] = 27 + 4 + inv.recID // btcec's header: 27, +4 for a compressed key, + recovery id
	copy(compact[1:], inv.sig[:])
	pub, _, err := ecdsa.RecoverCompact(compact[:], hash[:])
	if err != nil {
		return fmt.Errorf("%w: no key recovers: %v", ErrSignature, err)
	}
	inv.Payee = pub
	return nil
}

// checkWhole applies the rules about the invoice as a whole, given how many fields of each type
// were read: one of each single field, exactly one p and one s, exactly one of d and h, and the
// features. Errors wrap ErrDuplicate, ErrMissingPaymentHash, ErrMissingSecret, ErrDescription,
// ErrUnknownFeature or ErrFeatureDependency.
func (inv *Invoice) checkWhole(seen map[byte]int) error {
	for _, t := range []byte{TypePaymentHash, TypePaymentSecret, TypeDescription, TypeDescriptionHash,
		TypePayee, TypeExpiry, TypeMinFinalCLTVExpiryDelta, TypeFeatures, TypeMetadata} {
		if seen[t] > 1 {
			return fmt.Errorf("%w: %d %c fields", ErrDuplicate, seen[t], charset[t])
		}
	}
	switch {
	case seen[TypePaymentHash] == 0:
		return fmt.Errorf("%w", ErrMissingPaymentHash)
	case seen[TypePaymentSecret] == 0:
		return fmt.Errorf("%w", ErrMissingSecret)
	case seen[TypeDescription]+seen[TypeDescriptionHash] != 1:
		return fmt.Errorf("%w: neither d nor h, or both", ErrDescription)
	}
	return inv.Features.check()
}

// Sign writes u as an invoice signed with key (RFC 6979 nonces, low-S: btcec's SignCompact), then
// decodes what it wrote, so the invoice it returns is one Decode takes. Errors wrap
// ErrUnencodable (u has no encoding, or key is nil) or the sentinel Decode refuses it with.
func Sign(u Unsigned, key *btcec.PrivateKey) (*Invoice, error) {
	if key == nil {
		return nil, fmt.Errorf("%w: no key", ErrUnencodable)
	}
	if !u.Currency.known() {
		return nil, fmt.Errorf("%w: currency %q", ErrUnencodable, u.Currency)
	}
	if _, ok := u.Amount.Msat(); !ok || (u.Amount.Value == 0 && u.Amount.Multiplier != 0) {
		return nil, fmt.Errorf("%w: amount %d%c", ErrUnencodable, u.Amount.Value, u.Amount.Multiplier)
	}
	if u.Timestamp > maxTimestamp {
		return nil, fmt.Errorf("%w: timestamp %d does not fit 35 bits", ErrUnencodable, u.Timestamp)
	}
	for i, f := range u.Fields {
		if f.Type > 31 || len(f.Data) > MaxFieldLen {
			return nil, fmt.Errorf("%w: field %d has type %d and %d values (type below 32, at most %d values)", ErrUnencodable, i, f.Type, len(f.Data), MaxFieldLen)
		}
		for _, v := range f.Data {
			if v > 31 {
				return nil, fmt.Errorf("%w: field %d has the value %d, not 5 bits", ErrUnencodable, i, v)
			}
		}
	}
	hrp, body := u.hrp(), u.body()
	hash := sigHash(hrp, body)
	compact := ecdsa.SignCompact(key, hash[:], true)
	var sig [65]byte
	copy(sig[:], compact[1:])
	sig[64] = compact[0] - 27 - 4
	return Decode(encodeBech32(hrp, append(body, toGroups(sig[:])...)))
}
