package actors

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors/internal/ask"
	"arena/actors/ledger"
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
	// InstanceKey is the instance's signing key, for the channels that sign what they deliver
	// (Arena.InstanceKey). InstanceAgent is the instance's own agent id, Setup.Arena of every match.
	InstanceKey   ed25519.PrivateKey
	InstanceAgent string
	// Metrics receives the arena's collectors (nil: not registered anywhere).
	Metrics prometheus.Registerer
	// Anchorer takes every table's anchor requests to the chain actor, which answers them (nil:
	// NopAnchorer); a product's Anchorer hears its own tables' after it.
	Anchorer Anchorer
	// Channels names the actor (its PID Id) of each channel that has one actor for all its
	// seats, by channel name (SeatSpec.Channel): seats of that channel with no Mailbox of their
	// own deliver their prompts there (channels.go). Spawn those actors in BeforeRecover. A
	// product's channels are its own (Product.Channels), joined to these.
	Channels map[string]string
	// Keys gives each table its seats' keyring (keys.go) when the product that owns its game
	// gives none (nil: no seat of such a table has a key).
	Keys KeyProvider
	// Products are the protocols' products sharing this runtime (products.go): each owns its
	// games' tables and hears only their statuses and anchors.
	Products []Product
	// AskTimeout bounds every façade call whose ctx has no deadline (zero: 5 s).
	AskTimeout time.Duration
	// MaxRestarts is how many panics a table survives (since its last ops restart) before it is
	// parked as failed whatever the input (zero: 5). The same input panicking twice in a row
	// parks it at once (isolation rule, supervisor.go).
	MaxRestarts int
	// OnEvents, when set, is called by a table with each committed step's events, after the
	// commit and on the table's goroutine: it must not block (hand off to a channel or actor).
	OnEvents func(table, round string, events []games.Event)
	// OnStatus, when set, is called whenever any table's status changes (live, finished, failed,
	// stopped), from whichever goroutine changed it, before the table's product hears it
	// (Product.OnStatus): it must not block.
	OnStatus func(table, status string)
	// BeforeRecover, when set, runs after the actor system and the ledger exist, before the
	// products' (Product.BeforeRecover) and before any table is spawned: spawn here what every
	// product uses (the chain actor) and the actors tables deliver to. An error aborts Start.
	BeforeRecover func(a *Arena) error

	samples *benchSamples // RunBench: raw timer lateness and commit latency
}

// Table statuses (TableInfo.Status).
const (
	StatusLive     = "live"     // playing (or waiting for its first move)
	StatusFinished = "finished" // the round is over and revealed
	StatusFailed   = "failed"   // parked after a panic repeated on the same input; ops restart it
	StatusStopped  = "stopped"  // stopped by an operator; ops restart it
)

// TableInfo is one line of the ops table list (transport/ops: GET /ops/tables).
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
	env    *env
	system *actor.ActorSystem
	root   *actor.PID // arena
	tables *actor.PID // arena/tables
	ledger *ledger.Ledger
	closed atomic.Bool
	ready  chan struct{} // closed once boot recovery has run (Ready)
}

// Ready is closed once Start has restored every live table (boot recovery has run). Code that
// runs in Options.BeforeRecover and opens a table later (a protocol taking up a table it had
// begun to open before a restart) waits for it: before then there is no tables actor to open it,
// and boot recovery would take a table it had just created for its own.
func (a *Arena) Ready() <-chan struct{} { return a.ready }

