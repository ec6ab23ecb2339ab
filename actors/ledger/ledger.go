package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/ask"
)

// Rows reads the stored rows in order from a sequence number (storage.Store.LedgerRows).
type Rows interface {
	LedgerRows(from uint64, fn func(seq uint64, row []byte) error) error
}

// Store is where the ledger keeps its rows: *storage.Store. AppendLedger writes rows from
// sequence first on, in one transaction, and fails when first is not one past the last row.
type Store interface {
	Rows
	AppendLedger(first uint64, rows [][]byte) error
}

// Options tune Start. The zero value works.
type Options struct {
	// Name is the actor's name in the system ("": "ledger"). One ledger per store: two would
	// race for the same sequence numbers (the store refuses the loser's rows).
	Name string
	// Now stamps rows (nil: time.Now). Rows carry it for people; nothing replays on it.
	Now func() time.Time
	// AskTimeout bounds Post, State, Hold and Pot when ctx has no earlier deadline (zero: 5 s).
	AskTimeout time.Duration
	Logger     *slog.Logger // nil: discard
}

// Ledger is the money actor's handle. Its methods are safe for concurrent use; actors may
// instead Request the PID with *Post, *GetState, *GetHold or *GetPot and take the reply as a
// message (the ledger never asks anyone, so it cannot deadlock a caller).
type Ledger struct {
	store Store
	o     Options
	sys   *actor.ActorSystem
	pid   *actor.PID

	inc atomic.Uint64 // incarnation: a write's answer reaches only the incarnation that made it
	// writing is held by a write for its whole length, so that an incarnation after a restart
	// replays the rows only once the previous one's write has landed or failed.
	writing sync.Mutex
}

// Start spawns the ledger in sys. The actor replays the stored rows before it takes any message;
// rows that do not replay leave it refusing with ErrCorrupt.
func Start(sys *actor.ActorSystem, store Store, o Options) (*Ledger, error) {
	if sys == nil || store == nil {
		return nil, errors.New("ledger: start: an actor system and a store are required")
	}
	if o.Name == "" {
		o.Name = "ledger"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AskTimeout <= 0 {
		o.AskTimeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Ledger{store: store, o: o, sys: sys}
	pid, err := sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &ledgerActor{l: l} }), o.Name)
	if err != nil {
		return nil, fmt.Errorf("ledger: spawn %s: %w", o.Name, err)
	}
	l.pid = pid
	return l, nil
}

// PID is the ledger actor's address.
func (l *Ledger) PID() *actor.PID { return l.pid }

// Post applies p's rows (all or nothing) and returns once they are durable. A refusal wraps one
// of the sentinel errors and wrote nothing. ErrUnavailable (a failed write, or no answer in
// time) leaves the outcome unknown: resend with the same Key to learn it.
func (l *Ledger) Post(ctx context.Context, p *Post) (*PostReply, error) {
	res, err := l.ask(ctx, p)
	if err != nil {
		return nil, err
	}
	r, ok := res.(*PostReply)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected reply %T", ErrUnavailable, res)
	}
	return r, replyError(r.Code, r.Msg)
}

// State is a copy of the committed state.
func (l *Ledger) State(ctx context.Context) (*State, error) {
	res, err := l.ask(ctx, &GetState{})
	if err != nil {
		return nil, err
	}
	r, ok := res.(*StateReply)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected reply %T", ErrUnavailable, res)
	}
	if err := replyError(r.Code, r.Msg); err != nil {
		return nil, err
	}
	return r.State, nil
}

// Hold is hold id as committed (ok false: never opened).
func (l *Ledger) Hold(ctx context.Context, id string) (h Hold, ok bool, err error) {
	st, err := l.lookup(ctx, &GetHold{ID: id})
	if err != nil {
		return Hold{}, false, err
	}
	return st.Hold, st.OK, nil
}

// Pot is pot id as committed (ok false: never opened).
func (l *Ledger) Pot(ctx context.Context, id string) (p Pot, ok bool, err error) {
	st, err := l.lookup(ctx, &GetPot{ID: id})
	if err != nil {
		return Pot{}, false, err
	}
	return st.Pot, st.OK, nil
}

func (l *Ledger) lookup(ctx context.Context, msg any) (*LookupReply, error) {
	res, err := l.ask(ctx, msg)
	if err != nil {
		return nil, err
	}
	r, ok := res.(*LookupReply)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected reply %T", ErrUnavailable, res)
	}
	return r, replyError(r.Code, r.Msg)
}

func (l *Ledger) ask(ctx context.Context, msg any) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	res, err := l.sys.Root.RequestFuture(l.pid, msg, ask.Timeout(ctx, l.o.AskTimeout)).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return res, nil
}

