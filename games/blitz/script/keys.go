package script

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"math/big"
	"strconv"
)

// Seat keys for `arena sim` (docs/protocol-notes.md "arena sim"). Every seat of a script is a
// walk-in, whose commitments the arena signs with the key of the Badge it lends (§4.4). A script
// has no house fleet, so each seat's key and lent Badge id derive from the script's seed:
//
//	seed_n  = HMAC-SHA256(key = script seed, msg = "arena/sim/seat-key/v1" 0x00 <seat decimal>)
//	key_n   = ed25519.NewKeyFromSeed(seed_n)
//	agent_n = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:" + base58(SHA-256(public key_n)[:16])
//	arena   = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:" + base58(SHA-256("arena/sim/instance/v1" ‖ script seed)[:16])
//
// The chain is Concordium testnet (§3); base58 is Bitcoin's alphabet, which has no 0, O, I or l.
// The same seed always gives the same keys, ids and so the same commitment ids and transcript.

// simChain is the CAIP-2 chain of sim Badges: Concordium testnet (§3).
const simChain = "ccd:4221332d34e1694168c2a0c0b3fd0f27"

// SeatKey derives seat n's signing key from the script seed.
func SeatKey(seed [32]byte, n int) ed25519.PrivateKey {
	mac := hmac.New(sha256.New, seed[:])
	mac.Write([]byte("arena/sim/seat-key/v1\x00" + strconv.Itoa(n)))
	return ed25519.NewKeyFromSeed(mac.Sum(nil))
}

// SeatAgent is the lent Badge id of a seat key.
func SeatAgent(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return simChain + "/cis-2:" + base58(sum[:16])
}

// ArenaAgent is the sim's own instance id for a script seed.
func ArenaAgent(seed [32]byte) string {
	sum := sha256.Sum256(append([]byte("arena/sim/instance/v1"), seed[:]...))
	return simChain + "/cis-2:" + base58(sum[:16])
}

const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func base58(b []byte) string {
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod, base := new(big.Int), big.NewInt(58)
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, b58[mod.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// keyring is the sim's games.Keyring: it holds every seat's key, as the arena holds a walk-in's.
type keyring struct {
	priv []ed25519.PrivateKey // index n-1 for seat n
}

func newKeyring(seed [32]byte, seats int) *keyring {
	k := &keyring{priv: make([]ed25519.PrivateKey, seats)}
	for i := range k.priv {
		k.priv[i] = SeatKey(seed, i+1)
	}
	return k
}

func (k *keyring) PublicKey(seat int) (ed25519.PublicKey, bool) {
	if seat < 1 || seat > len(k.priv) {
		return nil, false
	}
	return k.priv[seat-1].Public().(ed25519.PublicKey), true
}

func (k *keyring) Sign(seat int, msg []byte) ([]byte, error) {
	if seat < 1 || seat > len(k.priv) {
		return nil, fmt.Errorf("script: no key for seat %d", seat)
	}
	return ed25519.Sign(k.priv[seat-1], msg), nil
}
