package bolt11

import (
	"encoding/binary"
	"fmt"

	"github.com/btcsuite/btcd/btcec/v2"
)

// Field is one tagged field as written ("Tagged Fields"): a 5-bit type and its data as 5-bit
// values. Decode keeps every field, known or not, in order, so an invoice re-encodes byte for
// byte; Sign writes the fields it is given in the order given.
type Field struct {
	// Type is the field's 5-bit type: one of the Type constants, or any other value below 32
	// (an unknown field, which a reader skips).
	Type byte
	// Data is the field's data, one 5-bit value (below 32) per element; at most MaxFieldLen.
	Data []byte
}

// The tagged field types BOLT 11 defines, by their bech32 letter.
const (
	TypePaymentHash             byte = 1  // p: sha256 payment_hash, 52 values
	TypeRoute                   byte = 3  // r: private route hints
	TypeFeatures                byte = 5  // 9: feature bits (BOLT 9)
	TypeExpiry                  byte = 6  // x: expiry in seconds
	TypeFallback                byte = 9  // f: on-chain fallback address
	TypeDescription             byte = 13 // d: UTF-8 description
	TypePaymentSecret           byte = 16 // s: payment_secret, 52 values
	TypePayee                   byte = 19 // n: payee node key, 53 values
	TypeDescriptionHash         byte = 23 // h: sha256 of the description, 52 values
	TypeMinFinalCLTVExpiryDelta byte = 24 // c: min_final_cltv_expiry_delta in blocks
	TypeMetadata                byte = 27 // m: payment_metadata
)

// MaxFieldLen is the most 5-bit values a field's data holds: data_length is 10 bits (1023 values,
// 639 bytes).
const MaxFieldLen = 1023

// hashLen and payeeLen are the data_length of the fixed-size fields: 256 bits in 52 values, a
// 33-byte key in 53. A p, s, h or n field of any other length is skipped (see protocol notes).
const (
	hashLen  = 52
	payeeLen = 53
)

// Fallback is an on-chain fallback address (f): a witness Version 0-16 and its witness program,
// or Version 17 and a 20-byte public key hash (P2PKH), or 18 and a 20-byte script hash (P2SH).
type Fallback struct {
	Version byte
	Program []byte
}

// Hop is one entry of a route hint (r): the channel from PubKey towards the payee and what it
// charges, as BOLT 7's channel_update gives them.
type Hop struct {
	PubKey                    [33]byte // the node at the start of the channel, compressed
	ShortChannelID            uint64
	FeeBaseMsat               uint32 // millisatoshis
	FeeProportionalMillionths uint32 // millionths of the amount forwarded
	CLTVExpiryDelta           uint16 // blocks
}

// hopLen is the bytes of one Hop: 264 + 64 + 32 + 32 + 16 bits.
const hopLen = 33 + 8 + 4 + 4 + 2

// toGroups is b as 5-bit values, the last padded with 0 bits (BOLT 11: "MUST pad field data to a
// multiple of 5 bits, using 0s").
func toGroups(b []byte) []byte {
	out := make([]byte, 0, (len(b)*8+4)/5)
	var acc uint32
	n := 0
	for _, x := range b {
		acc = acc<<8 | uint32(x)
		n += 8
		for n >= 5 {
			n -= 5
			out = append(out, byte(acc>>n)&31)
		}
	}
	if n > 0 {
		out = append(out, byte(acc<<(5-n))&31)
	}
	return out
}

// packGroups is the 5-bit values g as bytes, the last padded with 0 bits: what the signature
// hashes ("Data Part": "with 0 bits appended to pad the data to the next byte boundary").
func packGroups(g []byte) []byte {
	out := make([]byte, 0, (len(g)*5+7)/8)
	var acc uint32
	n := 0
	for _, v := range g {
		acc = acc<<5 | uint32(v)
		n += 5
		if n >= 8 {
			n -= 8
			out = append(out, byte(acc>>n))
		}
	}
	if n > 0 {
		out = append(out, byte(acc<<(8-n)))
	}
	return out
}

