package warden

import (
	"encoding/json"
	"time"

	"arena/games"
	"arena/storage"
)

// matchMsg is a request for one match's actor.
type matchMsg interface{ match() string }

// begin starts a match's actor (Warden.Begin).
type begin struct{ Match string }

// ActRequest is one action (§7.2): seat 1 (A) or 2 (B), the round it names, the action and its
// args (a JSON object). Keep, when set, stores the caller's Idempotency-Key answer in the same
// transaction as the action (an error from it aborts the action); it runs on the actor's
// goroutine and must only write to tx.
type ActRequest struct {
	Match  string
	Seat   int
	Round  int
	Action string
	Args   json.RawMessage
	Keep   func(tx storage.WardenTx, out ActReply) error
}

// ActReply is an accepted action: the last transcript seq once it is in and when the step now
// open closes (wall; zero when none is open).
type ActReply struct {
	Accepted     bool      `json:"accepted"`
	Seq          int64     `json:"seq"`
	StepClosesAt time.Time `json:"-"`
}

type viewRequest struct {
	Match  string
	Viewer int
	After  int64
}

type transcriptRequest struct{ Match string }

func (m *begin) match() string             { return m.Match }
func (m *ActRequest) match() string        { return m.Match }
func (m *viewRequest) match() string       { return m.Match }
func (m *transcriptRequest) match() string { return m.Match }

// deadlineFired is a match's timer: the deadline of (Round, Step) armed with generation Gen.
type deadlineFired struct {
	Round int
	Step  string
	Gen   uint64
}

// reply carries a match actor's answer or refusal back to the caller.
type reply struct {
	V   any
	Err error
}

// Seat is one seat of a view: its Contender as fixed at match start.
type Seat struct {
	ContenderID string `json:"contender_id"`
	Name        string `json:"name"`
	Temperament string `json:"temperament"`
}

// Move is one legal move of the private view: the action, its bounds and the round and step
// it is for (§9.1 legal_moves).
type Move struct {
	Round  int          `json:"round"`
	Step   string       `json:"step"`
	Action games.Action `json:"action"`
}

// View is a match as one viewer may see it now (§9.1, §9.2). Every member is safe for that
// viewer: State is the engine's own View, Events the engine events the viewer may read (for
// a seat) after the asked seq, Log the public log (for the public).
type View struct {
	Match        string          `json:"match_id"`
	Game         string          `json:"game"`
	RulesVersion string          `json:"rules_version"`
	Status       string          `json:"status"`
	Seat         string          `json:"seat,omitempty"` // "A" or "B" for a seat's view
	Seats        [2]Seat         `json:"-"`
	Stake        int64           `json:"stake"`
	SeedHash     string          `json:"seed_hash"`
	Round        int             `json:"round"`
	Step         string          `json:"step"`
	Deadline     time.Time       `json:"-"` // wall; zero when nothing is open
	State        games.Doc       `json:"state"`
	Legal        []Move          `json:"legal_moves,omitempty"`
	Events       []games.Event   `json:"events,omitempty"`
	LastSeq      int64           `json:"last_seq"`
	Log          []Envelope      `json:"log,omitempty"`
	Settlement   *Settlement     `json:"-"`
	Changed      <-chan struct{} `json:"-"` // closed at the match's next change (long poll)
}
