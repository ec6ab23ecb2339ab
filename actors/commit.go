package actors

import (
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// The commit pipeline. Write before you speak, without making a table wait on the disk:
//
//   - A step is applied to the match at once and its outputs (events, prompts, anchors, replies)
//     are queued in an outbox. Nothing in it leaves yet.
//   - At most one commit per table is in flight, on its own goroutine: the match's snapshot as
//     of now and the events of every queued step, in one CommitStep. Steps that arrive meanwhile
//     queue up and go together in the next commit (house answers arriving together cost one
//     commit, not three).
//   - When the commit lands (*commitDone), its outbox leaves in order. When it fails, every
//     step not yet durable is dropped: the match is reloaded from the last committed record,
//     pending replies answer "unavailable" (retry), and a second later the open prompts are
//     redelivered and the deadline is retried (at once, house seats would answer again, that
//     commit fail again, and the table spin for as long as the disk fails).
//   - A refusal computed on steps not yet durable waits for them like a reply.
//   - Restarting, Stopping and a panic wait for the flight to land first, so a new incarnation
//     never loads a record that is about to be overwritten.

// outbox holds the outputs of steps applied but not yet durable, in order.
type outbox struct {
	events  []games.Event
	prompts []games.Prompt
	anchors []games.AnchorRequest
	replies []*pendingReply
	steps   int // steps that changed the match (0: replies only)
}

// pendingReply is an answer that may leave only once the state it rests on is durable: ok is
// sent then; fail if that state is rolled back.
type pendingReply struct {
	to       *actor.PID
	ok, fail func() any
}

// flight is the commit in flight.
type flight struct {
	box  *outbox
	rec  *tableRecord // the record being written; current once it lands
	done chan struct{}
	err  error // set before done is closed
}

// commitDone comes back from the flight's goroutine.
type commitDone struct{ flight *flight }

func (t *tableActor) stateReply() *tableStateReply {
	r := &tableStateReply{Gen: t.gen}
	if t.rec != nil {
		r.Turn, r.Phase = t.rec.Turn, t.rec.Phase
	}
	if t.match != nil {
		r.Prompts = len(t.match.Prompts())
	}
	return r
}

// step queues a step's outputs (and reply, if any), starts a commit if none is in flight, and
// re-arms the timer for the match's (in-memory) deadline: a timer is not speech.
func (t *tableActor) step(ctx actor.Context, step games.Step, r *pendingReply) {
	if t.queued == nil {
		t.queued = &outbox{}
	}
	q := t.queued
	q.events = append(q.events, step.Events...)
	q.prompts = append(q.prompts, step.Prompts...)
	q.anchors = append(q.anchors, step.Anchors...)
	q.steps++
	if r != nil {
		q.replies = append(q.replies, r)
	}
	t.compact()
	t.kick(ctx)
	t.arm(ctx)
}

// compact lets the match make what it holds between steps smaller (games.Compactor: Blitz packs
// its public log through tablePacker and drops answered prompts' states), after a step and never
// inside the engine's Act or Advance. The step's outputs, queued, keep what they hold.
func (t *tableActor) compact() {
	if c, ok := t.match.(games.Compactor); ok {
		c.Compact(tablePacker)
	}
}

// tablePacker is the process's one deflater for the tables' packed logs: a games.Deflater is
// about a megabyte (its hash tables) and packing is rare (a few KiB of log a step), so every
// table shares it, one at a time. The lock is here, on the actor side: the games hold none.
var tablePacker = &sharedPacker{}

// sharedPacker is a games.Deflater lent to one table at a time.
type sharedPacker struct {
	mu sync.Mutex
	z  games.Deflater
}

// Pack is games.Deflater.Pack under the lock.
func (p *sharedPacker) Pack(d *games.PackDict, run *games.Packed, raw ...[]byte) *games.Packed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.z.Pack(d, run, raw...)
}

// reply sends ok now if nothing is pending, else after what is pending lands (fail if it is
// rolled back).
func (t *tableActor) reply(ctx actor.Context, to *actor.PID, ok, fail func() any) {
	if to == nil {
		return
	}
	switch {
	case t.queued != nil:
		t.queued.replies = append(t.queued.replies, &pendingReply{to: to, ok: ok, fail: fail})
	case t.flying != nil:
		t.flying.box.replies = append(t.flying.box.replies, &pendingReply{to: to, ok: ok, fail: fail})
	default:
		ctx.Send(to, ok())
	}
}

// kick starts a commit of everything queued unless one is in flight.
func (t *tableActor) kick(ctx actor.Context) {
	if t.flying != nil || t.queued == nil {
		return
	}
	box := t.queued
	t.queued = nil
	if box.steps == 0 { // only replies waiting on a flight that has landed
		t.release(ctx, box)
		return
	}
	rec, journal, err := t.nextRecord(box)
	f := &flight{box: box, rec: rec, done: make(chan struct{})}
	t.flying = f
	if err != nil {
		f.err = err
		close(f.done)
		ctx.Send(ctx.Self(), &commitDone{flight: f})
		return
	}
	store, id, m, self, root := t.env.store, t.id, t.env.m, ctx.Self(), ctx.ActorSystem().Root
	events, encoded := box.events, t.encodeChanged(rec)
	rec.Match = nil // the snapshot's home is the store (reload reads it back), not the heap
	go func() {
		began := time.Now()
		f.err = store.CommitInputs(id, encoded, journal, events)
		m.observeCommit(time.Since(began))
		close(f.done)
		root.Send(self, &commitDone{flight: f})
	}()
}