// fromGroups reads the 5-bit values g as bytes, the inverse of toGroups: the bits left over after
// the last whole byte must be fewer than 5 and all 0. Errors wrap ErrPadding.
func fromGroups(g []byte) ([]byte, error) {
	out := make([]byte, 0, len(g)*5/8)
	var acc uint32
	n := 0
	for _, v := range g {
		acc = acc<<5 | uint32(v)
		n += 5
		if n >= 8 {
			n -= 8
			out = append(out, byte(acc>>n))
		}
	}
	if n >= 5 {
		return nil, fmt.Errorf("%w: %d bits of padding, more than 4", ErrPadding, n)
	}
	if acc&(1<<n-1) != 0 {
		return nil, fmt.Errorf("%w: padding bits are not 0", ErrPadding)
	}
	return out, nil
}

// uintGroups is v as big-endian 5-bit values with no leading 0 (none for 0): the minimal
// data_length an x or c field MUST use.
func uintGroups(v uint64) []byte {
	var out []byte
	for ; v > 0; v >>= 5 {
		out = append(out, byte(v&31))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// groupsUint reads an x or c field's big-endian 5-bit values; an empty field is 0. Errors wrap
// ErrNonMinimal: a leading 0 value ("SHOULD treat the invoice as invalid"), or more than 64 bits.
func groupsUint(g []byte) (uint64, error) {
	if len(g) > 0 && g[0] == 0 {
		return 0, fmt.Errorf("%w: starts with a 0 value", ErrNonMinimal)
	}
	var v uint64
	for _, x := range g {
		if v>>59 != 0 {
			return 0, fmt.Errorf("%w: more than 64 bits", ErrNonMinimal)
		}
		v = v<<5 | uint64(x)
	}
	return v, nil
}

// PaymentHashField is a p field: the sha256 of the preimage that pays the invoice.
func PaymentHashField(hash [32]byte) Field {
	return Field{Type: TypePaymentHash, Data: toGroups(hash[:])}
}

// PaymentSecretField is an s field: the payment_secret the payer puts in the onion.
func PaymentSecretField(secret [32]byte) Field {
	return Field{Type: TypePaymentSecret, Data: toGroups(secret[:])}
}

// DescriptionField is a d field: the description's UTF-8 bytes. Sign refuses one that is not
// UTF-8 or longer than 639 bytes.
func DescriptionField(d string) Field {
	return Field{Type: TypeDescription, Data: toGroups([]byte(d))}
}

// DescriptionHashField is an h field: the sha256 of a description given some other way.
func DescriptionHashField(hash [32]byte) Field {
	return Field{Type: TypeDescriptionHash, Data: toGroups(hash[:])}
}

// PayeeField is an n field: the payee's node key, compressed. With it a reader verifies the
// signature against the key instead of recovering one, and refuses a high-S signature.
func PayeeField(pub *btcec.PublicKey) Field {
	return Field{Type: TypePayee, Data: toGroups(pub.SerializeCompressed())}
}

// ExpiryField is an x field: the seconds after the timestamp until the invoice expires, written
// minimally. Without one the expiry is DefaultExpiry.
func ExpiryField(seconds uint64) Field {
	return Field{Type: TypeExpiry, Data: uintGroups(seconds)}
}

// MinFinalCLTVExpiryDeltaField is a c field: the min_final_cltv_expiry_delta in blocks, written
// minimally. Without one it is DefaultMinFinalCLTVExpiryDelta.
func MinFinalCLTVExpiryDeltaField(blocks uint64) Field {
	return Field{Type: TypeMinFinalCLTVExpiryDelta, Data: uintGroups(blocks)}
}

// FallbackField is an f field: the version as one 5-bit value, then the program. Sign refuses a
// version above 31, and Decode a program that does not fit a known version.
func FallbackField(f Fallback) Field {
	return Field{Type: TypeFallback, Data: append([]byte{f.Version}, toGroups(f.Program)...)}
}

// RouteField is an r field: one route hint, its hops in order from a public node to the payee.
func RouteField(hops []Hop) Field {
	b := make([]byte, 0, len(hops)*hopLen)
	for _, h := range hops {
		b = append(b, h.PubKey[:]...)
		b = binary.BigEndian.AppendUint64(b, h.ShortChannelID)
		b = binary.BigEndian.AppendUint32(b, h.FeeBaseMsat)
		b = binary.BigEndian.AppendUint32(b, h.FeeProportionalMillionths)
		b = binary.BigEndian.AppendUint16(b, h.CLTVExpiryDelta)
	}
	return Field{Type: TypeRoute, Data: toGroups(b)}
}

// MetadataField is an m field: payment_metadata the payer passes on to the payee.
func MetadataField(m []byte) Field {
	return Field{Type: TypeMetadata, Data: toGroups(m)}
}

// FeaturesField is a 9 field setting the given bits (BOLT 9 numbering, bit 0 the least
// significant), written in the fewest values. Bits given twice are set once. A writer MUST omit
// the field when no bit is set; Decode refuses an empty one.
func FeaturesField(bits ...uint16) Field {
	if len(bits) == 0 {
		return Field{Type: TypeFeatures}
	}
	top := 0
	for _, b := range bits {
		top = max(top, int(b))
	}
	n := top/5 + 1
	data := make([]byte, n)
	for _, b := range bits {
		data[n-1-int(b)/5] |= 1 << (b % 5)
	}
	return Field{Type: TypeFeatures, Data: data}
}

// parseFallback reads an f field. It is false for a version of 19-31, which a reader skips;
// errors wrap ErrFallback (no version; a program the version does not allow, BIP-141 for
// witness versions) or ErrPadding.
func parseFallback(g []byte) (Fallback, bool, error) {
	if len(g) == 0 {
		return Fallback{}, false, fmt.Errorf("%w: empty f field, no version", ErrFallback)
	}
	v := g[0]
	if v > 18 {
		return Fallback{}, false, nil
	}
	prog, err := fromGroups(g[1:])
	if err != nil {
		return Fallback{}, false, fmt.Errorf("fallback version %d: %w", v, err)
	}
	switch {
	case v == 17 || v == 18:
		if len(prog) != 20 {
			return Fallback{}, false, fmt.Errorf("%w: version %d with %d bytes, want a 20-byte hash", ErrFallback, v, len(prog))
		}
	case v == 0:
		if len(prog) != 20 && len(prog) != 32 {
			return Fallback{}, false, fmt.Errorf("%w: witness version 0 with a %d-byte program, want 20 or 32", ErrFallback, len(prog))
		}
	default:
		if len(prog) < 2 || len(prog) > 40 {
			return Fallback{}, false, fmt.Errorf("%w: witness version %d with a %d-byte program, want 2 to 40", ErrFallback, v, len(prog))
		}
	}
	return Fallback{Version: v, Program: prog}, true, nil
}

// parseRoute reads an r field: one or more whole hops, each key a point of the curve. Errors
// wrap ErrRoute or ErrPadding.
func parseRoute(g []byte) ([]Hop, error) {
	b, err := fromGroups(g)
	if err != nil {
		return nil, fmt.Errorf("route: %w", err)
	}
	if len(b) == 0 || len(b)%hopLen != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not a whole number of %d-byte hops", ErrRoute, len(b), hopLen)
	}
	hops := make([]Hop, len(b)/hopLen)
	for i := range hops {
		e := b[i*hopLen:]
		var h Hop
		copy(h.PubKey[:], e[:33])
		if _, err := btcec.ParsePubKey(h.PubKey[:]); err != nil {
			return nil, fmt.Errorf("%w: hop %d key %x is not a compressed point", ErrRoute, i, h.PubKey)
		}
		h.ShortChannelID = binary.BigEndian.Uint64(e[33:])
		h.FeeBaseMsat = binary.BigEndian.Uint32(e[41:])
		h.FeeProportionalMillionths = binary.BigEndian.Uint32(e[45:])
		h.CLTVExpiryDelta = binary.BigEndian.Uint16(e[49:])
		hops[i] = h
	}
	return hops, nil
}
