package actors

import (
	"context"
	"crypto/ed25519"
	"errors"

	"arena/games"
)

// KeyProvider gives each table its seats' keyring (games.Keyring): the keys the arena holds and
// signs with (LentKey seats) and the public keys it checks for the others. A protocol supplies it
// for its tables (Product.Keys; DOTDOTDOT's lent house Badges: actors/dotdotdot.Keys); with none,
// no seat has a key.
type KeyProvider interface {
	// Open is called by OpenTable before the table is recorded. It may set the Agent of seats
	// that have none (a lent id) and returns the table's keyring and the public keys (hex, by
	// seat) recorded with the table for Keyring. An error wrapping ErrBadSpec refuses the spec.
	Open(ctx context.Context, table string, seats []SeatSpec) (games.Keyring, map[int]string, error)
	// Keyring is the keyring of a recorded table from its seats and the keys Open returned. A
	// table calls it each time it starts, on its own goroutine: it must do no I/O.
	Keyring(table string, seats []SeatSpec, resolved map[int]string) (games.Keyring, error)
}

// LentKey says whether the arena holds the seat's key and signs for it: house seats and those
// the protocol lends a key (SeatSpec.Lent: DOTDOTDOT walk-ins).
func (s SeatSpec) LentKey() bool {
	return s.Channel == ChannelHouse || s.Lent
}

// noKeys is the keyring of every table when Options.Keys is nil.
type noKeys struct{}

func (noKeys) PublicKey(int) (ed25519.PublicKey, bool) { return nil, false }

func (noKeys) Sign(int, []byte) ([]byte, error) {
	return nil, errors.New("actors: no key provider: the arena holds no seat's key")
}