// nextRecord is the record the match is at now and the input log's entries to store with it:
// the head first while the record still carries it, then every input logged since the last
// commit. The record holds no snapshot: every step stores only its new inputs.
func (t *tableActor) nextRecord(box *outbox) (*tableRecord, [][]byte, error) {
	inputs := t.logged
	t.logged = nil
	next := *t.rec
	next.Match, next.Journal, next.headMoved = nil, true, false
	if t.head != nil {
		inputs = append([][]byte{t.head}, inputs...)
		t.head, next.headMoved = nil, true
	}
	t.dropInputs(t.match)
	next.Updated = t.env.clock.Now()
	next.Turn, next.Phase = t.position(box.events)
	if res, ok := t.match.Result(); ok {
		next.Status = StatusFinished
		next.Result = &res
		next.Unsettled = true
	}
	return &next, inputs, nil
}

// landed handles the flight's outcome on the table's goroutine.
func (t *tableActor) landed(ctx actor.Context) {
	f := t.flying
	t.flying = nil
	if f.err != nil {
		t.env.log.Error("commit failed: nothing sent, steps since the last commit dropped", "table", t.id, "err", f.err)
		t.rollback(ctx, f)
		return
	}
	t.rec = f.rec
	t.release(ctx, f.box)
	t.kick(ctx)
	if t.rec.Status == StatusFinished {
		t.finish(ctx)
	}
	t.maybeStop(ctx)
}

// release lets a durable outbox out, in order: events to the hook, anchors to the chain,
// prompts to the seats, replies to their senders.
func (t *tableActor) release(ctx actor.Context, box *outbox) {
	t.emit(ctx, box)
	for _, r := range box.replies {
		ctx.Send(r.to, r.ok())
	}
}

func (t *tableActor) emit(ctx actor.Context, box *outbox) {
	if len(box.events) > 0 {
		t.env.events(t.id, t.rec.Spec.Game, t.rec.Round, box.events)
	}
	for _, a := range box.anchors {
		t.env.anchor(t.rec.Spec.Game, AnchorJob{Table: t.id, Round: t.rec.Round, Request: a, ReplyTo: ctx.Self()})
		if t.env.countAnchor {
			t.outstanding++
		}
	}
	t.deliver(ctx, box.prompts)
}

// rollback drops every step not yet durable after a failed commit.
func (t *tableActor) rollback(ctx actor.Context, f *flight) {
	queued := t.queued
	t.queued = nil
	t.reload()
	t.backoff = true
	t.redeliver = true // answers given to dropped steps are gone: ask again on the retry
	t.arm(ctx)
	for _, box := range []*outbox{f.box, queued} {
		if box == nil {
			continue
		}
		for _, r := range box.replies {
			ctx.Send(r.to, r.fail())
		}
	}
}

// commitSync commits one step on the table's goroutine (Started, where nothing is pending).
func (t *tableActor) commitSync(step games.Step) error {
	rec, journal, err := t.nextRecord(&outbox{events: step.Events})
	if err == nil {
		began := time.Now()
		err = t.env.store.CommitInputs(t.id, t.encodeChanged(rec), journal, step.Events)
		rec.Match = nil
		t.env.m.observeCommit(time.Since(began))
	}
	if err != nil {
		t.env.log.Error("commit failed: nothing sent", "table", t.id, "err", err)
		t.reload()
		return err
	}
	t.rec = rec
	t.compact()
	return nil
}

// waitFlight blocks until the commit in flight (if any) has landed and makes its record current
// if it succeeded (its outputs are not sent: see settleFlight).
func (t *tableActor) waitFlight() {
	if f := t.flying; f != nil {
		<-f.done
		if f.err == nil {
			t.rec = f.rec
		}
	}
}

// settleFlight runs when the table restarts or stops: it waits for the flight, answers its
// replies by its outcome and every queued reply with unavailable. Prompts are not sent: the next
// incarnation redelivers the open ones.
func (t *tableActor) settleFlight(ctx actor.Context) {
	if f := t.flying; f != nil {
		t.waitFlight()
		for _, r := range f.box.replies {
			if f.err == nil {
				ctx.Send(r.to, r.ok())
			} else {
				ctx.Send(r.to, r.fail())
			}
		}
		if f.err == nil && len(f.box.events) > 0 {
			t.env.events(t.id, t.rec.Spec.Game, t.rec.Round, f.box.events)
		}
		t.flying = nil
		if f.err == nil && f.rec.Status == StatusFinished {
			// The round's end is durable: announce it now (finished status, RoundEnded to the
			// walk-ins), for no next incarnation will. Its anchors are sent by the next start
			// (PendingAnchors), which records them.
			t.rec = f.rec
			t.stopping = true // finish must not stop what is already stopping
			t.finish(ctx)
		}
	}
	if t.queued != nil {
		for _, r := range t.queued.replies {
			ctx.Send(r.to, r.fail())
		}
		t.queued = nil
	}
}

// encodeChanged is the stored form of rec, or nil when the stored record already says all it
// says: a table whose status, position and result did not move (an answer within a
// phase) stores only its journal entries and events, not the record again. Updated is then the
// instant of the record's last change.
func (t *tableActor) encodeChanged(rec *tableRecord) []byte {
	old := t.rec
	if rec.Journal && !rec.headMoved && old != nil && old.Journal && len(rec.Match) == 0 && rec.Status == old.Status &&
		rec.Turn == old.Turn && rec.Phase == old.Phase && rec.Result == nil && old.Result == nil &&
		rec.LastError == old.LastError && rec.Restarts == old.Restarts && rec.Poison == old.Poison &&
		rec.Unsettled == old.Unsettled {
		rec.Updated = old.Updated
		return nil
	}
	return rec.encode()
}
