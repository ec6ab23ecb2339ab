package claims

import (
	"time"

	"arena/games"
	"arena/games/warden/internal/duel"
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
	m := &match{st: state{Frame: duel.NewFrame(s), Lengths: map[string]time.Duration{}}}
	for ph, def := range map[string]time.Duration{phaseMessage: DefaultMessage, phaseClaim: DefaultClaim,
		phaseOffer: DefaultOffer, phaseReveal: DefaultReveal} {
		m.st.Lengths[ph] = duel.OrDefault(s.Pace.Step(ph), def)
	}
	m.st.Balance = [2]int64{m.st.Stake, m.st.Stake}
	return m, nil
}

// game is Game I for the checks every Warden game shares.
var game = duel.Game{ID: GameID, Format: FormatName, Label: "claims"}

func validate(s games.Setup) error {
	if err := game.CheckSetup(s); err != nil {
		return err
	}
	switch {
	case s.Seats[0].Entry%StakeFactor != 0:
		return game.Refuse("stake %d is not a multiple of %d (§16.1)", s.Seats[0].Entry, StakeFactor)
	case s.Pace.Move < 0:
		return game.Refuse("negative pace")
	}
	for _, ph := range []string{phaseMessage, phaseClaim, phaseOffer, phaseReveal} {
		if s.Pace.Steps[ph] < 0 {
			return game.Refuse("negative pace for %s", ph)
		}
	}
	if !duel.NoOptions(s.Options) {
		return game.Refuse("options: Game I takes none (the §3.1 defaults)")
	}
	return nil
}
