package actors

import (
	"context"
	"crypto/ed25519"
	"errors"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"

	"arena/games"
	"arena/storage"
)

// Options wire an Arena. DB, Bracket and InstanceKey are required; every other zero value works.
type Options struct {
	DB      *storage.Store
	Bracket *games.Bracket
	// Clock is the time source (nil: the wall clock).
	Clock  Clock
	Logger *slog.Logger // nil: discard
	// InstanceKey signs every envelope (§4) and is the master from which house keys are derived
	// (keys.go). InstanceAgent is the instance's own agent id (§3), Setup.Arena of every match.
	InstanceKey   ed25519.PrivateKey
	InstanceAgent string
	// Metrics receives the arena's collectors (nil: not registered anywhere).
	Metrics prometheus.Registerer
	// Anchorer takes anchor requests to the chain actor (nil: NopAnchorer).
	Anchorer Anchorer
	// Agents calls BYO agents over A2A for "a2a" seats (nil: such seats stay silent).
	Agents AgentCaller
	// Keys resolves BYO agents' keys (nil: BYO seats have no key).
	Keys KeyResolver
	// AskTimeout bounds every façade call whose ctx has no deadline (zero: 5 s).
	AskTimeout time.Duration
	// MaxRestarts is how many panics a table survives within RestartWindow before it is parked
	// as failed whatever the input (zero: 5 within 1 minute). The same input panicking twice
	// parks it at once (isolation rule, supervisor.go).
	MaxRestarts   int
	RestartWindow time.Duration
}

// Table statuses (TableInfo.Status).
const (
	StatusLive     = "live"     // playing (or waiting for its first move)
	StatusFinished = "finished" // the round is over and revealed
	StatusFailed   = "failed"   // parked after a panic repeated on the same input; ops restart it
	StatusStopped  = "stopped"  // stopped by an operator; ops restart it
)

// TableInfo is one line of the ops table list (issue 3 "Ops").
type TableInfo struct {
	ID        string     `json:"id"`
	Game      string     `json:"game"`
	Format    string     `json:"format,omitempty"`
	Kind      string     `json:"kind,omitempty"`
	Round     string     `json:"round"`
	Turn      int        `json:"turn"`
	Phase     string     `json:"phase"`
	Status    string     `json:"status"`
	Seats     []SeatInfo `json:"seats"`
	LastError string     `json:"last_error,omitempty"`
	Restarts  int        `json:"restarts"` // panics survived since the last ops restart
	Created   time.Time  `json:"created"`
	Updated   time.Time  `json:"updated"`
}

// SeatInfo is one seat in TableInfo.
type SeatInfo struct {
	Seat    int    `json:"seat"`
	Agent   string `json:"agent"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Channel string `json:"channel"`
}

// Arena is the running supervision tree. Its methods are safe for concurrent use; each Asks
// an actor with a timeout from ctx's deadline (or Options.AskTimeout).
type Arena struct {
	opts   Options
	system *actor.ActorSystem
	root   *actor.PID // arena
	tables *actor.PID // arena/tables
}

// Start builds the actor system, spawns arena → tables, and respawns every live table found in
// storage (boot recovery): each resumes from its snapshot and a deadline that passed while the
// server was down fires at once.
func Start(opts Options) (*Arena, error) {
	if opts.DB == nil || opts.Bracket == nil || len(opts.InstanceKey) != ed25519.PrivateKeySize {
		return nil, errors.New("actors: start: DB, Bracket and a 64-byte InstanceKey are required")
	}
	return nil, errors.New("actors: start: not implemented yet")
}

// Shutdown stops every table (draining their mailboxes) and the actor system. It does not
// close the store. Tables stopped this way stay live in storage and resume on the next Start.
func (a *Arena) Shutdown(ctx context.Context) error { return ErrClosed }

// OpenTable validates spec against its game, allocates the round id ("T-<n>"), commits the new
// table record (status live) and spawns the table actor, which opens the first phase. It fails
// with ErrBadSpec (wrapping the game's refusal), ErrTableExists, or a storage error.
func (a *Arena) OpenTable(ctx context.Context, spec TableSpec) (round string, err error) {
	return "", ErrClosed
}

// Submit hands one input to its table and returns the table's reply once the resulting step is
// committed. A refusal by the game comes back in the reply (Code, e.g. "stale"), not as err; err
// is ErrNoTable, ErrTableDown, ErrTimeout or ErrClosed. An input for a finished table answers
// Code "round_over".
func (a *Arena) Submit(ctx context.Context, m SubmitAnswer) (SubmitAnswerReply, error) {
	return SubmitAnswerReply{}, ErrClosed
}

// Transcript returns the committed events of round in seq order. Before the reveal
// (revealed=false) only "public" events are returned; after it, every event (§11.4). Unknown
// round: ErrNoRound.
func (a *Arena) Transcript(ctx context.Context, round string) (events []games.Event, revealed bool, err error) {
	return nil, false, ErrClosed
}

// Tables lists every table known to storage, by id.
func (a *Arena) Tables(ctx context.Context) ([]TableInfo, error) { return nil, ErrClosed }

// RestartTable restores table id from its last snapshot: a running actor is stopped first, a
// failed or stopped table is set live again (its panic count cleared). ErrNoTable if unknown;
// a finished table is not restarted (ErrBadSpec).
func (a *Arena) RestartTable(ctx context.Context, id string) error { return ErrClosed }

// StopTable stops table id's actor (queued messages are processed first) and marks it stopped,
// so boot recovery leaves it alone. ErrNoTable if unknown.
func (a *Arena) StopTable(ctx context.Context, id string) error { return ErrClosed }

// System is the actor system, for actors spawned outside the tree (the walk-in desk).
func (a *Arena) System() *actor.ActorSystem { return a.system }

// TablePID is the stable address of table id's actor ("arena/tables/table-<id>"), alive or not.
func (a *Arena) TablePID(id string) *actor.PID {
	return actor.NewPID(a.system.Address(), "arena/tables/table-"+id)
}
