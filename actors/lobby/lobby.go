// Package lobby is a generic matchmaking lobby on protoactor-go: one supervised actor per queue
// (a game's queue, say) that gathers entrants by key and opens a table when enough are there.
// It knows no protocol: a product configures each queue (Config) and hears each table it forms
// (TableFormed); the defaults are the figures a product's protocol most likely names (a 30 s
// lobby timer, house fill after 60 s alone, rookies until 10 matches, tiers apart from 24 keys).
//
// The rules of a queue, all per Config:
//
//   - A table opens as soon as TableSize entrants are queued (the oldest TableSize), or as soon as
//     at least Min are queued and the longest-waiting of them has waited Wait (the lobby timer,
//     30 s): the timer runs from the longest-waiting entrant's join, so after a table forms the
//     next one is timed from the oldest entrant left, who may already be due.
//   - Fewer than Min queued is being alone. When the longest-waiting entrant has been alone for
//     HouseAfter (60 s), a staff entrant (Config.Staff, at most one per table) and then house
//     entrants (Config.House) fill the table up to Min. House entrants make the table unranked;
//     staff keeps it ranked. Company that brings the queue to Min first opens a table of real
//     entrants only. Without House, staff sits down only when it alone completes the table.
//   - One entry per key: Join of a queued key is ErrAlreadyQueued, Rejoin takes the entry over
//     (new Data, same place); a key Config.Playing reports in a match is ErrAlreadyPlaying.
//   - Tiers: an entrant is TierRookie until Config.Completed reports RookieMatches completed
//     matches, then TierOpen. Rookies and open entrants share one queue until SplitAt distinct
//     keys have queued, then wait apart, each tier forming its own tables.
//   - Seats are shuffled from Config.Seed: the same seed and the same joins give the same seats.
//
// The queue is held in memory only. A queue that panics is restarted empty by the lobby's
// supervisor, other queues untouched: the entrants it held are reported to Config.OnDropped (a
// product tells them, or joins them again) and the request that panicked answers ErrQueueFault.
// After a server restart agents join again. What a queue has learnt about its population (the
// tier split, the distinct keys seen, its table count) outlives a panic's restart, not a server
// restart: Config.Split starts a queue split.
package lobby

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/ask"
)

// Tiers of an entrant and of a table (TableFormed.Tier).
const (
	TierRookie = "rookie" // fewer than Config.RookieMatches completed matches
	TierOpen   = "open"
)

// Defaults of the zero Config values.
const (
	DefaultWait          = 30 * time.Second
	DefaultHouseAfter    = 60 * time.Second
	DefaultRookieMatches = 10
	DefaultSplitAt       = 24
)

// Clock is the lobby's time source: actors.Clock (actors.RealClock, *actors.FakeClock in tests)
// satisfies it. A timer callback only sends a message to the queue.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Entrant is one player in a queue: Key is its identity (one entry, one seat and one match per
// key), Data the caller's own value, handed back untouched in TableFormed and OnDropped.
type Entrant struct {
	Key  string
	Data any
}

// Seat is one seat of a formed table.
type Seat struct {
	Entrant
	// Tier is the entrant's own tier at its join ("" for house and staff).
	Tier string
	// House marks an entrant made by Config.House, Staff the one made by Config.Staff.
	House, Staff bool
	// Joined is when the entrant queued (zero for house and staff).
	Joined time.Time
}

// Reasons a table formed (TableFormed.Reason).
const (
	ReasonFull  = "full"  // TableSize entrants were queued
	ReasonTimer = "timer" // the lobby timer found at least Min
	ReasonAlone = "alone" // staff or house entrants filled it up to Min
)

