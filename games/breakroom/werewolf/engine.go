package werewolf

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"arena/games"
	"arena/games/breakroom"
	"arena/games/canon"
)

// Game identity (breakroom-games §1.1, J1, J2, J15).
const (
	GameID       = "werewolf"
	Name         = "Werewolf"
	RulesVersion = "werewolf-0.1"
	FormatName   = "standard"
	// TableSize is the lobby's target: a table opens when this many agents are queued.
	TableSize = 7
	// MinPlayers is the fewest seats a table opens with (house bots fill up to it), MaxPlayers
	// the most the role table defines (§3.1).
	MinPlayers = 5
	MaxPlayers = 8
	// Summary is the /v0/games line (§1.1, informative only).
	Summary = "Hidden roles: wolves kill by night, the village exiles by day vote; last team standing wins."
)

// KindPresence is the out-of-turn input of a seat's connection state (§1.5): body
// {"away": true} when its socket dropped or its HTTP agent went silent, {"away": false} when
// its key made any request for the match. An away seat's prompts get away_deadline_ms. "left"
// is final (§3.6): nothing brings an eliminated seat back. A presence that changes nothing is
// refused with CodeUnchanged, so the table logs nothing.
const KindPresence = "presence"

// CodeUnchanged refuses a presence input that changes nothing. It is the runtime's, never sent
// to an agent.
const CodeUnchanged = breakroom.CodeUnchanged

// Roles and teams (§3.1).
const (
	RoleWolf     = "wolf"
	RoleSeer     = "seer"
	RoleDoctor   = "doctor"
	RoleVillager = "villager"
	TeamWolves   = "wolves"
	TeamVillage  = "village"
)

// Phases of a round (§3.3), as phase lines and visible_state.phase name them.
const (
	PhaseNight      = "night"
	PhaseDiscussion = "day_discussion"
	PhaseVote       = "day_vote"
)

// Actions (§3.4).
const (
	ActionSleep   = "sleep"
	ActionInspect = "inspect"
	ActionProtect = "protect"
	ActionKill    = "kill"
	ActionSay     = "say"
	ActionPass    = "pass"
	ActionVote    = "vote"
	ActionAbstain = "abstain"
)

// How a seat was eliminated (eliminated.how, ranking.eliminated; §3.3, §3.6).
const (
	HowNight  = "night"
	HowExiled = "exiled"
	HowLeft   = "left"
)

// Winners (game_over.winner, §3.5).
const (
	WinnerVillage = "village"
	WinnerWolves  = "wolves"
	WinnerDraw    = "draw"
)

// Roles is the number of seats dealt each role (match_start.config.roles, §3.1).
type Roles struct {
	Wolf     int `json:"wolf"`
	Seer     int `json:"seer"`
	Doctor   int `json:"doctor"`
	Villager int `json:"villager"`
}

// Total is the number of seats r deals.
func (r Roles) Total() int { return r.Wolf + r.Seer + r.Doctor + r.Villager }

// RolesFor is §3.1's role table for a table of seats (5 to 8); the zero Roles for another size.
func RolesFor(seats int) Roles {
	switch seats {
	case 5:
		return Roles{Wolf: 1, Seer: 1, Doctor: 1, Villager: 2}
	case 6:
		return Roles{Wolf: 1, Seer: 1, Doctor: 1, Villager: 3}
	case 7:
		return Roles{Wolf: 2, Seer: 1, Doctor: 1, Villager: 3}
	case 8:
		return Roles{Wolf: 2, Seer: 1, Doctor: 1, Villager: 4}
	}
	return Roles{}
}

// Config is a match's rules as match_start.config writes them (§3.1). DefaultConfig(n) is the
// lobby's for n seats; Setup.Options overrides any member.
type Config struct {
	TurnDeadlineMS    int64 `json:"turn_deadline_ms"`
	AwayDeadlineMS    int64 `json:"away_deadline_ms"`
	DiscussionRounds  int   `json:"discussion_rounds"`
	MaxRounds         int   `json:"max_rounds"`
	DoctorSelfProtect bool  `json:"doctor_self_protect"`
	DoctorRepeat      bool  `json:"doctor_repeat"`
	StrikesLimit      int   `json:"strikes_limit"`
	MaxMessageChars   int   `json:"max_message_chars"`
	Roles             Roles `json:"roles"`
}

