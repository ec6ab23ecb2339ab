package x402

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"

	"golang.org/x/crypto/sha3"
)

// Address is a 20-byte EVM account or contract address.
type Address [20]byte

// ParseAddress reads "0x" followed by 40 hex digits. All-lower-case and all-upper-case digits
// are taken as they are; mixed case must be the EIP-55 checksum of the address, as wallets
// write it (a mistyped checksummed address is refused, not silently taken).
func ParseAddress(s string) (Address, bool) {
	var a Address
	if len(s) != 42 || s[:2] != "0x" {
		return a, false
	}
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		return Address{}, false
	}
	digits := s[2:]
	if digits == strings.ToLower(digits) || digits == strings.ToUpper(digits) {
		return a, true
	}
	if a.String() != s {
		return Address{}, false
	}
	return a, true
}

// String is the EIP-55 checksummed form, "0x" and 40 mixed-case hex digits.
func (a Address) String() string {
	lower := hex.EncodeToString(a[:])
	h := keccak([]byte(lower))
	out := make([]byte, 2, 42)
	copy(out, "0x")
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		nibble := h[i/2] >> 4
		if i%2 == 1 {
			nibble = h[i/2] & 0x0f
		}
		if c >= 'a' && nibble >= 8 {
			c -= 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

// keccak is Keccak-256 with the original (pre-SHA-3) padding, as the EVM and EIP-712 use it.
func keccak(parts ...[]byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// maxUint256 is 2^256 − 1.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// parseUint256 reads a uint256 written as x402 writes one: a canonical decimal (digits only, no
// sign, no leading zero but in "0") not above 2^256 − 1.
func parseUint256(s string) (*big.Int, bool) {
	if s == "" || len(s) > 78 || (s[0] == '0' && len(s) > 1) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return nil, false
		}
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Cmp(maxUint256) > 0 {
		return nil, false
	}
	return n, true
}

// parseHex reads "0x" followed by an even number of hex digits (either case).
func parseHex(s string) ([]byte, bool) {
	if len(s) < 2 || s[:2] != "0x" || len(s)%2 != 0 {
		return nil, false
	}
	b, err := hex.DecodeString(s[2:])
	if err != nil {
		return nil, false
	}
	return b, true
}

// word is the 32-byte big-endian ABI word of n, 0 ≤ n < 2^256.
func word(n *big.Int) []byte {
	var w [32]byte
	n.FillBytes(w[:])
	return w[:]
}

// wordUint64 is the ABI word of n.
func wordUint64(n uint64) []byte { return word(new(big.Int).SetUint64(n)) }

// wordAddress is the ABI word of a: twelve zero bytes, then the address.
func wordAddress(a Address) []byte {
	var w [32]byte
	copy(w[12:], a[:])
	return w[:]
}

// caip2 is the CAIP-2 id of an EVM chain, "eip155:<chainId>".
func caip2(chainID uint64) string { return "eip155:" + strconv.FormatUint(chainID, 10) }