// Start builds the actor system, spawns the ledger (the store's one money actor: Ledger), runs
// Options.BeforeRecover and each product's BeforeRecover, spawns arena → tables, and respawns every
// live table found in storage (boot recovery): each resumes from its snapshot and a deadline that
// passed while the server was down fires at once. Products that claim one game or channel twice
// fail it.
func Start(opts Options) (*Arena, error) {
	if opts.DB == nil || opts.Bracket == nil || len(opts.InstanceKey) != ed25519.PrivateKeySize {
		return nil, errors.New("actors: start: DB, Bracket and a 64-byte InstanceKey are required")
	}
	if opts.Clock == nil {
		opts.Clock = RealClock()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.AskTimeout <= 0 {
		opts.AskTimeout = 5 * time.Second
	}
	if opts.MaxRestarts <= 0 {
		opts.MaxRestarts = 5
	}
	ps, channels, err := productsOf(opts)
	if err != nil {
		return nil, fmt.Errorf("actors: start: %w", err)
	}
	m, err := newMetrics(opts.Metrics)
	if err != nil {
		return nil, fmt.Errorf("actors: start: register metrics: %w", err)
	}
	m.samples = opts.samples
	e := &env{store: opts.DB, bracket: opts.Bracket, clock: opts.Clock, log: opts.Logger,
		key: opts.InstanceKey, agent: opts.InstanceAgent, keys: opts.Keys, anchorer: opts.Anchorer, products: ps,
		channels: channels, m: m, maxRestarts: opts.MaxRestarts, onEvents: opts.OnEvents, onStatus: opts.OnStatus}
	m.onStatus = e.status
	if e.anchorer == nil {
		e.anchorer = NopAnchorer{}
	}
	_, nop := e.anchorer.(NopAnchorer)
	e.countAnchor = !nop
	log := opts.Logger
	sys := actor.NewActorSystem(
		actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log.With("lib", "protoactor") }),
		actor.WithDeadLetterThrottleCount(3), actor.WithDeadLetterRequestLogging(false))
	a := &Arena{opts: opts, env: e, system: sys, tables: actor.NewPID(sys.Address(), "arena/tables"), ready: make(chan struct{})}
	a.ledger, err = ledger.Start(sys, opts.DB, ledger.Options{Now: opts.Clock.Now, AskTimeout: opts.AskTimeout,
		Logger: log.With("component", "ledger")})
	if err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("actors: start: %w", err)
	}
	if opts.BeforeRecover != nil {
		if err := opts.BeforeRecover(a); err != nil {
			sys.Shutdown()
			return nil, fmt.Errorf("actors: start: %w", err)
		}
	}
	if err := ps.beforeRecover(a); err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("actors: start: %w", err)
	}
	a.root, err = sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &rootActor{env: e} }),
		"arena")
	if err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("actors: start: spawn arena: %w", err)
	}
	// The ping is answered by "tables" once its Started (boot recovery) has run.
	if _, err := sys.Root.RequestFuture(a.root, &ping{}, 30*time.Second).Result(); err != nil {
		_ = sys.Root.PoisonFuture(a.root).Wait()
		sys.Shutdown()
		return nil, fmt.Errorf("actors: start: tables supervisor: %w", err)
	}
	close(a.ready)
	return a, nil
}

