package dilemma

import (
	"time"

	"arena/games"
	"arena/games/warden/internal/duel"
)

// Game identity (warden-games §0.1, §16).
const (
	GameID       = "warden.dilemma"
	RulesVersion = "warden.dilemma/1"
	FormatName   = "single" // the one format: two seats, one step
)

// Default step lengths (warden-games §5.2, [JC-18]); Setup.Pace's steps "commit" and "reveal"
// (or its Move) override.
const (
	DefaultCommit = 60 * time.Second
	DefaultReveal = 3 * time.Second
)

// maxStake is the largest stake S (duel.MaxStake): the pot 2S stays within 2^53−1.
const maxStake = duel.MaxStake

// Engine makes and restores Game II matches. The zero value is ready to use.
type Engine struct{}

var _ games.Engine = Engine{}

// Manifest: id "warden.dilemma", version 1, one format of exactly two seats, one turn, no talk.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: "Game II", Version: 1,
		Formats: []games.Format{{Name: FormatName, MinSeats: 2, MaxSeats: 2, Turns: 1, Exchanges: 0}},
	}
}

// New validates s and makes a match waiting to open at s.Start (Deadline() = s.Start; the first
// Advance emits match_started and the commit prompts). Refusals are *games.Error bad_request:
// game or format not this one; not exactly seats 1 and 2; the same agent twice; stakes (Entry)
// unequal, not positive, or above (2^53−1)/2; empty Round (the match id); non-empty Options;
// negative Pace durations. keys is not used: Game II signs nothing.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	if err := validate(s); err != nil {
		return nil, err
	}
	return &match{st: state{
		Frame:  duel.NewFrame(s),
		Commit: duel.OrDefault(s.Pace.Step("commit"), DefaultCommit),
		Reveal: duel.OrDefault(s.Pace.Step("reveal"), DefaultReveal),
	}}, nil
}

// game is Game II for the checks every Warden game shares.
var game = duel.Game{ID: GameID, Format: FormatName, Label: "dilemma"}

func validate(s games.Setup) error {
	if err := game.CheckSetup(s); err != nil {
		return err
	}
	if s.Pace.Move < 0 || s.Pace.Steps["commit"] < 0 || s.Pace.Steps["reveal"] < 0 {
		return game.Refuse("negative pace")
	}
	if !duel.NoOptions(s.Options) {
		return game.Refuse("options: Game II takes none")
	}
	return nil
}