// TableFormed is a table the queue opened: the product starts its match.
type TableFormed struct {
	Queue string
	// Number counts the queue's tables from 1 since the lobby started.
	Number uint64
	// Tier is the tier of the queue the table came from; before the split (one shared queue) it
	// is TierRookie when every real entrant is a rookie, else TierOpen.
	Tier string
	// Ranked is false when any house entrant sits at the table (staff keeps it ranked).
	Ranked bool
	// Seats in seat order: Seats[i] takes seat i (0-based). The order is the seeded shuffle.
	Seats  []Seat
	Reason string
	At     time.Time
}

// Queued is an entrant's place, as Join, Rejoin and Position answer it.
type Queued struct {
	// Position is the entrant's place in its tier's queue, from 1 (the longest-waiting); 0 when
	// Seated.
	Position int
	// Tier is the entrant's own tier; Waiting how many wait in its queue, itself included.
	Tier    string
	Waiting int
	// Seated: the join completed a table at once (OnTable has already heard it), Table its
	// Number.
	Seated bool
	Table  uint64
	// Replaced: Rejoin took over the key's entry (its place kept).
	Replaced bool
}

// Info is a queue's state for live counts.
type Info struct {
	Queue string
	// Waiting counts the queued entrants, ByTier by their own tiers.
	Waiting int
	ByTier  map[string]int
	// Split: rookies and open entrants wait apart. Seen counts the distinct keys that queued
	// (it stops counting at the split).
	Split bool
	Seen  int
	// Tables is how many tables the queue formed.
	Tables uint64
}

// Config is one queue's rules. TableSize, Min and OnTable are required; every other zero value
// works. The callbacks run on the queue's goroutine: they must be quick and must not call the
// lobby (an ask of the queue from its own goroutine waits until it times out).
type Config struct {
	// ID names the queue (a game's id): letters, digits, '-', '_' and '.', at most 64.
	ID string
	// TableSize is how many entrants make a full table; Min (1..TableSize) the fewest a table
	// opens with when the lobby timer fires, and the number house fill reaches.
	TableSize, Min int
	// Wait is the lobby timer (zero: DefaultWait); HouseAfter how long the longest-waiting
	// entrant is alone before staff and house fill (zero: DefaultHouseAfter).
	Wait, HouseAfter time.Duration
	// Seed keys the seat shuffle (zero: random, drawn at Open).
	Seed [32]byte
	// Playing reports whether key is in an active match of this queue's game (nil: nobody).
	// OnTable must make it true for every seated key before it returns, so a key is never
	// queued again between its seat and its match.
	Playing func(key string) bool
	// Completed is key's count of completed matches, for its tier (nil: no tiers, every entrant
	// TierOpen). RookieMatches (zero: DefaultRookieMatches) completed make it TierOpen.
	Completed     func(key string) int
	RookieMatches int
	// SplitAt is how many distinct keys must have queued before the tiers wait apart (zero:
	// DefaultSplitAt). Split starts the queue split (a product that knows its population).
	SplitAt int
	Split   bool
	// House makes the i-th (0-based) house entrant of table number; nil: no house fill (paid
	// tables). The lobby marks it House.
	House func(table uint64, i int) Entrant
	// Staff makes the staff entrant (the house's own player) of table number; nil: no staff. The
	// lobby marks it Staff.
	Staff func(table uint64) Entrant
	// OnTable hears every table formed, before the queue takes its next message.
	OnTable func(*TableFormed)
	// OnDropped hears the entrants a queue lost (in join order): when it panicked and restarted,
	// or stopped (Shutdown). Nil: nobody is told.
	OnDropped func(queue string, dropped []Entrant)
}

// Options tune Start. The zero value works.
type Options struct {
	// Name is the supervisor actor's name ("": "lobby"); queue q is <Name>/queue-<q>.
	Name string
	// Clock is the time source (nil: the wall clock).
	Clock Clock
	// AskTimeout bounds every call whose ctx has no earlier deadline (zero: 5 s).
	AskTimeout time.Duration
	Logger     *slog.Logger // nil: discard
}

