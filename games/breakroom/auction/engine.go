package auction

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
	GameID       = "auction"
	Name         = "Auction"
	RulesVersion = "auction-0.1"
	FormatName   = "standard"
	// TableSize is the lobby's target: a table opens when this many agents are queued.
	TableSize = 5
	// MinPlayers is the fewest seats a table opens with (house bots fill up to it); MaxPlayers
	// the most these rules define (J2).
	MinPlayers = 3
	MaxPlayers = 8
	// Summary is the /v0/games line (§1.1, informative only).
	Summary = "Sealed first-price bids on 10 lots with private values; cash left plus value won decides."
)

// Input kinds beside "answer".
const (
	// KindPresence tells the match a seat's connection state (§1.5): body {"away": true} when its
	// socket dropped or its HTTP agent went silent for 90 s, {"away": false} when its key made
	// any request for the match (a re-join, a state request, a move attempt). Away seats' prompts
	// get away_deadline_ms; a seat sitting out that comes back sits in at the next lot's
	// round_start. A presence that changes nothing is refused with CodeUnchanged, so the table
	// logs nothing.
	KindPresence = "presence"
)

// CodeUnchanged refuses a presence input that changes nothing (the seat is already so). It is
// the runtime's, never sent to an agent.
const CodeUnchanged = breakroom.CodeUnchanged

// Actions (§4.4).
const (
	ActionBid  = "bid"
	ActionPass = "pass"
)

// PricingFirstPrice is the one pricing rule auction-0.1 defines (§4.1): the winner pays its bid.
const PricingFirstPrice = "first_price"

// Config is a match's rules as match_start.config writes them (§4.1). DefaultConfig is the
// lobby's; Setup.Options overrides any member (§4.10's worked example sets lots 2). Cash and
// values are in the game's own unit ("points", Result.Unit): they move no money.
type Config struct {
	TurnDeadlineMS  int64  `json:"turn_deadline_ms"`
	AwayDeadlineMS  int64  `json:"away_deadline_ms"`
	Lots            int    `json:"lots"`
	StartingCash    int64  `json:"starting_cash"`
	ValueMax        int64  `json:"value_max"`
	Pricing         string `json:"pricing"`
	StrikesLimit    int    `json:"strikes_limit"`
	MaxMessageChars int    `json:"max_message_chars"`
}

// DefaultConfig is §4.1's config (J19): 10 lots, 200 cash, values 1..100, first price.
func DefaultConfig() Config {
	return Config{
		TurnDeadlineMS: 10_000, AwayDeadlineMS: 3_000,
		Lots: 10, StartingCash: 200, ValueMax: 100, Pricing: PricingFirstPrice,
		StrikesLimit: 3, MaxMessageChars: breakroom.DefaultMessageChars,
	}
}

// Bounds of a config: a prompt's state lists every lot's result and the seat's holdings, so the
// number of lots is capped to keep it within breakroom.StateBudget (J31); cash and values stay
// small enough that every sum over a table is exact in a float64 (games.Standing.Score).
const (
	maxLots       = 50
	maxCash       = 1_000_000_000
	maxValue      = 1_000_000_000
	maxDeadlineMS = 600_000
	maxMatchID    = 64
)

// options is Setup.Options: every member optional, unknown members refused.
type options struct {
	TurnDeadlineMS  *int64  `json:"turn_deadline_ms"`
	AwayDeadlineMS  *int64  `json:"away_deadline_ms"`
	Lots            *int    `json:"lots"`
	StartingCash    *int64  `json:"starting_cash"`
	ValueMax        *int64  `json:"value_max"`
	Pricing         *string `json:"pricing"`
	StrikesLimit    *int    `json:"strikes_limit"`
	MaxMessageChars *int    `json:"max_message_chars"`
}

// SeatOptions are a seat's own options (games.Seat.Options), written into match_start.players:
// House marks a house bot (its key starts with "house:"), Staff the bartender.
type SeatOptions struct {
	House bool `json:"house,omitempty"`
	Staff bool `json:"staff,omitempty"`
}

// Engine makes Auction matches. The zero value is ready to use.
type Engine struct{}

var _ games.Engine = Engine{}

// Manifest: id "auction", version 0 (the protocol's v), one format of 3–8 seats (the lobby's
// range; TableSize is its target), talk but no exchanges.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: Name, Version: 0,
		Formats: []games.Format{{Name: FormatName, MinSeats: MinPlayers, MaxSeats: MaxPlayers}},
	}
}

