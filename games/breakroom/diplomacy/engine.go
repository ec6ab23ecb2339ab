package diplomacy

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/diplomacy/board"
	"arena/games/canon"
)

// Game identity (breakroom-games §1.1, J1).
const (
	GameID       = "diplomacy"
	Name         = "Diplomacy"
	RulesVersion = "diplomacy-0.1"
	FormatName   = "standard"
	// Seats is the table size: exactly five powers (§1.1, §6.2).
	Seats = 5
)

// Actions (§6.11).
const (
	ActionSend      = "send"
	ActionBroadcast = "broadcast"
	ActionDone      = "done"
	ActionOrders    = "orders"
)

// KindPresence tells the match a seat's connection state (§1.5): body {"away": true|false}.
// An away seat's prompts get away_deadline_ms; a seat in civil disorder that comes back returns
// at the next phase (§6.10). A presence that changes nothing is refused with
// breakroom.CodeUnchanged.
const KindPresence = "presence"

// Config is a match's config as match_start.config writes it (§6.1). Setup.Options may override
// the deadlines, press_rounds, max_messages_per_press_turn, max_message_chars, last_year and
// strikes_limit; the map, the powers and the adjudication are fixed by diplomacy-0.1.
type Config struct {
	TurnDeadlineMS   int64         `json:"turn_deadline_ms"`
	OrdersDeadlineMS int64         `json:"orders_deadline_ms"`
	AwayDeadlineMS   int64         `json:"away_deadline_ms"`
	Map              string        `json:"map"`
	Powers           []board.Power `json:"powers"`
	RemovedPowers    []board.Power `json:"removed_powers"`
	PressRounds      int           `json:"press_rounds"`
	MaxMessages      int           `json:"max_messages_per_press_turn"`
	MaxMessageChars  int           `json:"max_message_chars"`
	FirstYear        int           `json:"first_year"`
	LastYear         int           `json:"last_year"`
	VictoryCentres   int           `json:"victory_centres"`
	StrikesLimit     int           `json:"strikes_limit"`
	Adjudication     string        `json:"adjudication"`
}

// DefaultMatchConfig is §6.1's config.
func DefaultMatchConfig() Config {
	r := DefaultRules()
	return Config{
		TurnDeadlineMS: 20_000, OrdersDeadlineMS: 45_000, AwayDeadlineMS: 3_000,
		Map: "standard", Powers: r.Powers, RemovedPowers: r.Removed,
		PressRounds: 2, MaxMessages: 3, MaxMessageChars: 500,
		FirstYear: r.FirstYear, LastYear: r.LastYear, VictoryCentres: r.VictoryCentres,
		StrikesLimit: 3, Adjudication: "DATC-3.1-preferred",
	}
}

// rules is the rules' part of c (State.Cfg).
func (c Config) rules() RulesConfig {
	return RulesConfig{Powers: c.Powers, Removed: c.RemovedPowers, FirstYear: c.FirstYear, LastYear: c.LastYear, VictoryCentres: c.VictoryCentres}
}

// options is Setup.Options: every member optional, unknown members refused.
type options struct {
	TurnDeadlineMS   *int64 `json:"turn_deadline_ms"`
	OrdersDeadlineMS *int64 `json:"orders_deadline_ms"`
	AwayDeadlineMS   *int64 `json:"away_deadline_ms"`
	PressRounds      *int   `json:"press_rounds"`
	MaxMessages      *int   `json:"max_messages_per_press_turn"`
	MaxMessageChars  *int   `json:"max_message_chars"`
	LastYear         *int   `json:"last_year"`
	StrikesLimit     *int   `json:"strikes_limit"`
	// Fixed by diplomacy-0.1: accepted only with their values (a match_start config, as
	// Verify rebuilds a match from it, names them).
	Map            *string        `json:"map"`
	Powers         *[]board.Power `json:"powers"`
	RemovedPowers  *[]board.Power `json:"removed_powers"`
	FirstYear      *int           `json:"first_year"`
	VictoryCentres *int           `json:"victory_centres"`
	Adjudication   *string        `json:"adjudication"`
}

const (
	maxDeadlineMS = 600_000
	maxMatchID    = 64
	maxLastYear   = 1950
)

// SeatOptions are a seat's own options (games.Seat.Options), written into match_start.players.
type SeatOptions struct {
	House bool `json:"house,omitempty"`
	Staff bool `json:"staff,omitempty"`
}

// Engine makes Diplomacy matches. The zero value is ready to use.
type Engine struct{}

var _ games.Engine = Engine{}

// Manifest: id "diplomacy", version 0, one format of exactly five seats.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{ID: GameID, Name: Name, Version: 0,
		Formats: []games.Format{{Name: FormatName, MinSeats: Seats, MaxSeats: Seats}}}
}

