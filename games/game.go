// Package games holds the rules of every game the arena hosts and the contract they share.
//
// Rules are pure: nothing under games/ starts a goroutine, reads a clock, does I/O or draws
// randomness except from the seed it is handed. Time enters as a value (now), so the same
// Setup and the same inputs at the same instants give the same transcript, byte for byte.
// Actors (actors/) own time and persistence; doors (transport/) only translate.
//
// Adding a game is one Engine plus its Manifest registered in a Bracket: the table actor and
// settlement code drive the Match interface below and never special-case a game.
package games

import (
	"crypto/ed25519"
	"encoding/json"
	"slices"
	"time"
)

// Manifest describes a game to the Bracket (the registry of games, warden-rulebook "Bracket").
type Manifest struct {
	ID      string   `json:"id"`      // registry key: "blitz", "dilemma", ...
	Name    string   `json:"name"`    // display name
	Version int      `json:"version"` // protocol version of the game's bodies (DOTDOTDOT: 1)
	Formats []Format `json:"formats"` // at least one; the first is the default
}

// Format is one playable shape of a game (§5.6 for Blitz): seat range and counts of turns and
// exchanges. Engines read these from the format, never assume them.
type Format struct {
	Name      string `json:"name"`
	MinSeats  int    `json:"min_seats"`
	MaxSeats  int    `json:"max_seats"`
	Turns     int    `json:"turns"`
	Exchanges int    `json:"exchanges"` // talk exchanges per turn; 0 for games without talk
}

// Seat is one player at a match as the table knows it at seating: what every game needs of a
// seat. What only one game reads of a seat (Blitz: its kind, walk-in, human and collateral) is
// that game's per-seat Options, which its engine decodes into its own type, as it does
// Setup.Options.
type Seat struct {
	Seat  int    `json:"seat"`  // 1..N
	Agent string `json:"agent"` // CAIP-19 agent id (Badge); a walk-in's lent house Badge
	Name  string `json:"name"`  // display name (the card's name wins, §4.2)
	Entry int64  `json:"entry"` // the seat's stake, in the match's unit (Result.Unit)
	// Options are the game's own options for this seat, a JSON object the engine decodes (Blitz:
	// blitz.SeatOptions); empty for a game that has none.
	Options json.RawMessage `json:"options,omitempty"`
}

// legacySeatMembers are the members records written before Seat.Options carried at the top of
// a seat; UnmarshalJSON moves them into Options, where Blitz's seat options read them.
var legacySeatMembers = []string{"kind", "human", "walkin", "collateral", "rating"}

// UnmarshalJSON reads the form above and the one records written before Options carry: their
// "kind", "human", "walkin", "collateral" and "rating" members, when Options is absent, become
// Options (a JSON object of those members as written), so a stored table restores to the seat
// it was seated with.
func (s *Seat) UnmarshalJSON(b []byte) error {
	type plain Seat
	var v struct {
		plain
		Kind       json.RawMessage `json:"kind"`
		Human      json.RawMessage `json:"human"`
		Walkin     json.RawMessage `json:"walkin"`
		Collateral json.RawMessage `json:"collateral"`
		Rating     json.RawMessage `json:"rating"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Seat(v.plain)
	if len(s.Options) > 0 {
		return nil
	}
	var opts []byte
	for i, raw := range []json.RawMessage{v.Kind, v.Human, v.Walkin, v.Collateral, v.Rating} {
		if raw == nil {
			continue
		}
		if opts == nil {
			opts = append(opts, '{')
		} else {
			opts = append(opts, ',')
		}
		opts = append(append(append(append(opts, '"'), legacySeatMembers[i]...), `":`...), raw...)
	}
	if opts != nil {
		s.Options = append(opts, '}')
	}
	return nil
}

// Pace is the clock a match runs on. Durations are given to the rules as values; the actor
// that owns the match turns them into timers. Steps are the lengths of a game's own steps by
// name (Blitz: "scouting", "talk" per exchange, "commit", "settle"; Game II: "commit",
// "reveal"); Move is the length of any step Steps does not name; a zero Pace selects the game's
// own defaults. CloseEarly closes a step as soon as every seat has answered (several open
// prompts are simultaneous moves).
type Pace struct {
	Name       string                   `json:"name"`            // "agent" (§5.3) or "chat" (§4.5)
	Move       time.Duration            `json:"move,omitempty"`  // a step Steps does not name
	Steps      map[string]time.Duration `json:"steps,omitempty"` // by the game's step name
	CloseEarly bool                     `json:"close_early"`
}