// Shutdown stops every table (draining their mailboxes) and the actor system. It does not
// close the store. Tables stopped this way stay live in storage and resume on the next Start.
func (a *Arena) Shutdown(ctx context.Context) error {
	if a.closed.Swap(true) {
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- a.system.Root.PoisonFuture(a.root).Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if !a.system.IsStopped() { // a cluster member's Leave has stopped it already
		a.system.Shutdown()
	}
	if err != nil {
		return fmt.Errorf("actors: shutdown: %w", err)
	}
	return nil
}

// OpenTable validates spec against its game, allocates the round id ("T-<n>"), commits the new
// table record (status live) and spawns the table actor, which opens the first phase. It fails
// with ErrBadSpec (wrapping the game's refusal, or a seat whose channel has no actor),
// ErrTableExists, or a storage error. Options.Keys makes the table's keyring and may name seats
// with no Agent (KeyProvider.Open).
func (a *Arena) OpenTable(ctx context.Context, spec TableSpec) (round string, err error) {
	if a.closed.Load() {
		return "", ErrClosed
	}
	if !validTableID(spec.ID) {
		return "", fmt.Errorf("%w: table id %q (1 to 128 of A-Z a-z 0-9 . _ : -)", ErrBadSpec, spec.ID)
	}
	if spec.Round != "" {
		if !validTableID(spec.Round) {
			return "", fmt.Errorf("%w: round id %q (1 to 128 of A-Z a-z 0-9 . _ : -)", ErrBadSpec, spec.Round)
		}
		if _, err := a.env.store.RoundTable(spec.Round); err == nil {
			return "", fmt.Errorf("%w: round %s is taken", ErrTableExists, spec.Round)
		}
	}
	eng, ok := a.env.bracket.Engine(spec.Game)
	if !ok {
		return "", fmt.Errorf("%w: unknown game %q", ErrBadSpec, spec.Game)
	}
	spec.Seats = append([]SeatSpec(nil), spec.Seats...)
	seen := map[int]bool{}
	for i := range spec.Seats {
		s := &spec.Seats[i]
		if s.Seat.Seat < 1 || seen[s.Seat.Seat] {
			return "", fmt.Errorf("%w: seat number %d (1.., unique)", ErrBadSpec, s.Seat.Seat)
		}
		seen[s.Seat.Seat] = true
		if s.Channel != ChannelHouse && s.Actor == "" && a.env.channels[s.Channel] == "" {
			return "", fmt.Errorf("%w: seat %d: channel %q has no actor (no mailbox, not in Options.Channels or a product's)",
				ErrBadSpec, s.Seat.Seat, s.Channel)
		}
	}
	keys, byo, err := a.env.openKeys(ctx, spec.Game, spec.ID, spec.Seats)
	if err != nil {
		return "", err
	}

	var seed [32]byte
	switch len(spec.Seed) {
	case 32:
		copy(seed[:], spec.Seed)
	case 0:
		if _, err := rand.Read(seed[:]); err != nil {
			return "", fmt.Errorf("actors: open table %s: seed: %w", spec.ID, err)
		}
	default:
		return "", fmt.Errorf("%w: seed of %d bytes (32 or none)", ErrBadSpec, len(spec.Seed))
	}
	spec.Seed = nil // the record keeps it once, as Seed
	now := a.env.clock.Now()
	setup := games.Setup{Game: spec.Game, Format: spec.Format, Arena: a.env.agent, Seed: seed,
		Start: now, Pace: spec.Pace, Options: spec.Options}
	for _, s := range spec.Seats {
		setup.Seats = append(setup.Seats, s.Seat)
	}
	// The round number, the id check and the first record are one transaction (CreateTable);
	// the game's refusal aborts it.
	n, err := a.env.store.CreateTable(spec.ID, "round", func(n uint64) ([]byte, string, error) {
		setup.Round = spec.Round
		if setup.Round == "" {
			setup.Round = "T-" + strconv.FormatUint(n, 10)
		}
		match, err := eng.New(setup, keys)
		if err != nil {
			return nil, "", &badSpecError{err}
		}
		head, err := json.Marshal(games.LogHead{V: 1, Setup: setup})
		if err != nil {
			return nil, "", fmt.Errorf("input log head: %w", err)
		}
		// The record carries the input log's head until the table's first commit moves it into
		// the log (restoreMatch).
		rec := &tableRecord{ID: spec.ID, Round: setup.Round, Spec: spec, Seed: hex.EncodeToString(seed[:]),
			BYO: byo, Status: StatusLive, Match: head, Journal: true, Created: now, Updated: now}
		if ps := match.Prompts(); len(ps) > 0 {
			rec.Turn, rec.Phase = ps[0].Move.Turn, ps[0].Move.Phase
		}
		return rec.encode(), setup.Round, nil
	})
	var bad *badSpecError
	switch {
	case errors.As(err, &bad):
		return "", fmt.Errorf("%w: %v", ErrBadSpec, bad.err)
	case errors.Is(err, storage.ErrExists):
		return "", fmt.Errorf("%w: %s", ErrTableExists, spec.ID)
	case err != nil:
		return "", err
	}
	round = spec.Round
	if round == "" {
		round = "T-" + strconv.FormatUint(n, 10)
	}
	a.env.m.roundsStarted.Inc()
	a.env.m.setStatus(spec.ID, spec.Game, StatusLive)
	if err := a.ask(ctx, a.tables, &spawnTable{ID: spec.ID}); err != nil {
		return "", err
	}
	return round, nil
}

// Submit hands one input to its table and returns the table's reply once the resulting step is
// committed. A refusal by the game comes back in the reply (Code, e.g. "stale"), not as err; err
// is ErrNoTable, ErrTableDown, ErrTimeout or ErrClosed. An input for a finished table answers
// Code "round_over".
func (a *Arena) Submit(ctx context.Context, m SubmitAnswer) (SubmitAnswerReply, error) {
	if a.closed.Load() {
		return SubmitAnswerReply{}, ErrClosed
	}
	if !validTableID(m.Table) {
		return SubmitAnswerReply{}, fmt.Errorf("%w: %q", ErrNoTable, m.Table)
	}
	res, err := a.system.Root.RequestFuture(a.TablePID(m.Table), &m, a.wait(ctx)).Result()
	if err != nil {
		// No answer: the table is not running (dead letter), or it was stopped or parked with
		// the message still queued (dropped: a timeout). The record says which.
		rec, lerr := a.record(m.Table)
		if lerr != nil {
			return SubmitAnswerReply{}, lerr
		}
		switch {
		case rec.Status == StatusFinished:
			return SubmitAnswerReply{Code: games.CodeRoundOver, Msg: "round " + rec.Round + " is over"}, nil
		case errors.Is(err, actor.ErrDeadLetter) || rec.Status != StatusLive:
			return SubmitAnswerReply{}, fmt.Errorf("%w: table %s is %s: %w", ErrTableDown, m.Table, rec.Status, err)
		}
		return SubmitAnswerReply{}, fmt.Errorf("%w: table %s: %v", ErrTimeout, m.Table, err)
	}
	r, ok := res.(*SubmitAnswerReply)
	if !ok {
		return SubmitAnswerReply{}, fmt.Errorf("actors: submit to table %s: unexpected reply %T", m.Table, res)
	}
	return *r, nil
}

// Transcript returns the committed events of round in seq order, as a spectator reads them
// (games.Redact): before the reveal (revealed=false) only public events; after it, every event
// but a line revealed never (§11 step 4: "the full transcript including private messages and
// sealed amounts"). Unknown round: ErrNoRound.
func (a *Arena) Transcript(ctx context.Context, round string) (events []games.Event, revealed bool, err error) {
	if round == "" || strings.Contains(round, "/") {
		return nil, false, fmt.Errorf("%w: %q", ErrNoRound, round)
	}
	id, err := a.env.store.RoundTable(round)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, false, fmt.Errorf("%w: %s", ErrNoRound, round)
	} else if err != nil {
		return nil, false, err
	}
	rec, err := a.record(id)
	if err != nil {
		return nil, false, err
	}
	all, err := a.env.store.Events(round)
	if err != nil {
		return nil, false, err
	}
	ended := rec.Status == StatusFinished
	return games.Redact(all, 0, ended), ended, nil
}

