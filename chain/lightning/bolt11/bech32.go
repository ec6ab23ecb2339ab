package bolt11

import (
	"fmt"
	"strings"
)

// This file is BIP-173 bech32 as BOLT 11 uses it ("Encoding Overview"): the BIP's checksum and
// alphabet, all-lower or all-upper case, but no 90-character limit (invoices are longer). The
// checksum constant is bech32's 1; a bech32m string (BIP-350) fails the checksum.

// charset is the bech32 alphabet: the character for each 5-bit value.
const charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// checksumLen is the number of checksum characters at the end of the data part.
const checksumLen = 6

// charValue maps a lower-case bech32 character to its 5-bit value, and every other byte to -1.
var charValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(charset); i++ {
		t[charset[i]] = int8(i)
	}
	return t
}()

// polymod is the BIP-173 BCH checksum over the 5-bit values vs.
func polymod(vs []byte) uint32 {
	gen := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	chk := uint32(1)
	for _, v := range vs {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i := range gen {
			if (top>>i)&1 == 1 {
				chk ^= gen[i]
			}
		}
	}
	return chk
}

// hrpExpand is the human-readable part as the checksum reads it: the high bits of each byte, a
// zero, then the low bits (BIP-173 "Checksum").
func hrpExpand(hrp string) []byte {
	out := make([]byte, 0, 2*len(hrp)+1)
	for i := 0; i < len(hrp); i++ {
		out = append(out, hrp[i]>>5)
	}
	out = append(out, 0)
	for i := 0; i < len(hrp); i++ {
		out = append(out, hrp[i]&31)
	}
	return out
}

// checksum is the six 5-bit checksum values of hrp and data.
func checksum(hrp string, data []byte) [checksumLen]byte {
	vs := append(hrpExpand(hrp), data...)
	vs = append(vs, make([]byte, checksumLen)...)
	mod := polymod(vs) ^ 1
	var out [checksumLen]byte
	for i := range out {
		out[i] = byte(mod>>(5*(checksumLen-1-i))) & 31
	}
	return out
}

// decodeBech32 splits s at its last '1' into the human-readable part and the data part, checks
// the characters, the case and the checksum, and returns the hrp in lower case and the data's
// 5-bit values without the checksum. Errors wrap ErrBech32 (characters, case, separator, length)
// or ErrChecksum.
func decodeBech32(s string) (string, []byte, error) {
	lower, upper := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 33 || c > 126 {
			return "", nil, fmt.Errorf("%w: byte %#x at character %d is not printable US-ASCII", ErrBech32, c, i)
		}
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		}
	}
	if lower && upper {
		return "", nil, fmt.Errorf("%w: mixed upper and lower case", ErrBech32)
	}
	s = strings.ToLower(s)
	sep := strings.LastIndexByte(s, '1')
	switch {
	case sep < 0:
		return "", nil, fmt.Errorf("%w: no separator '1'", ErrBech32)
	case sep == 0:
		return "", nil, fmt.Errorf("%w: empty human-readable part", ErrBech32)
	case len(s)-sep-1 < checksumLen:
		return "", nil, fmt.Errorf("%w: %d characters after the separator, fewer than the checksum's %d", ErrBech32, len(s)-sep-1, checksumLen)
	}
	hrp := s[:sep]
	data := make([]byte, len(s)-sep-1)
	for i := range data {
		c := s[sep+1+i]
		v := charValue[c]
		if v < 0 {
			return "", nil, fmt.Errorf("%w: %q at character %d is not in the bech32 alphabet", ErrBech32, c, sep+1+i)
		}
		data[i] = byte(v)
	}
	if polymod(append(hrpExpand(hrp), data...)) != 1 {
		return "", nil, fmt.Errorf("%w", ErrChecksum)
	}
	return hrp, data[:len(data)-checksumLen], nil
}

// encodeBech32 writes hrp (lower case, printable US-ASCII), '1', the data's 5-bit values and
// their checksum. Every value of data must be below 32; the callers guarantee it.
func encodeBech32(hrp string, data []byte) string {
	var b strings.Builder
	b.Grow(len(hrp) + 1 + len(data) + checksumLen)
	b.WriteString(hrp)
	b.WriteByte('1')
	for _, v := range data {
		b.WriteByte(charset[v&31])
	}
	sum := checksum(hrp, data)
	for _, v := range sum {
		b.WriteByte(charset[v])
	}
	return b.String()
}
