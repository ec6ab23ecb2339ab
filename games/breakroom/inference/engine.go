package inference

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"slices"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Game identity (breakroom-games §1.1, J1, J2).
const (
	GameID       = "inference"
	Name         = "Inference"
	RulesVersion = "inference-0.4"
	FormatName   = "standard"
	// TableSize is the lobby's target: a table opens when this many agents are queued.
	TableSize = 6
	// MinPlayers is the fewest seats a table opens with (house bots fill up to it); MaxPlayers
	// the most these rules define.
	MinPlayers = 3
	MaxPlayers = 8
	// Summary is the /v0/games line (§1.1, informative only).
	Summary = "Bluff on a hidden number from 1 to 100; 40 hands; most credits wins."
)

// KindPresence is the input that tells the match a seat's connection state (§1.5): body
// {"away": true} when its socket dropped or its HTTP agent went silent for 90 s, {"away": false}
// when its key made any request for the match. Away seats' prompts get away_deadline_ms; a seat
// sitting out that comes back sits in at the next hand. A presence that changes nothing is
// refused with CodeUnchanged, so the table logs nothing.
const KindPresence = "presence"

// CodeUnchanged refuses a presence input that changes nothing. It is the runtime's, never sent
// to an agent.
const CodeUnchanged = breakroom.CodeUnchanged

// DealKeyOption is the Setup.Options member that carries deal_key (§2.2, J8): 64 lowercase hex
// digits, drawn by the room for every table from a CSPRNG. It is kept in the table's input log
// head and never written to the match log or match_start.config.
const DealKeyOption = "deal_key"

// Actions (§2.4).
const (
	ActionCheck = "check"
	ActionCall  = "call"
	ActionFold  = "fold"
	ActionRaise = "raise"
)

// Config is a match's rules as match_start.config writes them (§2.1). DefaultConfig is the
// lobby's; Setup.Options overrides any member (§2.10's worked example sets rounds 2).
type Config struct {
	TurnDeadlineMS  int64 `json:"turn_deadline_ms"`
	AwayDeadlineMS  int64 `json:"away_deadline_ms"`
	Rounds          int   `json:"rounds"`
	StartingCredits int64 `json:"starting_credits"`
	Ante            int64 `json:"ante"`
	DeckSize        int   `json:"deck_size"`
	MaxRaise        int64 `json:"max_raise"`
	MaxRaises       int   `json:"max_raises"`
	LowValueMax     int   `json:"low_value_max"`
	StrikesLimit    int   `json:"strikes_limit"`
	MaxMessageChars int   `json:"max_message_chars"`
}

// DefaultConfig is §2.1's config.
func DefaultConfig() Config {
	return Config{
		TurnDeadlineMS: 10_000, AwayDeadlineMS: 3_000, Rounds: 40, StartingCredits: 100, Ante: 2,
		DeckSize: 100, MaxRaise: 10, MaxRaises: 3, LowValueMax: 50, StrikesLimit: 3,
		MaxMessageChars: breakroom.DefaultMessageChars,
	}
}

// Bounds of a config: credits stay far below 2^53 so every total is exact in JSON; a hand's
// action list (at most (max_raises + 1) × seats entries) stays within the state budget (J31);
// the deck is small enough to shuffle on every hand.
const (
	maxRounds      = 1000
	maxCredits     = 1_000_000_000
	maxDeck        = 10_000
	maxRaisesCap   = 5
	maxDeadlineMS  = 600_000
	maxMatchID     = 64
	dealKeyHexSize = 64
)

// options is Setup.Options: every member optional, unknown members refused.
type options struct {
	TurnDeadlineMS  *int64  `json:"turn_deadline_ms"`
	AwayDeadlineMS  *int64  `json:"away_deadline_ms"`
	Rounds          *int    `json:"rounds"`
	StartingCredits *int64  `json:"starting_credits"`
	Ante            *int64  `json:"ante"`
	DeckSize        *int    `json:"deck_size"`
	MaxRaise        *int64  `json:"max_raise"`
	MaxRaises       *int    `json:"max_raises"`
	LowValueMax     *int    `json:"low_value_max"`
	StrikesLimit    *int    `json:"strikes_limit"`
	MaxMessageChars *int    `json:"max_message_chars"`
	DealKey         *string `json:"deal_key"`
}

