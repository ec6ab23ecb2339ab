package breakroom

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
)

// SeedHash is match_start.seed_hash (breakroom-games §1.6): "sha256:" + hex(SHA-256(seed)),
// hashed over the raw 32 bytes.
func SeedHash(seed [32]byte) string {
	sum := sha256.Sum256(seed[:])
	return "sha256:" + hex.EncodeToString(sum[:])
}

// SeedHex is the revealed seed of match_end.seed and match_abandoned.seed (§1.6): hex(seed), 64
// lowercase hex digits.
func SeedHex(seed [32]byte) string { return hex.EncodeToString(seed[:]) }

// ParseSeed reads SeedHex's form back: exactly 64 lowercase hex digits, else an error.
func ParseSeed(s string) ([32]byte, error) {
	var seed [32]byte
	if len(s) != 64 {
		return seed, fmt.Errorf("seed: %d characters, want 64 lowercase hex digits", len(s))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return seed, fmt.Errorf("seed: character %d is not a lowercase hex digit", i)
		}
	}
	if _, err := hex.Decode(seed[:], []byte(s)); err != nil {
		return seed, fmt.Errorf("seed: %v", err)
	}
	return seed, nil
}

// Rand is rand(K, label, n) of §1.6: a uniform integer in [0, n) drawn with key K and a UTF-8
// label by HMAC-SHA256 in counter mode with rejection sampling, so anyone holding the revealed
// seed draws the same number in any language (J7). Block c is
// HMAC-SHA256(K, utf8(label) ‖ 0x00 ‖ uint32_be(c)); its first 8 bytes, big-endian, are kept when
// below 2^64 − (2^64 mod n). n must be at least 1 (Rand(…, 0) is 0).
func Rand(key []byte, label string, n uint64) uint64 {
	return newDrawer(key).rand(label, n)
}

// drawer draws Rand's numbers with one HMAC keyed once (reset between blocks) and one message
// buffer, so a shuffle of many draws does not key a new HMAC for each.
type drawer struct {
	mac hash.Hash
	msg []byte
	sum []byte
}

func newDrawer(key []byte) *drawer { return &drawer{mac: hmac.New(sha256.New, key)} }

func (d *drawer) rand(label string, n uint64) uint64 {
	if n <= 1 {
		return 0
	}
	d.msg = append(d.msg[:0], label...)
	return d.draw(n)
}

// draw is rand with the label's bytes written in d.msg already.
func (d *drawer) draw(n uint64) uint64 {
	if n <= 1 {
		return 0
	}
	rem := -n % n // 2^64 mod n, in uint64 arithmetic
	limit := -rem // 2^64 − rem; 0 stands for 2^64 when rem is 0 (every draw is kept)
	at := len(d.msg) + 1
	d.msg = append(d.msg, 0, 0, 0, 0, 0)
	for c := uint32(0); ; c++ {
		binary.BigEndian.PutUint32(d.msg[at:], c)
		d.mac.Reset()
		d.mac.Write(d.msg)
		d.sum = d.mac.Sum(d.sum[:0])
		x := binary.BigEndian.Uint64(d.sum[:8])
		if rem == 0 || x < limit {
			return x % n
		}
	}
}

// Shuffle is shuffle(K, label, list) of §1.6, in place: Fisher–Yates from the last index down
// to 1, j = Rand(K, label + "/" + i, i + 1), i in decimal.
func Shuffle[T any](key []byte, label string, list []T) {
	d := newDrawer(key)
	for i := len(list) - 1; i >= 1; i-- {
		d.msg = strconv.AppendInt(append(append(d.msg[:0], label...), '/'), int64(i), 10)
		j := d.draw(uint64(i + 1))
		list[i], list[j] = list[j], list[i]
	}
}
