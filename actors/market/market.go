// Package market is the Game Master market's product actor (game-master-protocol-v2.md): one
// actor owns the market's State (games/market), answers each request with the reducer, and
// speaks only once what the request changed is durable (write before you speak).
//
// Parse before the mailbox: Do reads the body with the reducer's one strict parser (gm.Parse)
// on the caller's goroutine, which needs no State, so the actor's goroutine, the one every
// request waits on, spends its time applying (gm.ApplyParsed) and committing.
//
// Group commit (the shape of actors/ledger): the State in memory holds every Delta durable,
// queued or in flight, in order. Per request: Apply on that State, Commit its Delta at once
// (so the next request sees it), queue the answer; one write at a time takes everything queued
// and stores those Deltas, under consecutive sequence numbers, in one transaction
// (Store.AppendMarket), while the next group gathers behind it; so under load a group grows
// with the disk's latency. Only when a write returns durable do its answers leave, in order; an
// answer that wrote nothing (a query, a replayed Command) leaves at once when nothing is
// queued or in flight, and otherwise waits behind what it read (write before you speak). A
// write that fails answers each of its requests ErrUnavailable and rebuilds the State from the
// stored Deltas, so nothing of any of them stays in memory or on disk; the requests queued
// behind it run again on the rebuilt State. A caller's retry (same commandId) is then safe.
// Queries write nothing unless their expiry pass concluded an Exchange.
//
// Expiry: the reducer drains due Exchanges at the head of every request; between requests the
// actor arms one timer (Clock.AfterFunc) for State.NextDeadline and runs Expire when it fires,
// pass after pass while a backlog remains. A timer carries a generation; a stale one is
// dropped.
//
// Boot: Start replays the stored Deltas into a fresh State (Store.MarketDeltas) before the first
// request, after any write of a previous incarnation has returned. Deltas that do not replay
// leave the actor refusing every request with ErrCorrupt. A Delta is stored as its JSON (encoding/json: its Terms and responses are bytes, so base64,
// and come back exactly).
package market

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/ask"
	gm "arena/games/market"
)