// pending is an answer that may leave only once the rows it rests on are durable.
type pending struct {
	to    *actor.PID
	post  *Post // the Post to run again if the write before it failed (nil: a query)
	query any   // the query to run again (nil: a Post)
	rows  []Row // the rows this Post wrote into the state
	reply any
}

// ledgerActor is one incarnation of the ledger. Every field is touched only on its goroutine.
type ledgerActor struct {
	l   *Ledger
	inc uint64
	st  *State // committed rows plus those queued and in flight
	err error  // the rows could not be read (st is nil): refuse until a replay succeeds

	queue  []*pending // answers (and rows) waiting for the next write
	flight []*pending // the write in flight (nil: none)
}

func (a *ledgerActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.inc = a.l.inc.Add(1)
		a.load()
	case *Post:
		a.post(ctx, ctx.Sender(), m)
	case *GetState, *GetHold, *GetPot:
		a.query(ctx, ctx.Sender(), m)
	case *flightDone:
		if m.inc == a.inc {
			a.landed(ctx, m.err)
		}
	}
}

// load replays the stored rows, after any write of a previous incarnation has finished.
func (a *ledgerActor) load() {
	a.l.writing.Lock()
	st, err := Replay(a.l.store)
	a.l.writing.Unlock()
	if err != nil {
		a.st, a.err = nil, err
		a.l.o.Logger.Error("ledger rows do not replay: refusing every post", "err", err)
		return
	}
	a.st, a.err = st, nil
}

func (a *ledgerActor) post(ctx actor.Context, to *actor.PID, p *Post) {
	if a.err != nil && a.flight == nil {
		a.load()
	}
	if a.err != nil {
		a.answer(ctx, &pending{to: to, post: p, reply: &PostReply{Code: codeOf(a.err), Msg: a.err.Error()}})
		return
	}
	refuse := func(err error) {
		a.answer(ctx, &pending{to: to, post: p, reply: &PostReply{Code: codeOf(err), Msg: err.Error()}})
	}
	if len(p.Key) > maxID {
		refuse(fmt.Errorf("%w: key longer than %d bytes", ErrBadRow, maxID))
		return
	}
	if p.Key != "" {
		if done, ok := a.st.keys[p.Key]; ok {
			a.answer(ctx, &pending{to: to, post: p, reply: &PostReply{First: done.First, Last: done.Last, Dup: true}})
			return
		}
	}
	if len(p.Rows) == 0 {
		refuse(fmt.Errorf("%w: a post without rows", ErrBadRow))
		return
	}
	now := a.l.o.Now().UTC()
	rows := make([]Row, len(p.Rows))
	undos := make([]func(), 0, len(p.Rows))
	for i := range p.Rows {
		r := p.Rows[i]
		r.Seq, r.At, r.Key = a.st.Last+1, now, p.Key
		r.Memo = slices.Clone(r.Memo)
		r.Payouts = slices.Clone(r.Payouts)
		if r.Unit == "" {
			r.Unit = a.unitOf(&r)
		}
		undo, err := a.st.apply(&r)
		if err != nil {
			for j := len(undos) - 1; j >= 0; j-- {
				undos[j]()
			}
			refuse(fmt.Errorf("row %d of %d: %w", i+1, len(p.Rows), err))
			return
		}
		undos = append(undos, undo)
		rows[i] = r
	}
	if c := p.Cap; c != nil {
		if t := a.st.Units[c.Unit]; t.Held+t.Staked+c.Reserved > c.Max {
			for j := len(undos) - 1; j >= 0; j-- {
				undos[j]()
			}
			refuse(fmt.Errorf("%w: %s escrow %d + %d reserved over %d", ErrCapped, c.Unit, t.Held+t.Staked, c.Reserved, c.Max))
			return
		}
	}
	first, last := rows[0].Seq, rows[len(rows)-1].Seq
	if p.Key != "" {
		a.st.keys[p.Key] = Posted{First: first, Last: last}
	}
	a.answer(ctx, &pending{to: to, post: p, rows: rows, reply: &PostReply{First: first, Last: last}})
}

// unitOf is the unit of r's hold or pot ("" if neither exists: apply refuses the row).
func (a *ledgerActor) unitOf(r *Row) string {
	if h, ok := a.st.Holds[r.Hold]; ok && r.Hold != "" {
		return h.Unit
	}
	if p, ok := a.st.Pots[r.Pot]; ok && r.Pot != "" {
		return p.Unit
	}
	return ""
}

