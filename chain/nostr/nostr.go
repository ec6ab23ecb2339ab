// Package nostr checks a Nostr identity: an x-only secp256k1 public key and a BIP-340 Schnorr
// signature over a challenge (breakroom-protocol-v0.md, "Identity": digest = sha256(utf8(nonce)),
// author_pubkey 64 hex, sig 128 hex). The curve and the signature scheme are
// github.com/btcsuite/btcd/btcec/v2/schnorr's; this package only reads the wire's hex strictly and
// adds the two range checks that library leaves out (see ParseSig). It names no protocol: Break
// Room's doors call it through transport/breakroom/auth.
//
// # Errors and the protocol's codes
//
// Every error of ParsePubKey and ParseSig is about the field alone (its length, its characters,
// or a value no key or signature can have) and wraps one of the sentinels below, so a caller tells
// them apart with errors.Is. A door answers any of them with bad_request (the field is malformed;
// the detail names which rule it broke) and a well-formed signature that Verify refuses with
// auth_failed. Neither changes anything.
package nostr

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
)

// KeyHexLen and SigHexLen are the wire lengths, in characters of lower-case hex: a 32-byte x-only
// key and a 64-byte signature (r ‖ s).
const (
	KeyHexLen = 2 * schnorr.PubKeyBytesLen
	SigHexLen = 2 * schnorr.SignatureSize
)

// The ways a key or signature field is malformed. Each error ParsePubKey and ParseSig return
// wraps exactly one of them.
var (
	// ErrLength: the field is not exactly KeyHexLen (a key) or SigHexLen (a signature) bytes long.
	ErrLength = errors.New("nostr: wrong length")
	// ErrUpperHex: the field has an upper-case hex digit (A-F); the wire is lower-case hex only.
	ErrUpperHex = errors.New("nostr: upper-case hex")
	// ErrNotHex: the field has a character that is no hex digit (checked after the length).
	ErrNotHex = errors.New("nostr: not hex")
	// ErrKeyRange: the key's x is not below the field size p, so it is no coordinate.
	ErrKeyRange = errors.New("nostr: key x coordinate not below the field size")
	// ErrNotOnCurve: no point of secp256k1 has the key's x (BIP-340 lift_x fails).
	ErrNotOnCurve = errors.New("nostr: key not on the curve")
	// ErrSigR: the signature's r (its first 32 bytes) is not below the field size p.
	ErrSigR = errors.New("nostr: signature r not below the field size")
	// ErrSigS: the signature's s (its last 32 bytes) is not below the curve order n.
	ErrSigS = errors.New("nostr: signature s not below the curve order")
)

// Key is an x-only public key that is a point of the curve: what ParsePubKey returns. The zero
// Key is no key; Verify refuses it.
type Key struct {
	pub *btcec.PublicKey
	hex string
}

// String is the key as the wire writes it: 64 lower-case hex characters ("" for the zero Key).
func (k Key) String() string { return k.hex }

// Sig is a BIP-340 signature with r < p and s < n: what ParseSig returns. The zero Sig is no
// signature; Verify refuses it.
type Sig struct{ sig *schnorr.Signature }

// ParsePubKey reads an author_pubkey: exactly 64 lower-case hex characters, an x below the field
// size, on the curve (BIP-340 lift_x; the even-y point). Errors wrap ErrLength, ErrUpperHex,
// ErrNotHex, ErrKeyRange or ErrNotOnCurve.
func ParsePubKey(s string) (Key, error) {
	b, err := lowerHex(s, KeyHexLen, "public key")
	if err != nil {
		return Key{}, err
	}
	var x btcec.FieldVal
	if x.SetByteSlice(b) {
		return Key{}, fmt.Errorf("%w: %s", ErrKeyRange, s)
	}
	pub, err := schnorr.ParsePubKey(b)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %s", ErrNotOnCurve, s)
	}
	return Key{pub: pub, hex: s}, nil
}

// ParseSig reads a sig: exactly 128 lower-case hex characters, r below the field size p and s
// below the curve order n (BIP-340 verification steps 3 and 4). btcec's ParseSignature checks r
// but reduces s modulo n, which would take s+n for s; ParseSig refuses it. Errors wrap ErrLength,
// ErrUpperHex, ErrNotHex, ErrSigR or ErrSigS.
func ParseSig(s string) (Sig, error) {
	b, err := lowerHex(s, SigHexLen, "signature")
	if err != nil {
		return Sig{}, err
	}
	sig, err := schnorr.ParseSignature(b)
	if err != nil {
		return Sig{}, fmt.Errorf("%w: %s", ErrSigR, s[:64])
	}
	var n btcec.ModNScalar
	if n.SetByteSlice(b[32:]) {
		return Sig{}, fmt.Errorf("%w: %s", ErrSigS, s[64:])
	}
	return Sig{sig: sig}, nil
}

// Verify reports whether sig is key's BIP-340 signature of the 32-byte message msg (for a join,
// Challenge(nonce)). It is false for the zero Key or Sig. A false answer is the protocol's
// auth_failed.
func Verify(key Key, sig Sig, msg [32]byte) bool {
	if key.pub == nil || sig.sig == nil {
		return false
	}
	return sig.sig.Verify(msg[:], key.pub)
}

// Challenge is the message a join signs for nonce: sha256(utf8(nonce)) ("Identity"). nonce is
// used as its bytes, which are its UTF-8 in Go.
func Challenge(nonce string) [32]byte { return sha256.Sum256([]byte(nonce)) }

// lowerHex decodes s, which must be exactly n bytes of lower-case hex; what names the field in
// errors. The first character that is not lower-case hex decides the error.
func lowerHex(s string, n int, what string) ([]byte, error) {
	if len(s) != n {
		return nil, fmt.Errorf("%w: the %s has %d characters, want %d", ErrLength, what, len(s), n)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			return nil, fmt.Errorf("%w: the %s has %q at character %d (the wire is lower-case hex)", ErrUpperHex, what, c, i)
		default:
			return nil, fmt.Errorf("%w: the %s has byte %#x at character %d", ErrNotHex, what, c, i)
		}
	}
	return hex.DecodeString(s)
}