// Lobby is the running lobby: a supervisor actor and its queues. Its methods are safe for
// concurrent use.
type Lobby struct {
	sys *actor.ActorSystem
	o   Options
	pid *actor.PID

	mu     sync.Mutex
	queues map[string]*queueState // guarded by mu; a queue's config and memo, by id
}

// queueState is what a queue keeps across its actor's restarts.
type queueState struct {
	cfg  Config
	memo *memo
}

// Start spawns the lobby's supervisor in sys and opens queues (Open, one by one).
func Start(sys *actor.ActorSystem, o Options, queues ...Config) (*Lobby, error) {
	if sys == nil {
		return nil, errors.New("lobby: start: an actor system is required")
	}
	if o.Name == "" {
		o.Name = "lobby"
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	if o.AskTimeout <= 0 {
		o.AskTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Lobby{sys: sys, o: o, queues: map[string]*queueState{}}
	props := actor.PropsFromProducer(func() actor.Actor { return &supervisor{l: l} },
		actor.WithSupervisor(actor.NewRestartingStrategy()))
	pid, err := sys.Root.SpawnNamed(props, o.Name)
	if err != nil {
		return nil, fmt.Errorf("lobby: start: spawn %s: %w", o.Name, err)
	}
	l.pid = pid
	for _, c := range queues {
		if err := l.Open(context.Background(), c); err != nil {
			_ = sys.Root.PoisonFuture(pid).Wait()
			return nil, fmt.Errorf("lobby: start: %w", err)
		}
	}
	return l, nil
}

// Open starts a queue. It refuses a bad Config (ErrBadConfig) and an id already open
// (ErrQueueExists).
func (l *Lobby) Open(ctx context.Context, c Config) error {
	if err := normalize(&c); err != nil {
		return err
	}
	l.mu.Lock()
	if _, ok := l.queues[c.ID]; ok {
		l.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrQueueExists, c.ID)
	}
	qs := &queueState{cfg: c, memo: newMemo(c.Split)}
	l.queues[c.ID] = qs
	l.mu.Unlock()
	res, err := l.sys.Root.RequestFuture(l.pid, &openQueue{id: c.ID}, ask.Timeout(ctx, l.o.AskTimeout)).Result()
	if r, ok := res.(*openedReply); err == nil && ok {
		err = r.err
	} else if err == nil {
		err = fmt.Errorf("unexpected reply %T", res)
	}
	if err != nil {
		l.mu.Lock()
		delete(l.queues, c.ID)
		l.mu.Unlock()
		return fmt.Errorf("lobby: open %s: %w", c.ID, askErr(err))
	}
	return nil
}

// Join queues e in queue q. It answers the entrant's place, or Seated when its join completed a
// table (OnTable has heard it first); ErrAlreadyQueued (with the entry's place), ErrAlreadyPlaying,
// ErrBadEntrant, ErrUnknownQueue, or an ask error.
func (l *Lobby) Join(ctx context.Context, q string, e Entrant) (Queued, error) {
	return l.join(ctx, q, e, false)
}

// Rejoin is Join that takes over the key's entry when it has one: the entry keeps its place and
// join time and carries e.Data from now on (a player come back on a new connection).
func (l *Lobby) Rejoin(ctx context.Context, q string, e Entrant) (Queued, error) {
	return l.join(ctx, q, e, true)
}

func (l *Lobby) join(ctx context.Context, q string, e Entrant, replace bool) (Queued, error) {
	r, err := askAs[*queuedReply](ctx, l, q, &joinQueue{e: e, replace: replace})
	if err != nil {
		return Queued{}, err
	}
	return r.q, r.err
}

// Leave takes key's entry out of queue q: true when it was queued, false when it held none;
// ErrAlreadyPlaying once it is seated (in a match).
func (l *Lobby) Leave(ctx context.Context, q, key string) (bool, error) {
	r, err := askAs[*leftReply](ctx, l, q, &leaveQueue{key: key})
	if err != nil {
		return false, err
	}
	return r.was, r.err
}

// Position is key's place in queue q; ErrAlreadyPlaying once seated, ErrNotQueued otherwise.
func (l *Lobby) Position(ctx context.Context, q, key string) (Queued, error) {
	r, err := askAs[*queuedReply](ctx, l, q, &getPosition{key: key})
	if err != nil {
		return Queued{}, err
	}
	return r.q, r.err
}

// Info is queue q's counts.
func (l *Lobby) Info(ctx context.Context, q string) (Info, error) {
	r, err := askAs[*Info](ctx, l, q, &getInfo{})
	if err != nil {
		return Info{}, err
	}
	return *r, nil
}

// Queues are the open queues' ids, sorted.
func (l *Lobby) Queues() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ids := make([]string, 0, len(l.queues))
	for id := range l.queues {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Shutdown stops the lobby once its queues have taken their queued messages; each queue reports
// the entrants it still held to OnDropped.
func (l *Lobby) Shutdown(ctx context.Context) error {
	fut := l.sys.Root.PoisonFuture(l.pid)
	done := make(chan error, 1)
	go func() { done <- fut.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// state is queue q's kept state (nil when not open).
func (l *Lobby) state(q string) *queueState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.queues[q]
}

func (l *Lobby) queuePID(q string) *actor.PID {
	return actor.NewPID(l.sys.Address(), l.o.Name+"/"+queuePrefix+q)
}

// askAs asks queue q and types its answer: an error answered (ErrQueueFault) is returned as is.
func askAs[T any](ctx context.Context, l *Lobby, q string, msg any) (T, error) {
	var zero T
	if l.state(q) == nil {
		return zero, fmt.Errorf("%w: %s", ErrUnknownQueue, q)
	}
	res, err := l.sys.Root.RequestFuture(l.queuePID(q), msg, ask.Timeout(ctx, l.o.AskTimeout)).Result()
	if err != nil {
		return zero, askErr(err)
	}
	if e, ok := res.(error); ok {
		return zero, e
	}
	v, ok := res.(T)
	if !ok {
		return zero, fmt.Errorf("lobby: unexpected reply %T", res)
	}
	return v, nil
}

func askErr(err error) error {
	switch {
	case errors.Is(err, actor.ErrTimeout):
		return ErrTimeout
	case errors.Is(err, actor.ErrDeadLetter):
		return ErrClosed
	}
	return err
}

// normalize checks c and fills its defaults.
func normalize(c *Config) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: queue %q: %s", ErrBadConfig, c.ID, fmt.Sprintf(format, a...))
	}
	if c.ID == "" || len(c.ID) > 64 {
		return bad("id must be 1 to 64 characters")
	}
	for _, r := range c.ID {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return bad("id may hold letters, digits, '-', '_' and '.' only")
		}
	}
	if c.TableSize < 1 || c.Min < 1 || c.Min > c.TableSize {
		return bad("TableSize %d and Min %d: need 1 <= Min <= TableSize", c.TableSize, c.Min)
	}
	if c.Wait < 0 || c.HouseAfter < 0 || c.RookieMatches < 0 || c.SplitAt < 0 {
		return bad("negative Wait, HouseAfter, RookieMatches or SplitAt")
	}
	if c.OnTable == nil {
		return bad("OnTable is required")
	}
	if c.Wait == 0 {
		c.Wait = DefaultWait
	}
	if c.HouseAfter == 0 {
		c.HouseAfter = DefaultHouseAfter
	}
	if c.RookieMatches == 0 {
		c.RookieMatches = DefaultRookieMatches
	}
	if c.SplitAt == 0 {
		c.SplitAt = DefaultSplitAt
	}
	if c.Seed == ([32]byte{}) {
		if _, err := rand.Read(c.Seed[:]); err != nil {
			return fmt.Errorf("lobby: open %s: seed: %w", c.ID, err)
		}
	}
	return nil
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
