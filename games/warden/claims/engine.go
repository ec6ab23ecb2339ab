package claims

import (
	"crypto/sha256"
	"encoding/json"
	"time"

	"arena/games"
	"arena/games/canon"
)

// Game identity (warden-games §0.1, §16).
const (
	GameID       = "warden.claims"
	RulesVersion = "warden.claims/1"
	FormatName   = "single" // the one format: two seats, five rounds
)

// Default step lengths (warden-games §5.2, [JC-18]); Setup.Pace's steps "message", "claim",
// "offer" and "reveal" override.
const (
	DefaultMessage = 20 * time.Second
	DefaultClaim   = 20 * time.Second
	DefaultOffer   = 30 * time.Second
	DefaultReveal  = 3 * time.Second
)

// maxStake keeps the bank (2S) within 2^53−1, so every figure survives JCS (canon).
const maxStake = (1<<53 - 1) / 2

// Engine makes Game I matches. The zero value is ready to use.
type Engine struct{}

var _ games.Engine = Engine{}

// Manifest: id "warden.claims", version 1, one format of exactly two seats, five turns (rounds),
// no talk outside the one private message of each round.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: "Game I", Version: 1,
		Formats: []games.Format{{Name: FormatName, MinSeats: 2, MaxSeats: 2, Turns: Rounds, Exchanges: 0}},
	}
}

// New validates s and makes a match waiting to open at s.Start. Refusals are *games.Error
// bad_request: game or format not this one; not exactly seats 1 and 2; the same agent twice;
// stakes unequal, not positive, not a multiple of 200 000 (§16.1) or above (2^53−1)/2; empty
// Round (the match id); non-empty Options; negative Pace durations. keys is not used.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	if err := validate(s); err != nil {
		return nil, err
	}
	m := &match{st: state{
		Setup:   s,
		Stake:   s.Seats[0].Entry,
		Phase:   phaseNew,
		Lengths: map[string]time.Duration{},
	}}
	for ph, def := range map[string]time.Duration{phaseMessage: DefaultMessage, phaseClaim: DefaultClaim,
		phaseOffer: DefaultOffer, phaseReveal: DefaultReveal} {
		m.st.Lengths[ph] = orDefault(s.Pace.Step(ph), def)
	}
	m.st.Balance = [2]int64{m.st.Stake, m.st.Stake}
	if s.Seats[0].Seat != 1 {
		m.st.Setup.Seats = []games.Seat{s.Seats[1], s.Seats[0]}
	}
	return m, nil
}

func validate(s games.Setup) error {
	bad := func(format string, args ...any) error {
		return games.Errorf(games.CodeBadRequest, "claims setup: "+format, args...)
	}
	switch {
	case s.Game != "" && s.Game != GameID:
		return bad("game %q", s.Game)
	case s.Format != "" && s.Format != FormatName:
		return bad("format %q", s.Format)
	case s.Round == "":
		return bad("round (the match id) is empty")
	case len(s.Seats) != 2:
		return bad("%d seats, want 2", len(s.Seats))
	}
	a, b := s.Seats[0], s.Seats[1]
	switch {
	case !(a.Seat == 1 && b.Seat == 2 || a.Seat == 2 && b.Seat == 1):
		return bad("seats %d and %d, want 1 and 2", a.Seat, b.Seat)
	case a.Agent == "" || a.Agent == b.Agent:
		return bad("two distinct agents required")
	case a.Entry != b.Entry:
		return bad("stakes %d and %d differ (both stake the same, §2.1)", a.Entry, b.Entry)
	case a.Entry <= 0 || a.Entry > maxStake:
		return bad("stake %d out of range 1..%d", a.Entry, int64(maxStake))
	case a.Entry%StakeFactor != 0:
		return bad("stake %d is not a multiple of %d (§16.1)", a.Entry, StakeFactor)
	case s.Pace.Move < 0:
		return bad("negative pace")
	}
	for _, ph := range []string{phaseMessage, phaseClaim, phaseOffer, phaseReveal} {
		if s.Pace.Steps[ph] < 0 {
			return bad("negative pace for %s", ph)
		}
	}
	if len(s.Options) > 0 {
		var o map[string]json.RawMessage
		if err := canon.Decode(s.Options, &o); err != nil || len(o) != 0 {
			return bad("options: Game I takes none (the §3.1 defaults)")
		}
	}
	return nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// seedHash is "sha256:" + hex(SHA-256(seed)): the commitment to the seed and so to every
// valuation (§3.2).
func seedHash(seed [32]byte) string {
	return canon.IDOf(sha256.Sum256(seed[:]))
}