// Store is where the market keeps its Deltas: *storage.Store (its market bucket). AppendMarket
// writes a group of Deltas, encoded, under sequence numbers first, first+1, … (first one past
// the last) in one transaction, all or none;
// MarketDeltas calls fn with every stored Delta in order, stopping at fn's first error.
type Store interface {
	AppendMarket(first uint64, deltas [][]byte) error
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
	// OnCommit, when set, hears of every group write as it returns: how many Deltas it
	// carried, how long Store.AppendMarket took (wall time) and its error. It runs on the
	// writing goroutine and must not block (the load tool's histograms).
	OnCommit func(deltas int, took time.Duration, err error)
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

	inc     atomic.Uint64 // incarnations started
	writing sync.Mutex    // held while a write is in flight: a new incarnation loads after it
	durable atomic.Uint64 // the State Version of everything durable (Version)
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

// Version is the State Version of everything durable: what the last answer to leave could
// have said, never a version whose write has yet to land (write before you speak). 0 until the
// stored records have replayed. It does not ask the actor, so it answers at once; the doors
// write it on refusals the market never saw (a body over the cap, a wrong method).
func (m *Market) Version() uint64 { return m.durable.Load() }

// PID is the actor's address.
func (m *Market) PID() *actor.PID { return m.pid }

// Request asks the actor to answer one request: Owner is the authenticated Owner ID ("" for
// none), Body the raw request. The reply is a *Reply.
type Request struct {
	Owner string
	Body  []byte

	// parsed is Body as gm.Parse read it, on the sender's goroutine (Do), so the actor's
	// goroutine spends its time on the State alone; nil: the actor parses Body itself.
	parsed *gm.Parsed
}

// Reply is the actor's answer: Body the response envelope, or Err (ErrUnavailable's or
// ErrCorrupt's text) and no Body.
type Reply struct {
	Body []byte
	Err  string
}

// Do answers one request once its changes are durable: the response envelope, or
// ErrUnavailable / ErrCorrupt. It parses body (gm.Parse) on the caller's goroutine before the
// request enters the actor's mailbox: the parser needs no State, and the actor's goroutine,
// which every request waits on, then only applies the parsed command.
func (m *Market) Do(ctx context.Context, owner string, body []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	res, err := m.sys.Root.RequestFuture(m.pid, &Request{Owner: owner, Body: body, parsed: gm.Parse(body)}, ask.Timeout(ctx, m.o.AskTimeout)).Result()
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

// flightDone says the write of the flight has returned (err nil: durable); inc names the
// incarnation that started it.
type flightDone struct {
	inc uint64
	err error
}

// pending is one answer that may leave only once every Delta before it, and its own, is
// durable.
type pending struct {
	to    *actor.PID // who asked (nil: an expiry pass, which answers nobody)
	req   *Request   // to run again if a write before its own failed (nil: an expiry pass)
	delta *gm.Delta  // the Delta it committed to the State (nil: none)
	reply *Reply
}

// marketActor is one incarnation of the market. Every field is touched only on its goroutine.
type marketActor struct {
	m   *Market
	inc uint64
	st  *gm.State // every Delta durable, queued or in flight, in order
	seq uint64    // the Deltas in st
	err error     // the records did not replay (st nil)

	queue  []*pending // answers (and Deltas) waiting for the next write
	flight []*pending // the write in flight (nil: none)

	gen   uint64
	off   func() bool // stops the armed timer (nil: none)
	armed time.Time   // the deadline the armed timer is for
}

func (a *marketActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.inc = a.m.inc.Add(1)
		a.load()
		a.arm(ctx)
	case *actor.Stopping, *actor.Restarting:
		a.disarm()
	case *Request:
		a.request(ctx, ctx.Sender(), msg)
	case *expireDue:
		if msg.gen == a.gen && a.st != nil {
			a.off = nil // it has fired
			step := gm.Expire(a.st, a.m.clock.Now())
			p := &pending{}
			if a.stage(p, step.Delta); p.delta != nil {
				a.answer(ctx, p)
			}
			a.arm(ctx)
		}
	case *flightDone:
		if msg.inc == a.inc {
			a.landed(ctx, msg.err)
		}
	}
}

// load rebuilds the State from the stored Deltas, after any write of a previous incarnation
// has returned.
func (a *marketActor) load() {
	a.m.writing.Lock()
	defer a.m.writing.Unlock()
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
		a.st, a.seq, a.err = nil, 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
		a.m.o.Logger.Error("market records do not replay: refusing every request", "err", err)
		return
	}
	a.st, a.seq, a.err = st, seq, nil
	a.m.durable.Store(st.Version())
}

// request answers r for to: Apply on the State as every Delta before it left it, the Delta
// committed in memory and queued for the next write, the answer held until that write lands.
func (a *marketActor) request(ctx actor.Context, to *actor.PID, r *Request) {
	if a.st == nil && a.flight == nil {
		a.load()
		a.arm(ctx)
	}
	if a.st == nil {
		a.send(ctx, to, &Reply{Err: ErrCorrupt.Error()})
		return
	}
	if r.parsed == nil {
		r.parsed = gm.Parse(r.Body)
	}
	step := gm.ApplyParsed(a.st, r.Owner, r.parsed, a.m.clock.Now())
	p := &pending{to: to, req: r, reply: &Reply{Body: step.Response}}
	a.stage(p, step.Delta)
	a.answer(ctx, p)
	a.arm(ctx)
}

// stage commits d to the State and keeps it in p for the next write (an empty Delta needs
// neither). The write encodes it, off the actor's goroutine: a committed Delta is never
// changed afterwards (Commit copies what it keeps, and Apply works on copies).
func (a *marketActor) stage(p *pending, d gm.Delta) {
	if d.Empty() {
		return
	}
	a.st.Commit(d)
	a.seq++
	p.delta = &d
}