// DefaultConfig is §3.1's config for a table of seats, roles from RolesFor.
func DefaultConfig(seats int) Config {
	return Config{
		TurnDeadlineMS: 20_000, AwayDeadlineMS: 3_000, DiscussionRounds: 2, MaxRounds: 8,
		DoctorSelfProtect: true, DoctorRepeat: false, StrikesLimit: 3,
		MaxMessageChars: breakroom.DefaultMessageChars, Roles: RolesFor(seats),
	}
}

// Bounds of a config: discussion passes and rounds stay small enough that a prompt's state fits
// breakroom.StateBudget (J31).
const (
	maxDiscussionRounds = 5
	maxRoundsCap        = 20
	maxDeadlineMS       = 600_000
	maxMatchID          = 64
)

// options is Setup.Options: every member optional, unknown members refused.
type options struct {
	TurnDeadlineMS    *int64 `json:"turn_deadline_ms"`
	AwayDeadlineMS    *int64 `json:"away_deadline_ms"`
	DiscussionRounds  *int   `json:"discussion_rounds"`
	MaxRounds         *int   `json:"max_rounds"`
	DoctorSelfProtect *bool  `json:"doctor_self_protect"`
	DoctorRepeat      *bool  `json:"doctor_repeat"`
	StrikesLimit      *int   `json:"strikes_limit"`
	MaxMessageChars   *int   `json:"max_message_chars"`
	Roles             *Roles `json:"roles"`
}

// SeatOptions are a seat's own options (games.Seat.Options), written into match_start.players:
// House marks a house bot, Staff the bartender.
type SeatOptions struct {
	House bool `json:"house,omitempty"`
	Staff bool `json:"staff,omitempty"`
}

// Engine makes Werewolf matches. The zero value is ready to use.
type Engine struct{}

var (
	_ games.Engine   = Engine{}
	_ breakroom.Game = Engine{}
)

// Manifest: id "werewolf", version 0 (the protocol's v), one format of 5–8 seats.
func (Engine) Manifest() games.Manifest {
	return games.Manifest{
		ID: GameID, Name: Name, Version: 0,
		Formats: []games.Format{{Name: FormatName, MinSeats: MinPlayers, MaxSeats: MaxPlayers}},
	}
}

