package dilemma

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Game identity (breakroom-games §1.1, J1, J2).
const (
	GameID       = "dilemma"
	Name         = "Dilemma"
	RulesVersion = "dilemma-0.1"
	FormatName   = "standard"
	// TableSize is the lobby's target: a table opens when this many agents are queued.
	TableSize = 4
	// MinPlayers is the fewest seats a lobby table opens with (house bots fill up to it);
	// MaxPlayers the most these rules define. New also takes 2 seats, the test-only embedding of
	// the Warden's Game II (§5.10), which no lobby opens.
	MinPlayers = 3
	MaxPlayers = 6
	// Summary is the /v0/games line (§1.1, informative only).
	Summary = "Round-robin iterated prisoner's dilemma: meet every seat once, a hidden number of iterations each; best mean points wins."
)

// Input kinds beside "answer".
const (
	// KindPresence tells the match a seat's connection state (§1.5): body {"away": true} when its
	// socket dropped or its HTTP agent went silent for 90 s, {"away": false} when its key made
	// any request for the match (a re-join, a state request, a move attempt). Away seats' prompts
	// get away_deadline_ms; a seat sitting out that comes back sits in at the next iteration.
	// A presence that changes nothing is refused with CodeUnchanged, so the table logs nothing.
	KindPresence = "presence"
)

// CodeUnchanged refuses a presence input that changes nothing (the seat is already so). It is
// the runtime's, never sent to an agent.
const CodeUnchanged = breakroom.CodeUnchanged

// Actions and choices (§5.5).
const (
	ActionCooperate = "cooperate"
	ActionDefect    = "defect"
)

// Payoffs are the stage game's points (§5.1): T temptation, R reward, P punishment, S sucker.
type Payoffs struct {
	T int64 `json:"T"`
	R int64 `json:"R"`
	P int64 `json:"P"`
	S int64 `json:"S"`
}

// Config is a match's rules as match_start.config writes them (§5.1). DefaultConfig is the
// lobby's; Setup.Options overrides any member (§5.11's worked example sets stop_one_in 2).
type Config struct {
	TurnDeadlineMS  int64   `json:"turn_deadline_ms"`
	AwayDeadlineMS  int64   `json:"away_deadline_ms"`
	Payoffs         Payoffs `json:"payoffs"`
	StopOneIn       int64   `json:"stop_one_in"`
	MaxIterations   int     `json:"max_iterations"`
	Default         string  `json:"default"`
	Results         string  `json:"results"`
	StrikesLimit    int     `json:"strikes_limit"`
	MaxMessageChars int     `json:"max_message_chars"`
}

// DefaultConfig is §5.1's config.
func DefaultConfig() Config {
	return Config{
		TurnDeadlineMS: 10_000, AwayDeadlineMS: 3_000,
		Payoffs:   Payoffs{T: 5, R: 3, P: 1, S: 0},
		StopOneIn: 10, MaxIterations: 20, Default: ActionCooperate, Results: "pair_private",
		StrikesLimit: 3, MaxMessageChars: breakroom.DefaultMessageChars,
	}
}

// Bounds of a config: a prompt's state must stay within breakroom.StateBudget (J31), so the
// per-round list of iterations is capped; payoffs stay small enough that every total is exact.
const (
	maxIterationsCap = 40
	maxPayoff        = 1_000_000
	maxStopOneIn     = 1_000_000
	maxDeadlineMS    = 600_000
	maxMatchID       = 64
)

// options is Setup.Options: every member optional, unknown members refused.
type options struct {
	TurnDeadlineMS  *int64          `json:"turn_deadline_ms"`
	AwayDeadlineMS  *int64          `json:"away_deadline_ms"`
	Payoffs         *payoffsOptions `json:"payoffs"`
	StopOneIn       *int64          `json:"stop_one_in"`
	MaxIterations   *int            `json:"max_iterations"`
	Default         *string         `json:"default"`
	Results         *string         `json:"results"`
	StrikesLimit    *int            `json:"strikes_limit"`
	MaxMessageChars *int            `json:"max_message_chars"`
}