// Step is the length of the step named name: Steps' entry when positive, else Move (0 when
// neither is set: the game's default).
func (p Pace) Step(name string) time.Duration {
	if d := p.Steps[name]; d > 0 {
		return d
	}
	return p.Move
}

// IsZero says p sets nothing: the game's defaults, on the clock that keeps steps open.
func (p Pace) IsZero() bool {
	return p.Name == "" && p.Move == 0 && len(p.Steps) == 0 && !p.CloseEarly
}

// UnmarshalJSON reads the form above and the one records written before Steps carry: its
// "scouting", "talk", "commit" and "settle" members become Steps.
func (p *Pace) UnmarshalJSON(b []byte) error {
	type plain Pace
	var v struct {
		plain
		Scouting time.Duration `json:"scouting"`
		Talk     time.Duration `json:"talk"`
		Commit   time.Duration `json:"commit"`
		Settle   time.Duration `json:"settle"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Pace(v.plain)
	for name, d := range map[string]time.Duration{"scouting": v.Scouting, "talk": v.Talk, "commit": v.Commit, "settle": v.Settle} {
		if d == 0 {
			continue
		}
		if p.Steps == nil {
			p.Steps = map[string]time.Duration{}
		}
		if _, set := p.Steps[name]; !set {
			p.Steps[name] = d
		}
	}
	return nil
}

// Setup is everything a new match is made from. It is plain data so it can be persisted and
// replayed.
type Setup struct {
	Game    string          `json:"game"`
	Format  string          `json:"format"`
	Round   string          `json:"round"` // "T-<n>"
	Arena   string          `json:"arena"` // the arena instance's agent id (§3)
	Seed    [32]byte        `json:"seed"`  // the only source of randomness
	Start   time.Time       `json:"start"` // the instant the match is created
	Seats   []Seat          `json:"seats"`
	Pace    Pace            `json:"pace"`
	Options json.RawMessage `json:"options,omitempty"` // game-specific (Blitz: fixed mole/task)
}

// Keyring gives a match the keys it needs without doing key resolution itself (§4.1 is the
// caller's job). PublicKey is the resolved signing key of a seat. Sign is used only for walk-in
// seats, whose keys the arena holds and whose commitments it signs (§4.4); it signs the given
// bytes with ed25519 and must be deterministic.
type Keyring interface {
	PublicKey(seat int) (ed25519.PublicKey, bool)
	Sign(seat int, msg []byte) ([]byte, error)
}

// Move identifies one move of a match: the phase a prompt belongs to. Answers echo it; an
// answer for any other move is stale (§4.4, §13). StateID is the generic stale check of games
// whose moves a phase does not name (boardgame.io's stateID, Break Room's round and turn): a game
// that sets it numbers its states and refuses an answer carrying another; zero (Blitz, Game II)
// means the phase alone names the move.
type Move struct {
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange,omitempty"`
	StateID  uint64 `json:"state_id,omitempty"`
}

// Input is anything a seat (or its human) sends a match. Kind "answer" is the answer to the
// open Move; other kinds are game-defined out-of-turn inputs (Blitz levers: "call", "veto",
// "accuse"), for which Move is zero.
type Input struct {
	Seat int             `json:"seat"`
	Kind string          `json:"kind"`
	Move Move            `json:"move"`
	Body json.RawMessage `json:"body"`
	// House says the answer is the engine's own house policy's (HousePlayer.HouseAnswer), played
	// by the runtime for a seat it plays itself (actors' house channel), not the seat's own
	// agent: a game may say so in its transcript (Blitz §15 agent.scripted). Only the runtime
	// sets it; a door never does.
	House bool `json:"house,omitempty"`
}

// Prompt asks one seat for one move. It is Break Room's your_turn and Blitz's envelope less the
// arena's signature: State is the seat's visible state (Blitz §5.4 state object; Break Room
// visible_state), a JSON object held as a Doc so prompts can share the bytes they have in common
// (Blitz's public log); Legal the actions legal now, with their bounds; Inbox what reached the
// seat since its last prompt. Several prompts open at once are simultaneous moves.
type Prompt struct {
	Seat     int               `json:"seat"`
	Move     Move              `json:"move"`
	Deadline time.Time         `json:"deadline"`
	Legal    []Action          `json:"legal"`
	State    Doc               `json:"state"`
	Inbox    []json.RawMessage `json:"inbox"`
	// View is the game's own reading of State for a player in the same process (its house
	// policy, HousePlayer), so that player need not parse the JSON the game just wrote. It is
	// never serialised or sent, and is nil on a prompt that came from elsewhere (decoded from
	// JSON): a policy must then read State, and answer the same either way.
	View any `json:"-"`
}

// Event is one line of the transcript (§15). At is the instant the rules were given when the
// event was made. Visibility is who may read it and when (visibility.go: "public",
// "private:<seat>[,<seat>…]", "sealed", each revealed at the end unless it says ":never").
type Event struct {
	Seq        int64           `json:"seq"`
	Round      string          `json:"round"`
	Turn       int             `json:"turn"`
	Phase      string          `json:"phase"`
	At         string          `json:"at"` // RFC 3339 UTC, millisecond precision
	Type       string          `json:"type"`
	Visibility Visibility      `json:"visibility"`
	Payload    json.RawMessage `json:"payload"`
}

// Step is what one call into a match produced: the events to persist and publish, the prompts to
// deliver, and for Act a game-specific reply to the sender (Blitz walk-ins: dropped[]).
type Step struct {
	Events  []Event         `json:"events"`
	Prompts []Prompt        `json:"prompts"`
	Anchors []AnchorRequest `json:"anchors,omitempty"`
	Reply   json.RawMessage `json:"reply,omitempty"`
}

// AnchorRequest asks the table to anchor a hash on chain (§5.5). The table hands it to the chain
// actor, which answers at once with the transaction hash; the table then records it by calling
// Act with Input{Kind: "anchored", Body: AnchoredBody}, which appends the anchor.<kind> event.
type AnchorRequest struct {
	Kind string   `json:"kind"` // "exchange", "commitment", "turn", "opened", "replay", "transcript"
	Seq  uint32   `json:"seq"`  // the round's anchor numbering from 1 (§5.5)
	Hash [32]byte `json:"hash"`
}

// AnchoredBody is the body of an "anchored" input: the request and its transaction hash (hex).
type AnchoredBody struct {
	Kind string `json:"kind"`
	Seq  uint32 `json:"seq"`
	Hash string `json:"hash"` // hex of AnchorRequest.Hash
	Tx   string `json:"tx"`   // transaction hash, hex
}

// Result is a finished (or abandoned) match.
//
// Standings list every seat best first (Break Room match_end.ranking). A Standing's Score is the
// one number the ranking is by, higher first, with one meaning in every game: in a game with
// stakes, the seat's net result in Unit, its payout less its stake (Payouts[seat] − Seat.Entry;
// Blitz and Game II); in a game without, its own points (Break Room Inference: credits). Seats
// with equal Scores share a Rank (1, 1, 3), in seat order (Rank).
//
// Payouts are the gross payouts per seat and House the house's take, both in Unit, as the rules
// award them: what each seat is paid back out of the stakes (Blitz §11.3: collateral and budget
// left; Game II: its share of the pot), before any rake settlement takes on top (warden-games
// §2.2). For every game, Σ Payouts + House = Σ stakes (Seat.Entry). Seed and SeedHash are the
// revealed seed (hex) and its commitment ("sha256:<hex>", SeedHash()).
//
// Pool, optional, is the part of a seat's payout its rules send to the house's prize pool
// rather than back to whoever staked the seat (DOTDOTDOT §11.3: arena agents' collateral gains
// go to the season pool). It lies within Payouts, never beside them: 0 < Pool[seat] ≤
// Payouts[seat], and a seat with none is absent.
//
// A door writes its protocol's own result object from a Result (DOTDOTDOT's walk-in result,
// Break Room's match_end); the JSON here is the store's.
type Result struct {
	Standings      []Standing      `json:"standings"`
	Unit           string          `json:"unit"` // "microCCD", "micro-USDC", "chips", ...
	Payouts        map[int]int64   `json:"payouts"`
	House          int64           `json:"house"`
	SeedHash       string          `json:"seed_hash"` // committed before play: "sha256:<hex>"
	Seed           string          `json:"seed"`      // revealed: hex
	TranscriptHash string          `json:"transcript_hash"`
	Reveal         json.RawMessage `json:"reveal,omitempty"`    // game-specific reveal object
	Abandoned      string          `json:"abandoned,omitempty"` // Abandon's reason; empty for a match played out
	// Places, optional, are places a game publishes for display beside its payouts (the
	// DOTDOTDOT chat seat writes "(place N)" for each); Standings rank whether or not it does.
	Places map[int]int `json:"places,omitempty"`
	// Pool is each seat's part of its payout that goes to the prize pool (see above).
	Pool map[int]int64 `json:"pool,omitempty"`
}

// Standing is one seat's place in a Result.
type Standing struct {
	Seat  int     `json:"seat"`
	Rank  int     `json:"rank"`  // 1-based; equal Scores share a rank
	Score float64 `json:"score"` // net result in Result.Unit, or points (Result)
}

// Rank orders seats by score, higher first, seats in order on equal scores, and gives equal
// scores one rank (standard competition ranking: 1, 1, 3). It is how a game fills
// Result.Standings.
func Rank(scores map[int]float64) []Standing {
	out := make([]Standing, 0, len(scores))
	for seat, sc := range scores {
		out = append(out, Standing{Seat: seat, Score: sc})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return a.Seat - b.Seat
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Score == out[i-1].Score {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// Place is seat's Rank in r, and false when r does not rank it.
func (r Result) Place(seat int) (int, bool) {
	for _, s := range r.Standings {
		if s.Seat == seat {
			return s.Rank, true
		}
	}
	return 0, false
}

// ScoreOf is seat's Score in r (0 when r does not rank it).
func (r Result) ScoreOf(seat int) float64 {
	for _, s := range r.Standings {
		if s.Seat == seat {
			return s.Score
		}
	}
	return 0
}

// Ranking is the seats of r's Standings, best first.
func (r Result) Ranking() []int {
	out := make([]int, len(r.Standings))
	for i, s := range r.Standings {
		out[i] = s.Seat
	}
	return out
}

// Match is one running match. It is not safe for concurrent use: exactly one actor owns it.
// Every method is pure in the sense of the package doc: its output depends only on the Setup,
// the inputs and the instants given so far.
type Match interface {
	// Act applies one input at instant now. A refusal is an *Error carrying the protocol's code;
	// on error the match is unchanged. The match may keep in.Body (an input log holds the inputs
	// until they are journaled or snapshotted), so the caller hands the bytes over and must not
	// change them afterwards, as with any actor message; a caller that reuses a buffer passes a
	// copy.
	Act(now time.Time, in Input) (Step, error)
	// Advance applies every deadline at or before now (phase closes, settlements) and opens
	// what follows. Calling it early is harmless: it returns an empty Step.
	Advance(now time.Time) Step
	// Deadline is the next instant Advance must be called at; false once the match is done.
	Deadline() (time.Time, bool)
	// Prompts are the moves open now, for redelivery after a restart.
	Prompts() []Prompt
	// View is what viewer may see of the match now (boardgame.io's playerView; Break Room's
	// state reply): a seat's visible state for viewer ≥ 1 (its open prompt's State when it has
	// one), the spectators' for 0. It never holds a sealed or another seat's private value before
	// its reveal (the conformance suite, games/gametest, checks). A seat the match does not have
	// sees what a spectator sees.
	View(viewer int) Doc
	// Abandon ends the match early at now (Break Room match_abandoned: a shutdown, an operator):
	// the step's events close the transcript, and Result is then the standings so far with
	// Abandoned = reason and the seed revealed (every stake back: Payouts are the stakes, House
	// 0). A match already done is left as it is and returns an empty Step.
	Abandon(now time.Time, reason string) Step
	// SeedHash commits to the seed before play (Break Room seed_hash).
	SeedHash() string
	// Result is the outcome once the match is done (or abandoned).
	Result() (Result, bool)
}

// Engine makes matches of one game. A match comes back after a restart by Replay of the table's
// input log (replay.go); a game needs nothing more to be hosted.
//
// New makes no events: a new match's Deadline is Setup.Start, and its opening events and first
// prompts come from the first Advance(now ≥ Start). So the caller persists and publishes every
// event the same way, from a Step.
type Engine interface {
	Manifest() Manifest
	New(s Setup, keys Keyring) (Match, error)
}