// View is table id's match view for viewer (a seat ≥ 1, 0 for a spectator; games.Match.View)
// and its open prompts, read from the live table once what it reflects is durable. A table that
// is not running is ErrTableDown (its record says finished, stopped or failed), or ErrNoTable;
// ErrTimeout when it does not answer.
func (a *Arena) View(ctx context.Context, id string, viewer int) (ViewReply, error) {
	if a.closed.Load() {
		return ViewReply{}, ErrClosed
	}
	if !validTableID(id) {
		return ViewReply{}, fmt.Errorf("%w: %q", ErrNoTable, id)
	}
	res, err := a.system.Root.RequestFuture(a.TablePID(id), &ViewTable{Viewer: viewer}, a.wait(ctx)).Result()
	if err != nil {
		rec, lerr := a.record(id)
		if lerr != nil {
			return ViewReply{}, lerr
		}
		if errors.Is(err, actor.ErrDeadLetter) || rec.Status != StatusLive {
			return ViewReply{}, fmt.Errorf("%w: table %s is %s", ErrTableDown, id, rec.Status)
		}
		return ViewReply{}, fmt.Errorf("%w: table %s: %v", ErrTimeout, id, err)
	}
	r, ok := res.(*ViewReply)
	if !ok {
		return ViewReply{}, fmt.Errorf("actors: view of table %s: unexpected reply %T", id, res)
	}
	if r.Code != "" {
		return ViewReply{}, fmt.Errorf("%w: table %s: %s", ErrTimeout, id, r.Code)
	}
	return *r, nil
}

// Tables lists every table known to storage, by id.
func (a *Arena) Tables(ctx context.Context) ([]TableInfo, error) {
	var out []TableInfo
	err := a.env.store.ListTables(func(id string, b []byte) error {
		rec, err := decodeRecord(id, b)
		if err != nil {
			out = append(out, TableInfo{ID: id, Status: StatusFailed, LastError: err.Error()})
			return nil
		}
		out = append(out, rec.info())
		return nil
	})
	return out, err
}

// Table is one line of Tables: ErrNoTable if unknown.
func (a *Arena) Table(ctx context.Context, id string) (TableInfo, error) {
	rec, err := a.record(id)
	if err != nil {
		return TableInfo{}, err
	}
	return rec.info(), nil
}

// RestartTable restores table id from its last snapshot: a running actor is stopped first
// (queued messages handled), a failed or stopped table is set live again (its poison mark and
// panic count cleared). ErrNoTable if unknown; a finished table is not restarted (ErrBadSpec).
func (a *Arena) RestartTable(ctx context.Context, id string) error {
	if a.closed.Load() {
		return ErrClosed
	}
	return a.ask(ctx, a.tables, &restartTable{ID: id})
}

// StopTable stops table id's actor (queued messages are processed first) and marks it stopped,
// so boot recovery leaves it alone. ErrNoTable if unknown; stopping a finished table does
// nothing.
func (a *Arena) StopTable(ctx context.Context, id string) error {
	if a.closed.Load() {
		return ErrClosed
	}
	return a.ask(ctx, a.tables, &stopTable{ID: id})
}

