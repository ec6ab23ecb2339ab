package nostr

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
)

// SecretKeyHexLen is a secret key's wire length: 32 bytes as 64 lower-case hex characters.
const SecretKeyHexLen = 64

// ErrSecretKey: a secret key that is not 64 lower-case hex characters of a scalar in [1, n−1].
// Its errors never quote the key.
var ErrSecretKey = errors.New("nostr: bad secret key")

// SecretKey is a Nostr secret key (a secp256k1 scalar), for a server that signs for an agent
// that cannot hold a key itself (Break Room's MCP door, breakroom-protocol-v0.md "MCP": the
// key is created for the agent, handed back once, and passed back on later joins). The zero
// SecretKey is no key.
type SecretKey struct{ sk *btcec.PrivateKey }

// NewSecretKey draws a fresh key from crypto/rand.
func NewSecretKey() (SecretKey, error) {
	sk, err := btcec.NewPrivateKey()
	if err != nil {
		return SecretKey{}, fmt.Errorf("nostr: new secret key: %w", err)
	}
	return SecretKey{sk: sk}, nil
}

// ParseSecretKey reads a key as Hex writes it: exactly 64 lower-case hex characters, a scalar
// from 1 to n−1. Errors wrap ErrSecretKey and say which rule failed, never the key.
func ParseSecretKey(s string) (SecretKey, error) {
	if len(s) != SecretKeyHexLen {
		return SecretKey{}, fmt.Errorf("%w: %d characters, want %d lower-case hex", ErrSecretKey, len(s), SecretKeyHexLen)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return SecretKey{}, fmt.Errorf("%w: character %d is not lower-case hex", ErrSecretKey, i)
		}
	}
	b, _ := hex.DecodeString(s)
	var n btcec.ModNScalar
	if n.SetByteSlice(b) || n.IsZero() {
		return SecretKey{}, fmt.Errorf("%w: not a scalar from 1 to the curve order", ErrSecretKey)
	}
	return SecretKey{sk: btcec.PrivKeyFromScalar(&n)}, nil
}

// Hex is the key as 64 lower-case hex characters ("" for the zero key).
func (k SecretKey) Hex() string {
	if k.sk == nil {
		return ""
	}
	return hex.EncodeToString(k.sk.Serialize())
}

// Public is the key's x-only public key, as ParsePubKey reads it.
func (k SecretKey) Public() Key {
	if k.sk == nil {
		return Key{}
	}
	x := schnorr.SerializePubKey(k.sk.PubKey())
	pub, _ := schnorr.ParsePubKey(x)
	return Key{pub: pub, hex: hex.EncodeToString(x)}
}

// Sign is the BIP-340 signature of msg (for a join, Challenge(nonce)) as 128 lower-case hex
// characters, with fresh auxiliary randomness.
func (k SecretKey) Sign(msg [32]byte) (string, error) {
	if k.sk == nil {
		return "", fmt.Errorf("%w: the zero key", ErrSecretKey)
	}
	var aux [32]byte
	if _, err := rand.Read(aux[:]); err != nil {
		return "", fmt.Errorf("nostr: sign: %w", err)
	}
	sig, err := schnorr.Sign(k.sk, msg[:], schnorr.CustomNonce(aux))
	if err != nil {
		return "", fmt.Errorf("nostr: sign: %w", err)
	}
	return hex.EncodeToString(sig.Serialize()), nil
}
