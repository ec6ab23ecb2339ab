// Package market is the Game Master market's product actor (game-master-protocol-v2.md): one
// actor owns the market's State (games/market), answers each request with the reducer, and
// speaks only once what the request changed is durable (write before you speak).
//
// Per request: Apply on the committed State (which Apply leaves unchanged), then, when the
// Delta is not empty, Store.SaveMarket in one transaction; only when that returns does the actor
// Commit the Delta and answer. A failed write answers ErrUnavailable and changes nothing, in
// memory or on disk, so the caller's retry (same commandId) runs again from the same State.
// Queries write nothing unless their expiry pass concluded an Exchange. Writes are one at a
// time on the actor's goroutine: the group-commit pipeline of actors/ledger is the next step
// when one market's throughput needs it.
//
// Expiry: the reducer drains due Exchanges at the head of every request; between requests the
// actor arms one timer (Clock.AfterFunc) for State.NextDeadline and runs Expire when it fires,
// pass after pass while a backlog remains. A timer carries a generation; a stale one is
// dropped.
//
// Boot: Start replays the stored Deltas into a fresh State (Store.MarketDeltas) before the first
// request. Deltas that do not replay leave the actor refusing every request with ErrCorrupt.
// A Delta is stored as its JSON (encoding/json: its Terms and responses are bytes, so base64,
// and come back exactly).
package market

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/ask"
	gm "arena/games/market"
)

// Store is where the market keeps its Deltas: *storage.Store (its market bucket). AppendMarket
// writes one Delta, encoded, under sequence number seq (one past the last) in one transaction;
// MarketDeltas calls fn with every stored Delta in order, stopping at fn's first error.
type Store interface {
	AppendMarket(seq uint64, delta []byte) error
	MarketDeltas(fn func(seq uint64, delta []byte) error) error
}

// Clock is the actor's time source: Now for the instant each request is answered at, AfterFunc
// for the expiry timer (actors.RealClock and actors.FakeClock satisfy it).
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// The errors Do returns beside a response.
var (
	// ErrUnavailable: the answer's write failed, or no answer came in time. Nothing is known to
	// have changed; send the same request again (a mutation's commandId makes that safe).
	ErrUnavailable = errors.New("market: unavailable")
	// ErrCorrupt: the stored records do not replay into a State.
	ErrCorrupt = errors.New("market: stored records do not replay")
)

// Options tune Start. The zero value works.
type Options struct {
	// Name is the actor's name in the system ("": "market").
	Name string
	// AskTimeout bounds Do when ctx has no earlier deadline (zero: 5 s).
	AskTimeout time.Duration
	Logger     *slog.Logger // nil: discard
}

// Market is the actor's handle; its methods are safe for concurrent use.
type Market struct {
	sys   *actor.ActorSystem
	pid   *actor.PID
	store Store
	clock Clock
	cfg   gm.Config
	seed  [32]byte
	o     Options
}

// Start spawns the market actor in sys over store, for the market of cfg and seed (the seed
// must be the one the stored records were made with). It validates cfg; the stored records
// are replayed when the actor starts.
func Start(sys *actor.ActorSystem, store Store, clock Clock, cfg gm.Config, seed [32]byte, o Options) (*Market, error) {
	if sys == nil || store == nil || clock == nil {
		return nil, errors.New("market: start: an actor system, a store and a clock are required")
	}
	if _, err := gm.NewState(cfg, seed); err != nil {
		return nil, fmt.Errorf("market: start: %w", err)
	}
	if o.Name == "" {
		o.Name = "market"
	}
	if o.AskTimeout <= 0 {
		o.AskTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	m := &Market{sys: sys, store: store, clock: clock, cfg: cfg, seed: seed, o: o}
	pid, err := sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &marketActor{m: m} }), o.Name)
	if err != nil {
		return nil, fmt.Errorf("market: spawn %s: %w", o.Name, err)
	}
	m.pid = pid
	return m, nil
}

// PID is the actor's address.
func (m *Market) PID() *actor.PID { return m.pid }

// Request asks the actor to answer one request: Owner is the authenticated Owner ID ("" for
// none), Body the raw request. The reply is a *Reply.
type Request struct {
	Owner string
	Body  []byte
}

// Reply is the actor's answer: Body the response envelope, or Err (ErrUnavailable's or
// ErrCorrupt's text) and no Body.
type Reply struct {
	Body []byte
	Err  string
}