// New validates s and makes a match waiting to open at s.Start. s.Round is the match id (1 to
// 64 bytes); s.Seats are seats 1..5 with distinct non-empty Agents; s.Options overrides Config
// members (options); s.Pace's step "turn" (or Move) overrides turn_deadline_ms, "orders"
// orders_deadline_ms and "away" away_deadline_ms. Refusals are *games.Error bad_request naming
// the fault. keys is not used: Diplomacy signs nothing.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	cfg, err := configOf(s)
	if err != nil {
		return nil, err
	}
	seats := slices.Clone(s.Seats)
	slices.SortFunc(seats, func(a, b games.Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	bad := func(format string, args ...any) error {
		return games.Errorf(games.CodeBadRequest, "diplomacy setup: "+format, args...)
	}
	switch {
	case s.Game != "" && s.Game != GameID:
		return nil, bad("game %q", s.Game)
	case s.Format != "" && s.Format != FormatName:
		return nil, bad("format %q", s.Format)
	case s.Round == "" || len(s.Round) > maxMatchID:
		return nil, bad("round (the match id) %q: 1 to %d bytes", s.Round, maxMatchID)
	case len(seats) != Seats:
		return nil, bad("%d seats, want %d", len(seats), Seats)
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

// Assignment is §6.3's deal: seat i plays element i of the seeded shuffle of the five powers.
func Assignment(seed [32]byte) []board.Power {
	ps := []board.Power{board.AUS, board.ENG, board.FRA, board.RUS, board.TUR}
	breakroom.Shuffle(seed[:], "diplomacy/powers", ps)
	return ps
}

func configOf(s games.Setup) (Config, error) {
	bad := func(format string, args ...any) (Config, error) {
		return Config{}, games.Errorf(games.CodeBadRequest, "diplomacy config: "+format, args...)
	}
	c := DefaultMatchConfig()
	awaySet := false
	if len(s.Options) > 0 {
		var o options
		if err := canon.Decode(s.Options, &o); err != nil {
			return bad("%s", canon.Reason(err))
		}
		set(&c.TurnDeadlineMS, o.TurnDeadlineMS)
		set(&c.OrdersDeadlineMS, o.OrdersDeadlineMS)
		set(&c.AwayDeadlineMS, o.AwayDeadlineMS)
		set(&c.PressRounds, o.PressRounds)
		set(&c.MaxMessages, o.MaxMessages)
		set(&c.MaxMessageChars, o.MaxMessageChars)
		set(&c.LastYear, o.LastYear)
		set(&c.StrikesLimit, o.StrikesLimit)
		awaySet = o.AwayDeadlineMS != nil
		d := DefaultMatchConfig()
		switch {
		case o.Map != nil && *o.Map != d.Map,
			o.Powers != nil && !slices.Equal(*o.Powers, d.Powers),
			o.RemovedPowers != nil && !slices.Equal(*o.RemovedPowers, d.RemovedPowers),
			o.FirstYear != nil && *o.FirstYear != d.FirstYear,
			o.VictoryCentres != nil && *o.VictoryCentres != d.VictoryCentres,
			o.Adjudication != nil && *o.Adjudication != d.Adjudication:
			return bad("map, powers, removed_powers, first_year, victory_centres and adjudication are fixed by %s", RulesVersion)
		}
	}
	if s.Pace.Move < 0 || s.Pace.Steps["turn"] < 0 || s.Pace.Steps["orders"] < 0 || s.Pace.Steps["away"] < 0 {
		return bad("negative pace")
	}
	if d := s.Pace.Step("turn"); d > 0 {
		c.TurnDeadlineMS = d.Milliseconds()
	}
	if d := s.Pace.Step("orders"); d > 0 {
		c.OrdersDeadlineMS = d.Milliseconds()
	}
	if d := s.Pace.Steps["away"]; d > 0 {
		c.AwayDeadlineMS, awaySet = d.Milliseconds(), true
	}
	if !awaySet {
		c.AwayDeadlineMS = min(c.AwayDeadlineMS, c.TurnDeadlineMS, c.OrdersDeadlineMS)
	}
	switch {
	case c.TurnDeadlineMS < 1 || c.TurnDeadlineMS > maxDeadlineMS:
		return bad("turn_deadline_ms %d: 1 to %d", c.TurnDeadlineMS, maxDeadlineMS)
	case c.OrdersDeadlineMS < 1 || c.OrdersDeadlineMS > maxDeadlineMS:
		return bad("orders_deadline_ms %d: 1 to %d", c.OrdersDeadlineMS, maxDeadlineMS)
	case c.AwayDeadlineMS < 1 || c.AwayDeadlineMS > min(c.TurnDeadlineMS, c.OrdersDeadlineMS):
		return bad("away_deadline_ms %d: 1 to the shorter deadline", c.AwayDeadlineMS)
	case c.PressRounds < 0 || c.PressRounds > 5:
		return bad("press_rounds %d: 0 to 5", c.PressRounds)
	case c.MaxMessages < 1 || c.MaxMessages > 5:
		return bad("max_messages_per_press_turn %d: 1 to 5", c.MaxMessages)
	case c.MaxMessageChars < 1 || c.MaxMessageChars > 500:
		return bad("max_message_chars %d: 1 to 500", c.MaxMessageChars)
	case c.LastYear < c.FirstYear || c.LastYear > maxLastYear:
		return bad("last_year %d: %d to %d", c.LastYear, c.FirstYear, maxLastYear)
	case c.StrikesLimit < 1 || c.StrikesLimit > 100:
		return bad("strikes_limit %d: 1 to 100", c.StrikesLimit)
	}
	return c, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func (c Config) deadline(orders, away bool) time.Duration {
	ms := c.TurnDeadlineMS
	if orders {
		ms = c.OrdersDeadlineMS
	}
	if away {
		ms = min(ms, c.AwayDeadlineMS)
	}
	return time.Duration(ms) * time.Millisecond
}

// configJSON is c as match_start.config writes it (JCS).
func (c Config) configJSON() json.RawMessage {
	b, err := canon.Marshal(c)
	if err != nil { // unreachable: small integers and short strings
		return json.RawMessage(`{}`)
	}
	return b
}