// answer sends p's reply now when it wrote nothing and nothing is waiting for the disk, and
// otherwise queues it behind what is.
func (a *marketActor) answer(ctx actor.Context, p *pending) {
	if p.delta == nil && a.flight == nil && len(a.queue) == 0 {
		a.send(ctx, p.to, p.reply)
		return
	}
	a.queue = append(a.queue, p)
	a.kick(ctx)
}

// kick starts one write of every queued Delta, unless a write is in flight: the group
// gathers while the previous one lands, so it grows with the disk's latency.
func (a *marketActor) kick(ctx actor.Context) {
	if a.flight != nil || len(a.queue) == 0 {
		return
	}
	a.flight, a.queue = a.queue, nil
	var ds []*gm.Delta
	for _, p := range a.flight {
		if p.delta != nil {
			ds = append(ds, p.delta)
		}
	}
	self, inc, root := ctx.Self(), a.inc, ctx.ActorSystem().Root
	if len(ds) == 0 { // only answers that waited on a write that has landed
		root.Send(self, &flightDone{inc: inc})
		return
	}
	first := a.seq - uint64(len(ds)) + 1 // the queue was everything after the last write
	m := a.m
	m.writing.Lock()
	go func() {
		enc := make([][]byte, len(ds))
		var err error
		for i, d := range ds {
			if enc[i], err = encodeDelta(d); err != nil {
				break
			}
		}
		t := time.Now()
		if err == nil {
			err = m.store.AppendMarket(first, enc)
		}
		took := time.Since(t)
		m.writing.Unlock()
		if m.o.OnCommit != nil {
			m.o.OnCommit(len(enc), took, err)
		}
		root.Send(self, &flightDone{inc: inc, err: err})
	}()
}

// landed releases the flight's answers; or, when its write failed, answers each of them
// unavailable, rebuilds the State from what the disk holds (so no Delta of the failed write
// stays in memory) and runs every request queued behind it again on that State.
func (a *marketActor) landed(ctx actor.Context, err error) {
	f := a.flight
	a.flight = nil
	if err == nil {
		for _, p := range f {
			if p.delta != nil {
				a.m.durable.Store(p.delta.StateVersion)
			}
		}
		for _, p := range f {
			a.send(ctx, p.to, p.reply)
		}
		a.kick(ctx)
		return
	}
	a.m.o.Logger.Warn("market write failed: its requests answered unavailable, the State rebuilt from disk", "err", err)
	fail := &Reply{Err: fmt.Errorf("%w: save: %v", ErrUnavailable, err).Error()}
	for _, p := range f {
		a.send(ctx, p.to, fail)
	}
	again := a.queue
	a.queue = nil
	a.load()
	a.disarm()
	a.arm(ctx)
	for _, p := range again {
		if p.req != nil {
			a.request(ctx, p.to, p.req)
		}
	}
}

// encodeDelta is d as it is stored: its JSON.
func encodeDelta(d *gm.Delta) ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode delta: %w", err)
	}
	return b, nil
}

func (a *marketActor) send(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}

// arm keeps one expiry timer set for the earliest live deadline (at once when it has passed),
// setting it again only when that deadline changed.
func (a *marketActor) arm(ctx actor.Context) {
	var at time.Time
	ok := false
	if a.st != nil {
		at, ok = a.st.NextDeadline()
	}
	if ok && a.off != nil && at.Equal(a.armed) {
		return
	}
	a.disarm()
	a.gen++
	if !ok {
		return
	}
	gen, pid, root := a.gen, ctx.Self(), a.m.sys.Root
	a.armed = at
	a.off = a.m.clock.AfterFunc(at.Sub(a.m.clock.Now()), func() { root.Send(pid, &expireDue{gen: gen}) })
}

func (a *marketActor) disarm() {
	if a.off != nil {
		a.off()
		a.off = nil
	}
}