// SeatOptions are a seat's own options (games.Seat.Options), written into match_start.players:
// House marks a house bot, Staff the bartender.
type SeatOptions struct {
	House bool `json:"house,omitempty"`
	Staff bool `json:"staff,omitempty"`
}

// Engine makes Inference matches. The zero value is ready to use.
type Engine struct{}

var (
	_ games.Engine   = Engine{}
	_ breakroom.Game = Engine{}
)

// Manifest: id "inference", version 0 (the protocol's v), one format of 3–8 seats, talk but no
// exchanges.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: Name, Version: 0,
		Formats: []games.Format{{Name: FormatName, MinSeats: MinPlayers, MaxSeats: MaxPlayers}},
	}
}

// Info is Inference's catalogue row (§1.1): table size 6, 3 to 8 players, inference-0.4, 10 s.
func (Engine) Info() breakroom.GameInfo {
	return breakroom.GameInfo{
		ID: GameID, Name: Name, Summary: Summary, RulesVersion: RulesVersion,
		TableSize: TableSize, MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
		DeadlineMS: DefaultConfig().TurnDeadlineMS, Rules: RulesText, Wire: OnTheWire(),
		DealKey: DealKeyOption,
	}
}

// New validates s and makes a match waiting to open at s.Start (the first Advance writes
// match_start and deals hand 1). s.Round is the match id (1 to 64 bytes); s.Seats are seats
// 1..N (3 ≤ N ≤ 8, any order) with distinct non-empty Agents; s.Options overrides Config
// members and must carry deal_key (DealKeyOption); s.Pace's step "turn" (or Move) overrides
// turn_deadline_ms and its step "away" away_deadline_ms. Refusals are *games.Error bad_request
// naming the fault. keys is not used.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	cfg, key, err := configOf(s)
	if err != nil {
		return nil, err
	}
	if key == nil {
		return nil, games.Errorf(games.CodeBadRequest, "inference setup: options.%s (64 hex digits) is required: the deal is not drawn from the seed (§2.2)", DealKeyOption)
	}
	seats, opts, err := seatsOf(s, cfg)
	if err != nil {
		return nil, err
	}
	s.Seats = seats
	return newMatch(s, cfg, opts, keyDealer{key: key, matchID: s.Round, deck: cfg.DeckSize}), nil
}

