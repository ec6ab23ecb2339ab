package actors

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"arena/games"
)

// testKeys is the tests' KeyProvider: a lent seat's key (SeatSpec.LentKey) has the seed
// SHA-256(table 0x00 seat), and one with no Agent is named <registry>house-<table>-<seat>, as a
// protocol names its lent seats in the instance's registry; the other seats have the recorded
// keys. Open resolves none.
type testKeys struct{ registry string }

// testRegistry is the harness instance's registry (its agent id up to the token).
const testRegistry = "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:"

func (k testKeys) Open(_ context.Context, table string, seats []SeatSpec) (games.Keyring, map[int]string, error) {
	ring, err := k.Keyring(table, seats, nil)
	for i := range seats {
		if s := &seats[i]; s.Seat.Agent == "" && s.LentKey() {
			s.Seat.Agent = k.registry + "house-" + table + "-" + strconv.Itoa(s.Seat.Seat)
		}
	}
	return ring, nil, err
}

func (testKeys) Keyring(table string, seats []SeatSpec, resolved map[int]string) (games.Keyring, error) {
	ring := testRing{priv: map[int]ed25519.PrivateKey{}, pub: map[int]ed25519.PublicKey{}}
	for _, s := range seats {
		n := s.Seat.Seat
		if s.LentKey() {
			seed := sha256.Sum256([]byte(table + "\x00" + strconv.Itoa(n)))
			ring.priv[n] = ed25519.NewKeyFromSeed(seed[:])
			ring.pub[n] = ring.priv[n].Public().(ed25519.PublicKey)
		} else if h, ok := resolved[n]; ok {
			b, err := hex.DecodeString(h)
			if err != nil || len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("test keyring of %s: seat %d: bad recorded key", table, n)
			}
			ring.pub[n] = b
		}
	}
	return ring, nil
}

// testRing is testKeys' keyring.
type testRing struct {
	priv map[int]ed25519.PrivateKey
	pub  map[int]ed25519.PublicKey
}

func (r testRing) PublicKey(seat int) (ed25519.PublicKey, bool) {
	k, ok := r.pub[seat]
	return k, ok
}

func (r testRing) Sign(seat int, msg []byte) ([]byte, error) {
	k, ok := r.priv[seat]
	if !ok {
		return nil, fmt.Errorf("test keyring: seat %d's key is not held", seat)
	}
	return ed25519.Sign(k, msg), nil
}