// New validates s and makes a match waiting to open at s.Start (Deadline() = s.Start; the first
// Advance writes match_start and opens lot 1). s.Round is the match id ("m_…", at most 64
// bytes); s.Seats are seats 1..N (3 ≤ N ≤ 8, any order) with distinct non-empty Agents (the
// pubkeys); s.Options overrides Config members; s.Pace's step "turn" (or Move) overrides
// turn_deadline_ms and its step "away" away_deadline_ms. Refusals are *games.Error bad_request
// naming the fault. A turn deadline below the away deadline, and no away deadline given, makes
// the away deadline the turn's. keys is not used: the Auction signs nothing.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	cfg, err := configOf(s)
	if err != nil {
		return nil, err
	}
	seats := slices.Clone(s.Seats)
	slices.SortFunc(seats, func(a, b games.Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	bad := func(format string, args ...any) error {
		return games.Errorf(games.CodeBadRequest, "auction setup: "+format, args...)
	}
	switch {
	case s.Game != "" && s.Game != GameID:
		return nil, bad("game %q", s.Game)
	case s.Format != "" && s.Format != FormatName:
		return nil, bad("format %q", s.Format)
	case s.Round == "" || len(s.Round) > maxMatchID:
		return nil, bad("round (the match id) %q: 1 to %d bytes", s.Round, maxMatchID)
	case len(seats) < MinPlayers || len(seats) > MaxPlayers:
		return nil, bad("%d seats, want %d to %d", len(seats), MinPlayers, MaxPlayers)
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
		return Config{}, games.Errorf(games.CodeBadRequest, "auction config: "+format, args...)
	}
	c := DefaultConfig()
	awaySet := false
	if len(s.Options) > 0 {
		var o options
		if err := canon.Decode(s.Options, &o); err != nil {
			return bad("%s", canon.Reason(err))
		}
		set(&c.TurnDeadlineMS, o.TurnDeadlineMS)
		set(&c.AwayDeadlineMS, o.AwayDeadlineMS)
		set(&c.Lots, o.Lots)
		set(&c.StartingCash, o.StartingCash)
		set(&c.ValueMax, o.ValueMax)
		set(&c.Pricing, o.Pricing)
		set(&c.StrikesLimit, o.StrikesLimit)
		set(&c.MaxMessageChars, o.MaxMessageChars)
		awaySet = o.AwayDeadlineMS != nil
	}
	if s.Pace.Move < 0 || s.Pace.Steps["turn"] < 0 || s.Pace.Steps["away"] < 0 {
		return bad("negative pace")
	}
	if d := s.Pace.Step("turn"); d > 0 {
		c.TurnDeadlineMS = d.Milliseconds()
	}
	if d := s.Pace.Steps["away"]; d > 0 {
		c.AwayDeadlineMS, awaySet = d.Milliseconds(), true
	}
	if !awaySet && c.AwayDeadlineMS > c.TurnDeadlineMS {
		c.AwayDeadlineMS = c.TurnDeadlineMS // a turn shorter than the away deadline: away changes nothing
	}
	switch {
	case c.TurnDeadlineMS < 1 || c.TurnDeadlineMS > maxDeadlineMS:
		return bad("turn_deadline_ms %d: 1 to %d", c.TurnDeadlineMS, maxDeadlineMS)
	case c.AwayDeadlineMS < 1 || c.AwayDeadlineMS > c.TurnDeadlineMS:
		return bad("away_deadline_ms %d: 1 to turn_deadline_ms (%d)", c.AwayDeadlineMS, c.TurnDeadlineMS)
	case c.Lots < 1 || c.Lots > maxLots:
		return bad("lots %d: 1 to %d", c.Lots, maxLots)
	case c.StartingCash < 0 || c.StartingCash > maxCash:
		return bad("starting_cash %d: 0 to %d", c.StartingCash, maxCash)
	case c.ValueMax < 1 || c.ValueMax > maxValue:
		return bad("value_max %d: 1 to %d", c.ValueMax, maxValue)
	case c.Pricing != PricingFirstPrice:
		return bad("pricing %q: only %s is defined", c.Pricing, PricingFirstPrice)
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

// Info is the Auction's catalogue row (§1.1): table size 5, 3 to 8 players, auction-0.1, 10 s.
func (Engine) Info() breakroom.GameInfo {
	return breakroom.GameInfo{
		ID: GameID, Name: Name, Summary: Summary, RulesVersion: RulesVersion,
		TableSize: TableSize, MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
		DeadlineMS: DefaultConfig().TurnDeadlineMS, Rules: RulesText, Wire: OnTheWire(),
	}
}