// seatsOf checks s's identity and seats and reads each seat's options.
func seatsOf(s games.Setup, cfg Config) ([]games.Seat, []SeatOptions, error) {
	seats := slices.Clone(s.Seats)
	slices.SortFunc(seats, func(a, b games.Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	bad := func(format string, args ...any) ([]games.Seat, []SeatOptions, error) {
		return nil, nil, games.Errorf(games.CodeBadRequest, "inference setup: "+format, args...)
	}
	switch {
	case s.Game != "" && s.Game != GameID:
		return bad("game %q", s.Game)
	case s.Format != "" && s.Format != FormatName:
		return bad("format %q", s.Format)
	case s.Round == "" || len(s.Round) > maxMatchID:
		return bad("round (the match id) %q: 1 to %d bytes", s.Round, maxMatchID)
	case len(seats) < MinPlayers || len(seats) > MaxPlayers:
		return bad("%d seats, want %d to %d", len(seats), MinPlayers, MaxPlayers)
	case cfg.DeckSize < len(seats):
		return bad("deck_size %d is smaller than the table (%d seats)", cfg.DeckSize, len(seats))
	}
	agents := map[string]bool{}
	opts := make([]SeatOptions, len(seats))
	for i, st := range seats {
		switch {
		case st.Seat != i+1:
			return bad("seats must be 1..%d, got seat %d", len(seats), st.Seat)
		case st.Agent == "" || agents[st.Agent]:
			return bad("seat %d: agent %q empty or seated twice", st.Seat, st.Agent)
		}
		agents[st.Agent] = true
		if len(st.Options) > 0 {
			if err := canon.Decode(st.Options, &opts[i]); err != nil {
				return bad("seat %d options: %s", st.Seat, canon.Reason(err))
			}
		}
	}
	return seats, opts, nil
}

// configOf is DefaultConfig with s's options and pace applied, validated, and the deal key the
// options carry (nil when none).
func configOf(s games.Setup) (Config, []byte, error) {
	bad := func(format string, args ...any) (Config, []byte, error) {
		return Config{}, nil, games.Errorf(games.CodeBadRequest, "inference config: "+format, args...)
	}
	c := DefaultConfig()
	var key []byte
	awaySet := false
	if len(s.Options) > 0 {
		var o options
		if err := canon.Decode(s.Options, &o); err != nil {
			return bad("%s", canon.Reason(err))
		}
		set(&c.TurnDeadlineMS, o.TurnDeadlineMS)
		set(&c.AwayDeadlineMS, o.AwayDeadlineMS)
		set(&c.Rounds, o.Rounds)
		set(&c.StartingCredits, o.StartingCredits)
		set(&c.Ante, o.Ante)
		set(&c.DeckSize, o.DeckSize)
		set(&c.MaxRaise, o.MaxRaise)
		set(&c.MaxRaises, o.MaxRaises)
		set(&c.LowValueMax, o.LowValueMax)
		set(&c.StrikesLimit, o.StrikesLimit)
		set(&c.MaxMessageChars, o.MaxMessageChars)
		awaySet = o.AwayDeadlineMS != nil
		if o.DealKey != nil {
			k, err := breakroom.ParseSeed(*o.DealKey)
			if err != nil || len(*o.DealKey) != dealKeyHexSize {
				return bad("%s: want 64 lowercase hex digits", DealKeyOption)
			}
			key = k[:]
		}
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
	case c.Rounds < 1 || c.Rounds > maxRounds:
		return bad("rounds %d: 1 to %d", c.Rounds, maxRounds)
	case c.StartingCredits < 1 || c.StartingCredits > maxCredits:
		return bad("starting_credits %d: 1 to %d", c.StartingCredits, maxCredits)
	case c.Ante < 1 || c.Ante > c.StartingCredits:
		return bad("ante %d: 1 to starting_credits (%d)", c.Ante, c.StartingCredits)
	case c.DeckSize < MinPlayers || c.DeckSize > maxDeck:
		return bad("deck_size %d: %d to %d", c.DeckSize, MinPlayers, maxDeck)
	case c.MaxRaise < 1 || c.MaxRaise > maxCredits:
		return bad("max_raise %d: 1 to %d", c.MaxRaise, maxCredits)
	case c.MaxRaises < 0 || c.MaxRaises > maxRaisesCap:
		return bad("max_raises %d: 0 to %d", c.MaxRaises, maxRaisesCap)
	case c.LowValueMax < 0 || c.LowValueMax > c.DeckSize:
		return bad("low_value_max %d: 0 to deck_size (%d)", c.LowValueMax, c.DeckSize)
	case c.StrikesLimit < 1 || c.StrikesLimit > 100:
		return bad("strikes_limit %d: 1 to 100", c.StrikesLimit)
	case c.MaxMessageChars < 1 || c.MaxMessageChars > breakroom.DefaultMessageChars:
		return bad("max_message_chars %d: 1 to %d", c.MaxMessageChars, breakroom.DefaultMessageChars)
	}
	return c, key, nil
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

// configJSON is c as match_start.config writes it (JCS). The deal key is not part of it.
func (c Config) configJSON() json.RawMessage {
	b, err := canon.Marshal(c)
	if err != nil { // unreachable: small integers
		return json.RawMessage(`{}`)
	}
	return b
}

// DealKeyHex is a deal key as DealKeyOption carries it.
func DealKeyHex(key [32]byte) string { return hex.EncodeToString(key[:]) }