type payoffsOptions struct {
	T *int64 `json:"T"`
	R *int64 `json:"R"`
	P *int64 `json:"P"`
	S *int64 `json:"S"`
}

// SeatOptions are a seat's own options (games.Seat.Options), written into match_start.players:
// House marks a house bot (its key starts with "house:"), Staff the bartender.
type SeatOptions struct {
	House bool `json:"house,omitempty"`
	Staff bool `json:"staff,omitempty"`
}

// Engine makes Dilemma matches. The zero value is ready to use.
type Engine struct{}

var _ games.Engine = Engine{}

// Manifest: id "dilemma", version 0 (the protocol's v), one format of 3–6 seats (the lobby's
// range; TableSize is its target), talk but no exchanges.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: Name, Version: 0,
		Formats: []games.Format{{Name: FormatName, MinSeats: MinPlayers, MaxSeats: MaxPlayers}},
	}
}

// New validates s and makes a match waiting to open at s.Start (Deadline() = s.Start; the first
// Advance writes match_start and opens round 1). s.Round is the match id ("m_…", at most 64
// bytes); s.Seats are seats 1..N (2 ≤ N ≤ 6, any order) with distinct non-empty Agents (the
// pubkeys); s.Options overrides Config members; s.Pace's step "turn" (or Move) overrides
// turn_deadline_ms and its step "away" away_deadline_ms. Refusals are *games.Error
// bad_request naming the fault. A turn deadline below the away deadline, and no away deadline
// given, makes the away deadline the turn's. keys is not used: the Dilemma signs nothing.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	cfg, err := configOf(s)
	if err != nil {
		return nil, err
	}
	seats := slices.Clone(s.Seats)
	slices.SortFunc(seats, func(a, b games.Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	bad := func(format string, args ...any) error {
		return games.Errorf(games.CodeBadRequest, "dilemma setup: "+format, args...)
	}
	switch {
	case s.Game != "" && s.Game != GameID:
		return nil, bad("game %q", s.Game)
	case s.Format != "" && s.Format != FormatName:
		return nil, bad("format %q", s.Format)
	case s.Round == "" || len(s.Round) > maxMatchID:
		return nil, bad("round (the match id) %q: 1 to %d bytes", s.Round, maxMatchID)
	case len(seats) < 2 || len(seats) > MaxPlayers:
		return nil, bad("%d seats, want 2 to %d", len(seats), MaxPlayers)
	}
	agents := map[string]bool{}
	opts := make([]SeatOptions, len(seats))
	for i, st := range seats {
		switch {
		case st.Seat != i+1:
			return nil, bad("seats must be 1..%d, got seat %d", len(seats), st.Seat)
		case st.Agent == "" || agents[st.Agent]:
			return nil, bad("seat %d: agent %q empty or seated twice", st.Seat, st.Agent)
		}
		agents[st.Agent] = true
		if len(st.Options) > 0 {
			if err := canon.Decode(st.Options, &opts[i]); err != nil {
				return nil, bad("seat %d options: %s", st.Seat, canon.Reason(err))
			}
		}
	}
	s.Seats = seats
	return newMatch(s, cfg, opts), nil
}

// configOf is DefaultConfig with s's options and pace applied, validated.
func configOf(s games.Setup) (Config, error) {
	bad := func(format string, args ...any) (Config, error) {
		return Config{}, games.Errorf(games.CodeBadRequest, "dilemma config: "+format, args...)
	}
	c := DefaultConfig()
	if len(s.Options) > 0 {
		var o options
		if err := canon.Decode(s.Options, &o); err != nil {
			return bad("%s", canon.Reason(err))
		}
		set(&c.TurnDeadlineMS, o.TurnDeadlineMS)
		set(&c.AwayDeadlineMS, o.AwayDeadlineMS)
		set(&c.StopOneIn, o.StopOneIn)
		set(&c.MaxIterations, o.MaxIterations)
		set(&c.Default, o.Default)
		set(&c.Results, o.Results)
		set(&c.StrikesLimit, o.StrikesLimit)
		set(&c.MaxMessageChars, o.MaxMessageChars)
		if p := o.Payoffs; p != nil {
			if p.T == nil || p.R == nil || p.P == nil || p.S == nil {
				return bad("payoffs: give all of T, R, P and S")
			}
			c.Payoffs = Payoffs{T: *p.T, R: *p.R, P: *p.P, S: *p.S}
		}
	}
	if s.Pace.Move < 0 || s.Pace.Steps["turn"] < 0 || s.Pace.Steps["away"] < 0 {
		return bad("negative pace")
	}
	if d := s.Pace.Step("turn"); d > 0 {
		c.TurnDeadlineMS = d.Milliseconds()
	}
	awaySet := s.Pace.Steps["away"] > 0
	if d := s.Pace.Steps["away"]; d > 0 {
		c.AwayDeadlineMS = d.Milliseconds()
	}
	if len(s.Options) > 0 {
		var o struct {
			Away json.RawMessage `json:"away_deadline_ms"`
		}
		_ = json.Unmarshal(s.Options, &o)
		awaySet = awaySet || o.Away != nil
	}
	if !awaySet && c.AwayDeadlineMS > c.TurnDeadlineMS {
		c.AwayDeadlineMS = c.TurnDeadlineMS // a turn shorter than the away deadline: away changes nothing
	}
	p := c.Payoffs
	switch {
	case c.TurnDeadlineMS < 1 || c.TurnDeadlineMS > maxDeadlineMS:
		return bad("turn_deadline_ms %d: 1 to %d", c.TurnDeadlineMS, maxDeadlineMS)
	case c.AwayDeadlineMS < 1 || c.AwayDeadlineMS > c.TurnDeadlineMS:
		return bad("away_deadline_ms %d: 1 to turn_deadline_ms (%d)", c.AwayDeadlineMS, c.TurnDeadlineMS)
	case !(p.T > p.R && p.R > p.P && p.P > p.S):
		return bad("payoffs %+v: want T > R > P > S", p)
	case 2*p.R <= p.T+p.S:
		return bad("payoffs %+v: want 2R > T + S", p)
	case p.S < 0 || p.T > maxPayoff:
		return bad("payoffs %+v: each within 0..%d", p, maxPayoff)
	case c.StopOneIn < 1 || c.StopOneIn > maxStopOneIn:
		return bad("stop_one_in %d: 1 to %d", c.StopOneIn, maxStopOneIn)
	case c.MaxIterations < 1 || c.MaxIterations > maxIterationsCap:
		return bad("max_iterations %d: 1 to %d", c.MaxIterations, maxIterationsCap)
	case c.Default != ActionCooperate && c.Default != ActionDefect:
		return bad("default %q: cooperate or defect", c.Default)
	case c.Results != "pair_private":
		return bad("results %q: only pair_private is defined (public is reserved)", c.Results)
	case c.StrikesLimit < 1 || c.StrikesLimit > 100:
		return bad("strikes_limit %d: 1 to 100", c.StrikesLimit)
	case c.MaxMessageChars < 1 || c.MaxMessageChars > breakroom.DefaultMessageChars:
		return bad("max_message_chars %d: 1 to %d", c.MaxMessageChars, breakroom.DefaultMessageChars)
	}
	return c, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func (c Config) turnDeadline() time.Duration {
	return time.Duration(c.TurnDeadlineMS) * time.Millisecond
}
func (c Config) awayDeadline() time.Duration {
	return time.Duration(c.AwayDeadlineMS) * time.Millisecond
}

// configJSON is c as match_start.config writes it (JCS).
func (c Config) configJSON() json.RawMessage {
	b, err := canon.Marshal(c)
	if err != nil { // unreachable: small integers and short strings
		return json.RawMessage(`{}`)
	}
	return b
}

var _ breakroom.Game = Engine{}

// Info is the Dilemma's catalogue row (§1.1): table size 4, 3 to 6 players, dilemma-0.1, 10 s.
func (Engine) Info() breakroom.GameInfo {
	return breakroom.GameInfo{
		ID: GameID, Name: Name, Summary: Summary, RulesVersion: RulesVersion,
		TableSize: TableSize, MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
		DeadlineMS: DefaultConfig().TurnDeadlineMS, Rules: RulesText, Wire: OnTheWire(),
	}
}