// Do answers one request once its changes are durable: the response envelope, or
// ErrUnavailable / ErrCorrupt.
func (m *Market) Do(ctx context.Context, owner string, body []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	res, err := m.sys.Root.RequestFuture(m.pid, &Request{Owner: owner, Body: body}, ask.Timeout(ctx, m.o.AskTimeout)).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	r, ok := res.(*Reply)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected reply %T", ErrUnavailable, res)
	}
	switch r.Err {
	case "":
		return r.Body, nil
	case ErrCorrupt.Error():
		return nil, ErrCorrupt
	default:
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, r.Err)
	}
}

// expireDue is the expiry timer's message; gen names the arming it belongs to.
type expireDue struct{ gen uint64 }

// marketActor is one incarnation of the market. Every field is touched only on its goroutine.
type marketActor struct {
	m   *Market
	st  *gm.State // committed: every Delta in it is durable
	seq uint64    // the Deltas stored
	err error     // the records did not replay (st nil)
	gen uint64
	off func() bool // stops the armed timer (nil: none)
}

func (a *marketActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.load()
		a.arm(ctx)
	case *actor.Stopping, *actor.Restarting:
		a.disarm()
	case *Request:
		ctx.Respond(a.request(ctx, msg))
	case *expireDue:
		if msg.gen == a.gen && a.st != nil {
			step := gm.Expire(a.st, a.m.clock.Now())
			if err := a.save(step.Delta); err != nil {
				a.m.o.Logger.Warn("market expiry pass not saved", "err", err)
			}
			a.arm(ctx)
		}
	}
}

// load rebuilds the State from the stored Deltas.
func (a *marketActor) load() {
	st, err := gm.NewState(a.m.cfg, a.m.seed)
	var seq uint64
	if err == nil {
		err = a.m.store.MarketDeltas(func(n uint64, b []byte) (err error) {
			if n != seq+1 {
				return fmt.Errorf("delta %d after %d", n, seq)
			}
			var d gm.Delta
			if err := json.Unmarshal(b, &d); err != nil {
				return fmt.Errorf("delta %d: %v", n, err)
			}
			seq = n
			defer func() {
				// Commit panics on a Delta that does not follow from the State: here that is
				// stored data gone wrong, which the actor reports rather than crash on.
				if r := recover(); r != nil {
					err = fmt.Errorf("%v", r)
				}
			}()
			st.Commit(d)
			return nil
		})
	}
	if err != nil {
		a.st, a.err = nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		a.m.o.Logger.Error("market records do not replay: refusing every request", "err", err)
		return
	}
	a.st, a.seq, a.err = st, seq, nil
}

func (a *marketActor) request(ctx actor.Context, r *Request) *Reply {
	if a.st == nil {
		a.load()
		if a.st == nil {
			return &Reply{Err: ErrCorrupt.Error()}
		}
		a.arm(ctx)
	}
	step := gm.Apply(a.st, r.Owner, r.Body, a.m.clock.Now())
	if err := a.save(step.Delta); err != nil {
		a.m.o.Logger.Warn("market write failed: nothing answered", "err", err)
		return &Reply{Err: err.Error()}
	}
	a.arm(ctx)
	return &Reply{Body: step.Response}
}

// save makes d durable and then commits it; an empty Delta needs neither.
func (a *marketActor) save(d gm.Delta) error {
	if d.Empty() {
		return nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("%w: encode: %v", ErrUnavailable, err)
	}
	if err := a.m.store.AppendMarket(a.seq+1, b); err != nil {
		return fmt.Errorf("%w: save: %v", ErrUnavailable, err)
	}
	a.seq++
	a.st.Commit(d)
	return nil
}

// arm sets the one expiry timer for the earliest live deadline (at once when it has passed).
func (a *marketActor) arm(ctx actor.Context) {
	a.disarm()
	a.gen++
	if a.st == nil {
		return
	}
	at, ok := a.st.NextDeadline()
	if !ok {
		return
	}
	gen, pid, root := a.gen, ctx.Self(), a.m.sys.Root
	a.off = a.m.clock.AfterFunc(at.Sub(a.m.clock.Now()), func() { root.Send(pid, &expireDue{gen: gen}) })
}

func (a *marketActor) disarm() {
	if a.off != nil {
		a.off()
		a.off = nil
	}
}