func (a *ledgerActor) query(ctx actor.Context, to *actor.PID, q any) {
	if a.err != nil && a.flight == nil {
		a.load()
	}
	var reply any
	switch q := q.(type) {
	case *GetState:
		if a.err != nil {
			reply = &StateReply{Code: codeOf(a.err), Msg: a.err.Error()}
		} else {
			reply = &StateReply{State: a.st.Clone()}
		}
	case *GetHold, *GetPot:
		r := &LookupReply{}
		switch {
		case a.err != nil:
			r.Code, r.Msg = codeOf(a.err), a.err.Error()
		case isHold(q):
			r.Hold, r.OK = a.st.Holds[q.(*GetHold).ID]
		default:
			p, ok := a.st.Pots[q.(*GetPot).ID]
			if ok {
				p = clonePot(p)
			}
			r.Pot, r.OK = p, ok
		}
		reply = r
	}
	a.answer(ctx, &pending{to: to, query: q, reply: reply})
}

func isHold(q any) bool { _, ok := q.(*GetHold); return ok }

// answer sends p's reply now when nothing is waiting for the disk, and otherwise queues it
// (with its rows) behind what is.
func (a *ledgerActor) answer(ctx actor.Context, p *pending) {
	if len(p.rows) == 0 && a.flight == nil && len(a.queue) == 0 {
		a.send(ctx, p.to, p.reply)
		return
	}
	a.queue = append(a.queue, p)
	a.kick(ctx)
}

// kick starts a write of everything queued, unless one is in flight: one transaction for many
// Posts, while the previous one lands.
func (a *ledgerActor) kick(ctx actor.Context) {
	if a.flight != nil || len(a.queue) == 0 {
		return
	}
	a.flight, a.queue = a.queue, nil
	var enc [][]byte
	var first uint64
	for _, p := range a.flight {
		for i := range p.rows {
			b, err := json.Marshal(&p.rows[i])
			if err != nil { // a Row always encodes (its memo was checked as JSON)
				panic(fmt.Sprintf("ledger: encode row %d: %v", p.rows[i].Seq, err))
			}
			if first == 0 {
				first = p.rows[i].Seq
			}
			enc = append(enc, b)
		}
	}
	self, inc, root := ctx.Self(), a.inc, ctx.ActorSystem().Root
	if len(enc) == 0 { // only answers that waited on a flight that has landed
		root.Send(self, &flightDone{inc: inc})
		return
	}
	a.l.writing.Lock()
	go func() {
		err := a.l.store.AppendLedger(first, enc)
		a.l.writing.Unlock()
		root.Send(self, &flightDone{inc: inc, err: err})
	}()
}

// landed releases the flight's answers, or, if its write failed, answers them unavailable,
// replays the rows the disk has and runs what was queued again against that state.
func (a *ledgerActor) landed(ctx actor.Context, err error) {
	f := a.flight
	a.flight = nil
	if err == nil {
		for _, p := range f {
			a.send(ctx, p.to, p.reply)
		}
		a.kick(ctx)
		return
	}
	a.l.o.Logger.Warn("ledger write failed: its posts are refused (retry) and the state is replayed", "err", err)
	fail := fmt.Errorf("%w: %v", ErrUnavailable, err)
	for _, p := range f {
		switch p.reply.(type) {
		case *PostReply:
			a.send(ctx, p.to, &PostReply{Code: codeOf(fail), Msg: fail.Error()})
		case *StateReply:
			a.send(ctx, p.to, &StateReply{Code: codeOf(fail), Msg: fail.Error()})
		default:
			a.send(ctx, p.to, &LookupReply{Code: codeOf(fail), Msg: fail.Error()})
		}
	}
	again := a.queue
	a.queue = nil
	a.load()
	for _, p := range again {
		if p.post != nil {
			a.post(ctx, p.to, p.post)
		} else {
			a.query(ctx, p.to, p.query)
		}
	}
}

func (a *ledgerActor) send(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}

func clonePot(p Pot) Pot {
	p.Stakes = maps.Clone(p.Stakes)
	p.Payouts = slices.Clone(p.Payouts)
	return p
}

// Audit checks l against its stored rows: the committed state keeps the invariant (Check) and
// equals the rows replayed from the store, so memory and disk agree and nothing was counted twice.
// Every test that moves money calls it.
func Audit(ctx context.Context, l *Ledger) error {
	st, err := l.State(ctx)
	if err != nil {
		return err
	}
	if err := Check(st); err != nil {
		return err
	}
	disk, err := Replay(l.store)
	if err != nil {
		return err
	}
	if err := Check(disk); err != nil {
		return fmt.Errorf("ledger: audit: the stored rows: %w", err)
	}
	if !reflect.DeepEqual(st, disk) {
		return fmt.Errorf("ledger: audit: the actor's state (row %d) is not the stored rows' (row %d)", st.Last, disk.Last)
	}
	return nil
}