// InstanceKey is the instance's signing key (Options.InstanceKey), for the channels that sign
// what they deliver (DOTDOTDOT's §4 envelopes).
func (a *Arena) InstanceKey() ed25519.PrivateKey { return a.env.key }

// InstanceAgent is the instance's own agent id (Options.InstanceAgent), Setup.Arena of every
// match.
func (a *Arena) InstanceAgent() string { return a.env.agent }

// Ledger is the store's one money actor (actors/ledger), spawned by Start before any
// BeforeRecover: every product keeps its holds, stakes and payouts there, so one ledger and one
// invariant (ledger.Check) cover them all.
func (a *Arena) Ledger() *ledger.Ledger { return a.ledger }

// System is the actor system, for actors spawned outside the tree (the walk-in desk).
func (a *Arena) System() *actor.ActorSystem { return a.system }

// TablePID is the stable address of table id's actor ("arena/tables/table-<id>"), alive or not.
func (a *Arena) TablePID(id string) *actor.PID {
	return actor.NewPID(a.system.Address(), "arena/tables/table-"+id)
}

// InstancePublicKey is the key envelopes are signed with (for /.well-known/agent.json).
func (a *Arena) InstancePublicKey() ed25519.PublicKey {
	return a.env.key.Public().(ed25519.PublicKey)
}

// Store is the arena's store, for the protocol packages that keep records of their own beside
// the tables' (actors/dotdotdot's walk-ins, board and hosted tables).
func (a *Arena) Store() *storage.Store { return a.opts.DB }

// Bracket is the games the arena plays.
func (a *Arena) Bracket() *games.Bracket { return a.opts.Bracket }

// Clock is the arena's time source (Options.Clock, the wall clock by default).
func (a *Arena) Clock() Clock { return a.opts.Clock }

// Logger is the arena's logger (Options.Logger; discards by default).
func (a *Arena) Logger() *slog.Logger { return a.opts.Logger }

// AskTimeout bounds every Ask whose ctx has no deadline (Options.AskTimeout, 5 s by default).
func (a *Arena) AskTimeout() time.Duration { return a.opts.AskTimeout }

// Stored is a table as storage holds it, read without asking its actor: its game, status,
// round and, once the round is over, its result.
type Stored struct {
	Game   string
	Kind   string // TableSpec.Kind
	Status string
	Round  string
	Result *games.Result
	// Seats are the table's seats as opened (a lent seat's Agent is its lent Badge, §4.4).
	Seats []SeatSpec
	// Options are the table's game options as opened (TableSpec.Options).
	Options json.RawMessage
}

// Stored reads table id's record from storage: ErrNoTable if unknown.
func (a *Arena) Stored(id string) (Stored, error) {
	rec, err := a.record(id)
	if err != nil {
		return Stored{}, err
	}
	return Stored{Game: rec.Spec.Game, Kind: rec.Spec.Kind, Status: rec.Status, Round: rec.Round, Result: rec.Result, Seats: rec.Spec.Seats, Options: rec.Spec.Options}, nil
}

func (a *Arena) record(id string) (*tableRecord, error) {
	b, err := a.env.store.LoadTable(id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNoTable, id)
	} else if err != nil {
		return nil, err
	}
	return decodeRecord(id, b)
}

// Wait is the timeout of an Ask made for ctx: ctx's deadline, capped by Options.AskTimeout, and
// never unbounded (ask.Timeout). Every Ask of the façade and of the protocol packages (their
// futures) waits this long.
func (a *Arena) Wait(ctx context.Context) time.Duration { return a.wait(ctx) }

func (a *Arena) wait(ctx context.Context) time.Duration { return ask.Timeout(ctx, a.opts.AskTimeout) }

// ask sends an ops command and waits for its *opReply.
func (a *Arena) ask(ctx context.Context, pid *actor.PID, msg any) error {
	res, err := a.system.Root.RequestFuture(pid, msg, a.wait(ctx)).Result()
	if err != nil {
		if errors.Is(err, actor.ErrDeadLetter) {
			return fmt.Errorf("%w: %v", ErrClosed, err)
		}
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	}
	r, ok := res.(*opReply)
	if !ok {
		return fmt.Errorf("actors: unexpected reply %T", res)
	}
	return r.Err
}

// badSpecError carries a game's refusal out of the CreateTable transaction.
type badSpecError struct{ err error }

func (e *badSpecError) Error() string { return e.err.Error() }

// validTableID: 1 to 128 ASCII letters, digits, '.', '_', ':' or '-'. The id names the actor,
// the storage key and ops URLs (/ops/tables/{id}), so nothing there needs escaping.
func validTableID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}
