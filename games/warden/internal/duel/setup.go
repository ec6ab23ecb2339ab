package duel

import (
	"crypto/sha256"
	"encoding/json"
	"time"

	"arena/games"
	"arena/games/canon"
)

// MaxStake keeps the pot (2S) within 2^53−1, so every figure survives JCS (canon).
const MaxStake = (1<<53 - 1) / 2

// Game names a Warden game for the setup checks every game shares.
type Game struct {
	ID     string // the manifest id, "warden.dilemma"
	Format string // the game's one format
	Label  string // the word its setup refusals start with, "dilemma" → "dilemma setup: …"
}

// Refuse is a bad_request refusal of a Setup: "<Label> setup: " and the formatted reason.
func (g Game) Refuse(format string, args ...any) error {
	return games.Errorf(games.CodeBadRequest, g.Label+" setup: "+format, args...)
}

// CheckSetup refuses, with Refuse, a Setup no Warden game may start (§2.1): game or format not
// g's (empty means g's); empty Round (the match id); not exactly seats 1 and 2; an empty agent or
// the same agent twice; stakes (Entry) unequal, not positive, or above MaxStake. The first fault
// in that order is the one named. A game checks its own pace and options after it.
func (g Game) CheckSetup(s games.Setup) error {
	switch {
	case s.Game != "" && s.Game != g.ID:
		return g.Refuse("game %q", s.Game)
	case s.Format != "" && s.Format != g.Format:
		return g.Refuse("format %q", s.Format)
	case s.Round == "":
		return g.Refuse("round (the match id) is empty")
	case len(s.Seats) != 2:
		return g.Refuse("%d seats, want 2", len(s.Seats))
	}
	a, b := s.Seats[0], s.Seats[1]
	switch {
	case !(a.Seat == 1 && b.Seat == 2 || a.Seat == 2 && b.Seat == 1):
		return g.Refuse("seats %d and %d, want 1 and 2", a.Seat, b.Seat)
	case a.Agent == "" || a.Agent == b.Agent:
		return g.Refuse("two distinct agents required")
	case a.Entry != b.Entry:
		return g.Refuse("stakes %d and %d differ (both stake the same, §2.1)", a.Entry, b.Entry)
	case a.Entry <= 0 || a.Entry > MaxStake:
		return g.Refuse("stake %d out of range 1..%d", a.Entry, int64(MaxStake))
	}
	return nil
}

// NoOptions reports whether raw (Setup.Options) holds no option: empty, JSON null, or an empty
// object read strictly (canon.Decode).
func NoOptions(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return true
	}
	var o map[string]json.RawMessage
	return canon.Decode(raw, &o) == nil && len(o) == 0
}

// OrDefault is d when positive, else def: a Pace step's length or the game's default.
func OrDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// SeedHash is "sha256:" + hex(SHA-256(seed)): the commitment to the seed, and so to everything
// the seed fixes, published before play.
func SeedHash(seed [32]byte) string {
	return canon.IDOf(sha256.Sum256(seed[:]))
}
