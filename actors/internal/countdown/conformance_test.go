package countdown

import (
	"crypto/ed25519"
	"errors"
	"testing"
	"time"

	"arena/games"
	"arena/games/gametest"
)

// The test game the table actor is exercised with conforms to the contract too: three seats
// answered by its house policy, scored in points.
func TestConformance(t *testing.T) {
	s := games.Setup{Game: ID, Format: "short", Round: "T-1", Start: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": time.Second}}}
	for i := 1; i <= 3; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: "agent" + string(rune('0'+i))})
	}
	gametest.Run(t, gametest.Case{Engine: &Engine{}, Setup: s, Keys: noKeys{}})
}

// noKeys is a Keyring with no seat's key: countdown signs nothing.
type noKeys struct{}

func (noKeys) PublicKey(int) (ed25519.PublicKey, bool) { return nil, false }
func (noKeys) Sign(int, []byte) ([]byte, error)        { return nil, errors.New("no keys") }