// New validates s and makes a match waiting to open at s.Start (Deadline() = s.Start; the first
// Advance writes match_start, deals the roles and opens night 1). s.Round is the match id (1 to
// 64 bytes); s.Seats are seats 1..N (5 ≤ N ≤ 8, any order) with distinct non-empty Agents;
// s.Options overrides Config members; s.Pace's step "turn" (or Move) overrides
// turn_deadline_ms and its step "away" away_deadline_ms. Refusals are *games.Error bad_request
// naming the fault. keys is not used: Werewolf signs nothing.
func (Engine) New(s games.Setup, _ games.Keyring) (games.Match, error) {
	seats := slices.Clone(s.Seats)
	slices.SortFunc(seats, func(a, b games.Seat) int { return cmp.Compare(a.Seat, b.Seat) })
	bad := func(format string, args ...any) error {
		return games.Errorf(games.CodeBadRequest, "werewolf setup: "+format, args...)
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
	cfg, err := configOf(s, len(seats))
	if err != nil {
		return nil, err
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

// configOf is DefaultConfig(seats) with s's options and pace applied, validated: the roles must
// deal exactly seats seats, at least one wolf and at most one seer and one doctor, and fewer
// wolves than other seats (else the wolves would have won before the first night).
func configOf(s games.Setup, seats int) (Config, error) {
	bad := func(format string, args ...any) (Config, error) {
		return Config{}, games.Errorf(games.CodeBadRequest, "werewolf config: "+format, args...)
	}
	c := DefaultConfig(seats)
	awaySet := s.Pace.Steps["away"] > 0
	if len(s.Options) > 0 {
		var o options
		if err := canon.Decode(s.Options, &o); err != nil {
			return bad("%s", canon.Reason(err))
		}
		set(&c.TurnDeadlineMS, o.TurnDeadlineMS)
		set(&c.AwayDeadlineMS, o.AwayDeadlineMS)
		set(&c.DiscussionRounds, o.DiscussionRounds)
		set(&c.MaxRounds, o.MaxRounds)
		set(&c.DoctorSelfProtect, o.DoctorSelfProtect)
		set(&c.DoctorRepeat, o.DoctorRepeat)
		set(&c.StrikesLimit, o.StrikesLimit)
		set(&c.MaxMessageChars, o.MaxMessageChars)
		set(&c.Roles, o.Roles)
		awaySet = awaySet || o.AwayDeadlineMS != nil
	}
	if s.Pace.Move < 0 || s.Pace.Steps["turn"] < 0 || s.Pace.Steps["away"] < 0 {
		return bad("negative pace")
	}
	if d := s.Pace.Step("turn"); d > 0 {
		c.TurnDeadlineMS = d.Milliseconds()
	}
	if d := s.Pace.Steps["away"]; d > 0 {
		c.AwayDeadlineMS = d.Milliseconds()
	}
	if !awaySet && c.AwayDeadlineMS > c.TurnDeadlineMS {
		c.AwayDeadlineMS = c.TurnDeadlineMS // a turn shorter than the away deadline: away changes nothing
	}
	r := c.Roles
	switch {
	case c.TurnDeadlineMS < 1 || c.TurnDeadlineMS > maxDeadlineMS:
		return bad("turn_deadline_ms %d: 1 to %d", c.TurnDeadlineMS, maxDeadlineMS)
	case c.AwayDeadlineMS < 1 || c.AwayDeadlineMS > c.TurnDeadlineMS:
		return bad("away_deadline_ms %d: 1 to turn_deadline_ms (%d)", c.AwayDeadlineMS, c.TurnDeadlineMS)
	case c.DiscussionRounds < 0 || c.DiscussionRounds > maxDiscussionRounds:
		return bad("discussion_rounds %d: 0 to %d", c.DiscussionRounds, maxDiscussionRounds)
	case c.MaxRounds < 1 || c.MaxRounds > maxRoundsCap:
		return bad("max_rounds %d: 1 to %d", c.MaxRounds, maxRoundsCap)
	case c.StrikesLimit < 1 || c.StrikesLimit > 100:
		return bad("strikes_limit %d: 1 to 100", c.StrikesLimit)
	case c.MaxMessageChars < 1 || c.MaxMessageChars > breakroom.DefaultMessageChars:
		return bad("max_message_chars %d: 1 to %d", c.MaxMessageChars, breakroom.DefaultMessageChars)
	case r.Wolf < 1 || r.Seer < 0 || r.Seer > 1 || r.Doctor < 0 || r.Doctor > 1 || r.Villager < 0:
		return bad("roles %+v: at least 1 wolf, at most 1 seer and 1 doctor", r)
	case r.Total() != seats:
		return bad("roles %+v deal %d seats, the table has %d", r, r.Total(), seats)
	case 2*r.Wolf >= seats:
		return bad("roles %+v: the wolves must be fewer than the other seats", r)
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
	if err != nil { // unreachable: small integers and booleans
		return json.RawMessage(`{}`)
	}
	return b
}

// Info is Werewolf's catalogue row (§1.1): table size 7, 5 to 8 players, werewolf-0.1, 20 s.
func (Engine) Info() breakroom.GameInfo {
	return breakroom.GameInfo{
		ID: GameID, Name: Name, Summary: Summary, RulesVersion: RulesVersion,
		TableSize: TableSize, MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
		DeadlineMS: DefaultConfig(TableSize).TurnDeadlineMS, Rules: RulesText, Wire: OnTheWire(),
	}
}
