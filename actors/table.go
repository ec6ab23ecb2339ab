package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// tableActor runs one table's round: it owns the games.Match and its one snapshot record, its
// one timer, and the round actor below it. It is the unit of failure: any panic in it or its
// children restarts it (Started reloads the record) or parks it as failed (supervisor.go).
//
// Write before you speak: every step is committed (CommitStep: record + events, one
// transaction) before its prompts, reply, anchors or events leave; a failed commit reloads the
// match from the last committed record and nothing leaves.
type tableActor struct {
	env    *env
	id     string
	rec    *tableRecord // last committed record, less its snapshot (Match: in the store only)
	engine games.Engine
	match  games.Match
	keys   games.Keyring // made once per incarnation (a key derivation is not free)
	round  *actor.PID    // the round actor, which has one seat actor per seat

	gen     uint64 // timer generation: bumped on every arm; phaseDue of another gen is stale
	stop    func() bool
	armed   time.Time
	isArmed bool
	backoff bool // the last commit failed: retry the deadline in a second, not at once
	// redeliver: a failed commit dropped answers to the open prompts; they go out again on the
	// retry a second later, not at once, or a disk that keeps failing makes the table spin
	// (prompts out, house answers in, commit fails, prompts out again).
	redeliver bool

	input       string // key of the input being handled (isolation rule)
	outstanding int    // anchor jobs sent and not answered
	done        bool   // round finished; the actor stops once anchors are answered
	stopping    bool   // Poison sent to self
	// halted: the incarnation is restarting or stopping (its flight settled, its queued steps
	// dropped). protoactor still hands it user messages until its children stop; it takes no
	// input and starts no commit then, so the store stays what the last landed commit left and
	// the next incarnation redelivers the open moves.
	halted bool

	// The commit pipeline (commit.go): steps applied to the match but not yet durable wait in
	// queued; at most one commit is in flight. Their outputs leave only when it lands.
	queued *outbox
	flying *flight

	// The input log (games.Logged): every call that changed the match since the last commit
	// took them, encoded, for the next commit to append; and the log's head (games.LogHead)
	// while the record still carries it, until a commit moves it into the log.
	logged [][]byte
	head   []byte
}

func tableProps(e *env, id string) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &tableActor{env: e, id: id} },
		actor.WithSupervisor(escalate))
}

// escalate is the strategy of a table and of its round actor: any fault in a round or seat
// actor becomes the table's fault, so the whole table restarts from its one record.
var escalate = actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.EscalateDirective })

// tableFault is the panic value a table re-panics with, so the supervisor knows which input
// failed and whether to park the table.
type tableFault struct {
	Table  string
	Input  string
	Reason any
	Park   bool
}

func (f *tableFault) String() string {
	return fmt.Sprintf("table %s panicked on %s: %v", f.Table, f.Input, f.Reason)
}

func (t *tableActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		t.guard(ctx, "start", func() { t.start(ctx) })
	case *actor.Restarting, *actor.Stopping:
		t.disarm()
		t.settleFlight(ctx)
		t.halted = true
	case *SubmitAnswer:
		if t.halted {
			ctx.Respond(t.haltedReply())
			return
		}
		t.guard(ctx, inputKey(m.Input), func() { t.onSubmit(ctx, m) })
	case *phaseDue, *SeatAnswer, *Anchored, *CrashTable, *commitDone:
		if t.halted {
			return // the next incarnation restores from the store and redelivers
		}
		t.handle(ctx, m)
	case *abandonTable:
		if t.halted || t.match == nil {
			ctx.Respond(&opReply{Err: fmt.Errorf("%w: table %s is restarting; stop it again", ErrTimeout, t.id)})
			return
		}
		t.guard(ctx, "abandon:"+m.Reason, func() { t.onAbandon(ctx, m) })
	case *tableState:
		t.reply(ctx, ctx.Sender(), func() any { return t.stateReply() }, func() any { return t.stateReply() })
	case *ViewTable:
		t.onView(ctx, m)
	}
}

// onView answers a ViewTable with the match's view for the viewer, taken now and sent once the
// steps it reflects are durable (a failed commit answers unavailable).
func (t *tableActor) onView(ctx actor.Context, m *ViewTable) {
	if t.halted || t.match == nil {
		ctx.Respond(&ViewReply{Code: "unavailable"})
		return
	}
	r := &ViewReply{Round: t.rec.Round, State: t.match.View(m.Viewer).Bytes(), Prompts: t.match.Prompts()}
	t.reply(ctx, ctx.Sender(), func() any { return r }, func() any { return &ViewReply{Code: "unavailable"} })
}

// handle handles the messages that move the match (or its commits) once the table is not halted.
func (t *tableActor) handle(ctx actor.Context, msg any) {
	switch m := msg.(type) {
	case *commitDone:
		if m.flight == t.flying {
			t.guard(ctx, "commit", func() { t.landed(ctx) })
		}
	case *phaseDue:
		if m.Gen != t.gen || t.rec == nil || m.Round != t.rec.Round {
			t.env.m.staleTimers.Inc()
			return
		}
		t.isArmed = false
		t.guard(ctx, "advance@"+m.At.UTC().Format(time.RFC3339Nano), func() { t.onDue(ctx, m) })
	case *SeatAnswer:
		t.guard(ctx, inputKey(m.Input), func() { t.onSeatAnswer(ctx, m) })
	case *Anchored:
		t.guard(ctx, "anchored:"+m.Request.Kind+":"+strconv.FormatUint(uint64(m.Request.Seq), 10), func() { t.onAnchored(ctx, m) })
	case *CrashTable:
		t.guard(ctx, "crash:"+m.Tag, func() { panic("CrashTable " + m.Tag) })
	}
}

// guard runs f as the handling of input key. A panic is recorded against the table (restart
// count, last error, poisoned input) and re-raised as a *tableFault for the supervisor.
func (t *tableActor) guard(ctx actor.Context, key string, f func()) {
	t.input = key
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if f, ok := r.(*tableFault); ok { // already recorded (nested guard)
			panic(f)
		}
		park := t.recordPanic(t.input, r)
		panic(&tableFault{Table: t.id, Input: t.input, Reason: r, Park: park})
	}()
	f()
}

// recordPanic writes the panic into the table record as last committed and says whether the
// table must be parked: the same input panicked on the previous incarnation too, or it has
// used up Options.MaxRestarts.
func (t *tableActor) recordPanic(key string, reason any) bool {
	t.waitFlight() // the record written below must not race the commit in flight
	// The record as last committed, read back from the store: t.rec does not hold the snapshot,
	// and the record written here must keep it.
	b, err := t.env.store.LoadTable(t.id)
	if err != nil {
		t.env.log.Error("table panicked and its record cannot be read", "table", t.id, "input", key, "reason", reason, "err", err)
		return false
	}
	rec, err := decodeRecord(t.id, b)
	if err != nil {
		return true // an undecodable record will not get better
	}
	next := *rec
	next.Restarts++
	next.LastError = fmt.Sprintf("panic on %s: %v", key, reason)
	park := (rec.Poison != nil && rec.Poison.Input == key) || next.Restarts > t.env.maxRestarts
	if park {
		next.Status = StatusFailed
	}
	next.Poison = &poisonMark{Input: key, At: t.env.clock.Now()}
	if err := t.env.store.PutTable(t.id, next.encode()); err != nil {
		t.env.log.Error("record panic", "table", t.id, "err", err)
	}
	t.env.log.Warn("table panicked", "table", t.id, "input", key, "reason", fmt.Sprint(reason), "park", park)
	return park
}

// start (Started: first start, supervisor restart, ops restart, boot recovery) loads the record,
// restores the match, re-spawns the round, applies any deadline that passed while the table was
// down, and redelivers every open prompt.
func (t *tableActor) start(ctx actor.Context) {
	t.input = "restore"
	b, err := t.env.store.LoadTable(t.id)
	if err != nil {
		t.env.log.Error("table start: no record", "table", t.id, "err", err)
		ctx.Stop(ctx.Self())
		return
	}
	rec, err := decodeRecord(t.id, b)
	if err != nil {
		panic(err)
	}
	t.rec = rec
	if rec.Status != StatusLive && (rec.Status != StatusFinished || !rec.Unsettled) {
		ctx.Stop(ctx.Self())
		return
	}
	eng, ok := t.env.bracket.Engine(rec.Spec.Game)
	if !ok {
		panic(fmt.Sprintf("game %q not in the bracket", rec.Spec.Game))
	}
	t.engine = eng
	keys, err := t.env.keyring(rec.Spec.Game, t.id, rec.Spec.Seats, rec.BYO)
	if err != nil {
		panic(err)
	}
	t.keys = keys
	if t.match, err = t.restoreMatch(rec); err != nil {
		panic(fmt.Sprintf("restore: %v", err))
	}
	rec.Match = nil // kept in the store only: reload reads it back
	t.compact()
	// Anchor requests made but not recorded: their replies may have come while the table was
	// down or restarting. The chain actor answers a request it holds with the transaction it has.
	var pending []games.AnchorRequest
	if ak, ok := t.match.(games.AnchorKeeper); ok && t.env.anchorer != nil {
		pending = ak.PendingAnchors()
	}
	if rec.Status == StatusFinished {
		// Started on a finished round whose end may not have been announced (a crash or a restart
		// between the reveal's commit and what follows it): announce it again (a walk-in takes a
		// round's end once), record the anchors it has no line for, then settle and stop.
		t.done = true
		t.announce(ctx)
		t.emit(ctx, &outbox{anchors: pending})
		t.maybeStop(ctx)
		return
	}
	t.env.m.setStatus(t.id, rec.Spec.Game, StatusLive)
	seed, _ := hex.DecodeString(rec.Seed)
	t.round, err = ctx.SpawnNamed(roundProps(t.env, ctx.Self(), t.id, rec.Round, eng, seed, rec.Spec.Seats),
		"round-"+rec.Round)
	if err != nil {
		panic(fmt.Sprintf("spawn round: %v", err))
	}
	if dl, ok := t.match.Deadline(); ok {
		t.input = "advance@" + dl.UTC().Format(time.RFC3339Nano)
		if now := t.env.clock.Now(); !now.Before(dl) {
			if step := t.advance(now); !emptyStep(step) {
				if err := t.commitSync(step); err != nil {
					t.backoff = true
				} else {
					t.emit(ctx, &outbox{events: step.Events, anchors: step.Anchors})
				}
			}
		}
	}
	t.deliver(ctx, t.match.Prompts())
	t.emit(ctx, &outbox{anchors: pending})
	if t.rec.Status == StatusFinished {
		t.finish(ctx)
		return
	}
	t.arm(ctx)
}

func (t *tableActor) onDue(ctx actor.Context, m *phaseDue) {
	now := t.env.clock.Now()
	t.env.m.observeLateness(now.Sub(m.At))
	t.backoff = false
	if t.redeliver { // the retry after a failed commit
		t.redeliver = false
		t.deliver(ctx, t.match.Prompts())
		if dl, ok := t.match.Deadline(); !ok || now.Before(dl) {
			t.arm(ctx)
			return
		}
	}
	step := t.advance(now)
	if !emptyStep(step) {
		t.step(ctx, step, nil)
		return
	}
	if dl, ok := t.match.Deadline(); ok && !dl.After(now) {
		// The game kept a passed deadline without doing anything: retry later, never spin.
		t.env.log.Warn("deadline passed but Advance did nothing", "table", t.id, "deadline", dl)
		t.backoff = true
	}
	t.arm(ctx)
}

func (t *tableActor) onSubmit(ctx actor.Context, m *SubmitAnswer) {
	if m.Round != "" && m.Round != t.rec.Round {
		ctx.Respond(&SubmitAnswerReply{Code: games.CodeStale, Msg: "table " + t.id + " plays round " + t.rec.Round})
		return
	}
	step, err := t.act(t.env.clock.Now(), m.Input)
	if err != nil {
		// A refusal may rest on steps not yet durable: it leaves with them (or as unavailable).
		r := refusal(err)
		t.reply(ctx, ctx.Sender(), func() any { return r }, unavailable)
		return
	}
	t.env.m.moves.Inc()
	var r *pendingReply
	if ctx.Sender() != nil { // a plain Send asks for no reply
		r = &pendingReply{to: ctx.Sender(), ok: func() any { return &SubmitAnswerReply{Reply: step.Reply} },
			fail: unavailable}
	}
	t.step(ctx, step, r)
}

// onAbandon ends the match at now for an ops stop (abandonTable): the abandon is logged and
// committed like any step, and the stop is answered once it is durable; the table then finishes
// (landed: RoundEnded with Result.Abandoned) and stops. A round already over is refused.
func (t *tableActor) onAbandon(ctx actor.Context, m *abandonTable) {
	now := t.env.clock.Now()
	step := t.match.Abandon(now, m.Reason)
	if emptyStep(step) { // the match was over already
		t.reply(ctx, ctx.Sender(), func() any { return &opReply{Err: errFinished(t.id, "stop")} }, unavailableOp)
		return
	}
	t.logInput(games.Logged{Op: games.OpAbandon, At: now, Reason: m.Reason})
	var r *pendingReply
	if ctx.Sender() != nil {
		r = &pendingReply{to: ctx.Sender(), ok: func() any { return &opReply{} }, fail: unavailableOp}
	}
	t.step(ctx, step, r)
}

// unavailableOp answers an ops stop whose abandon did not become durable.
func unavailableOp() any {
	return &opReply{Err: fmt.Errorf("%w: the abandon could not be recorded; stop the table again", ErrTimeout)}
}

// haltedReply answers an input handed to an incarnation that is restarting or stopping: a round
// whose end is committed is over (the table stops after it), as the façade answers once the
// actor is gone; any other is unavailable, to be sent again to the next incarnation.
func (t *tableActor) haltedReply() any {
	if t.rec != nil && t.rec.Status == StatusFinished {
		return &SubmitAnswerReply{Code: games.CodeRoundOver, Msg: "round " + t.rec.Round + " is over"}
	}
	return unavailable()
}

func unavailable() any {
	return &SubmitAnswerReply{Code: "unavailable", Msg: "could not record the move; send it again", Retry: true}
}

func (t *tableActor) onSeatAnswer(ctx actor.Context, m *SeatAnswer) {
	if m.Round != t.rec.Round {
		return
	}
	step, err := t.act(t.env.clock.Now(), m.Input)
	if err != nil {
		t.env.log.Debug("seat answer refused", "table", t.id, "seat", m.Input.Seat, "from", m.From, "err", err)
		return
	}
	t.env.m.moves.Inc()
	t.step(ctx, step, nil)
}

func (t *tableActor) onAnchored(ctx actor.Context, m *Anchored) {
	if t.outstanding > 0 {
		t.outstanding--
	}
	if m.Err == "" && m.Round == t.rec.Round {
		body := games.AnchoredBody{Kind: m.Request.Kind, Seq: m.Request.Seq,
			Hash: hex.EncodeToString(m.Request.Hash[:]), Tx: m.Tx}
		in := games.Input{Kind: "anchored", Body: mustJSON(body)}
		if step, err := t.act(t.env.clock.Now(), in); err != nil {
			t.env.log.Warn("anchored input refused", "table", t.id, "kind", m.Request.Kind, "err", err)
		} else {
			t.step(ctx, step, nil)
		}
	}
	t.maybeStop(ctx)
}

// reload rebuilds the match from the last committed snapshot (after a failed commit), read back
// from the store: a live table does not hold its snapshot on the heap between commits.
func (t *tableActor) reload() {
	b, err := t.env.store.LoadTable(t.id)
	if err != nil {
		panic(fmt.Sprintf("reload after failed commit: %v", err))
	}
	rec, err := decodeRecord(t.id, b)
	if err != nil {
		panic(fmt.Sprintf("reload after failed commit: %v", err))
	}
	m, err := t.restoreMatch(rec)
	if err != nil {
		panic(fmt.Sprintf("reload after failed commit: %v", err))
	}
	t.match = m
	t.compact() // a match restored from the store holds its public log raw until packed
}

// position is the turn and phase shown in the ops list: the open move, else the last event's.
func (t *tableActor) position(events []games.Event) (int, string) {
	if ps := t.match.Prompts(); len(ps) > 0 {
		return ps[0].Move.Turn, ps[0].Move.Phase
	}
	if n := len(events); n > 0 {
		return events[n-1].Turn, events[n-1].Phase
	}
	return t.rec.Turn, t.rec.Phase
}

// arm sets the one timer for the match's deadline (unless already set for it); after a failed
// commit (backoff) no sooner than a second from now, and a second from now when the open
// prompts are owed again (redeliver), however far the deadline.
func (t *tableActor) arm(ctx actor.Context) {
	dl, ok := t.match.Deadline()
	if t.done || !ok && !t.redeliver {
		t.disarm()
		return
	}
	if t.backoff || t.redeliver {
		if retry := t.env.clock.Now().Add(time.Second); !ok || t.redeliver || dl.Before(retry) {
			dl = retry
		}
	} else if t.isArmed && dl.Equal(t.armed) {
		return
	}
	t.disarm()
	t.gen++
	gen, round, self, root, at := t.gen, t.rec.Round, ctx.Self(), ctx.ActorSystem().Root, dl
	t.stop = t.env.clock.AfterFunc(dl.Sub(t.env.clock.Now()), func() {
		root.Send(self, &phaseDue{Round: round, Gen: gen, At: at})
	})
	t.armed, t.isArmed = dl, true
}

func (t *tableActor) disarm() {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	t.isArmed = false
}

// finish ends the table once its result is committed: mailboxes are told, and the actor stops
// (after the anchors it sent are answered, so their events reach the transcript).
func (t *tableActor) finish(ctx actor.Context) {
	t.disarm()
	if t.done {
		return
	}
	t.done = true
	t.env.m.roundsFinished.Inc()
	t.env.m.setStatus(t.id, t.rec.Spec.Game, StatusFinished)
	if s := t.env.m.samples; s != nil {
		select {
		case s.done <- t.id:
		default:
		}
	}
	t.announce(ctx)
	t.env.log.Info("round finished", "table", t.id, "round", t.rec.Round)
	t.maybeStop(ctx)
}

// announce tells the channel actor of every seat that has its own (SeatSpec.Actor: a walk-in's
// mailbox) the round ended, with its result and the seat's final view.
func (t *tableActor) announce(ctx actor.Context) {
	res := *t.rec.Result
	ends := make([]*RoundEnded, len(t.rec.Spec.Seats))
	for i, s := range t.rec.Spec.Seats {
		if s.Actor != "" {
			ends[i] = &RoundEnded{Table: t.id, Round: t.rec.Round, Seat: s.Seat.Seat, Result: res}
			if t.match != nil {
				ends[i].View = t.match.View(s.Seat.Seat).Bytes()
			}
		}
	}
	// The views are taken first, so the ends go out back to back.
	for i, s := range t.rec.Spec.Seats {
		if ends[i] != nil {
			ctx.Send(actor.NewPID(ctx.ActorSystem().Address(), s.Actor), ends[i])
		}
	}
}

// maybeStop stops a finished table once nothing is pending: no anchor reply awaited, no commit
// in flight or queued.
func (t *tableActor) maybeStop(ctx actor.Context) {
	if t.done && !t.stopping && t.outstanding == 0 && t.flying == nil && t.queued == nil {
		t.stopping = true
		t.settled()
		ctx.Poison(ctx.Self())
	}
}

// settled clears the record's Unsettled mark: the end is announced and no anchor reply is awaited.
// The record is read back from the store (it holds what t.rec does not: a snapshot, for a game
// with no journal). A failed write leaves the mark: the next boot announces the end again, which
// a walk-in takes once.
func (t *tableActor) settled() {
	b, err := t.env.store.LoadTable(t.id)
	if err != nil {
		return
	}
	rec, err := decodeRecord(t.id, b)
	if err != nil || !rec.Unsettled || rec.Status != StatusFinished {
		return
	}
	rec.Unsettled = false
	if err := t.env.store.PutTable(t.id, rec.encode()); err != nil {
		t.env.log.Warn("finished table not marked settled", "table", t.id, "err", err)
	}
}

// inputKey identifies an input for the isolation rule: the same key twice in a row is the same
// input.
func inputKey(in games.Input) string {
	sum := sha256.Sum256(in.Body)
	return fmt.Sprintf("act:%d:%s:%d/%s/%d:%s", in.Seat, in.Kind, in.Move.Turn, in.Move.Phase, in.Move.Exchange,
		hex.EncodeToString(sum[:8]))
}

func refusal(err error) *SubmitAnswerReply {
	var ge *games.Error
	if errors.As(err, &ge) {
		return &SubmitAnswerReply{Code: ge.Code, Msg: ge.Msg, Retry: ge.Retry}
	}
	return &SubmitAnswerReply{Code: games.CodeBadRequest, Msg: err.Error()}
}

func emptyStep(s games.Step) bool {
	return len(s.Events) == 0 && len(s.Prompts) == 0 && len(s.Anchors) == 0 && len(s.Reply) == 0
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// restoreMatch rebuilds the match of a record read from the store by games.ReplayLog of its
// input log: the head (in the record until the first commit moves it into the log, else the
// log's first entry) and the entries stored so far. A record written before every table logged
// its inputs holds an event-sourced snapshot ({v, setup, log}: a head and its entries in one
// value) instead; it replays the same way, and its next commit starts the table's log with it.
func (t *tableActor) restoreMatch(rec *tableRecord) (games.Match, error) {
	t.logged, t.head = nil, nil
	if !rec.Journal {
		head, entries, err := splitSnapshot(rec.Match)
		if err != nil {
			return nil, fmt.Errorf("table %s: the record holds no input log: %w", t.id, err)
		}
		m, err := games.ReplayLog(t.engine, head, entries, t.keys)
		if err != nil {
			return nil, err
		}
		t.head, t.logged = head, entries
		t.dropInputs(m)
		return m, nil
	}
	logged, err := t.env.store.Inputs(t.id)
	if err != nil {
		return nil, err
	}
	entries := make([][]byte, len(logged))
	for i, in := range logged {
		entries[i] = in.Data
	}
	head := rec.Match // the record carries the head until the first commit
	if len(head) > 0 {
		t.head = head
	} else {
		if len(entries) == 0 {
			return nil, fmt.Errorf("table %s: the record has an input log, and the store holds none", t.id)
		}
		head, entries = entries[0], entries[1:]
	}
	m, err := games.ReplayLog(t.engine, head, entries, t.keys)
	if err != nil {
		return nil, err
	}
	t.dropInputs(m)
	return m, nil
}

// splitSnapshot reads an event-sourced snapshot, {"v":1,"setup":…,"log":[…]}, as a log head and
// its entries.
func splitSnapshot(snap []byte) (head []byte, entries [][]byte, err error) {
	var v struct {
		V     int               `json:"v"`
		Setup json.RawMessage   `json:"setup"`
		Log   []json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(snap, &v); err != nil || v.V != 1 || len(v.Setup) == 0 {
		return nil, nil, fmt.Errorf("not an event-sourced snapshot (v %d, %v)", v.V, err)
	}
	head, err = json.Marshal(struct {
		V     int             `json:"v"`
		Setup json.RawMessage `json:"setup"`
	}{1, v.Setup})
	for _, e := range v.Log {
		entries = append(entries, []byte(e))
	}
	return head, entries, err
}

// advance is the match's Advance at now, logged when a deadline was due (an early Advance
// changes nothing).
func (t *tableActor) advance(now time.Time) games.Step {
	if dl, ok := t.match.Deadline(); ok && !now.Before(dl) {
		t.logInput(games.Logged{Op: games.OpAdvance, At: now})
	}
	return t.match.Advance(now)
}

// act is the match's Act at now, logged when accepted (a refusal changes nothing).
func (t *tableActor) act(now time.Time, in games.Input) (games.Step, error) {
	step, err := t.match.Act(now, in)
	if err == nil {
		t.logInput(games.Logged{Op: games.OpAct, At: now, Input: in})
	}
	return step, err
}

// logInput adds l to the inputs the next commit appends to the table's log.
func (t *tableActor) logInput(l games.Logged) {
	t.logged = append(t.logged, mustJSON(l))
}

// dropInputs tells a match that keeps its own inputs (games.InputKeeper) that the table's log
// holds them.
func (t *tableActor) dropInputs(m games.Match) {
	if k, ok := m.(games.InputKeeper); ok {
		k.DropInputs()
	}
}

// deliver sends prompts to their seats through the round actor.
func (t *tableActor) deliver(ctx actor.Context, ps []games.Prompt) {
	if len(ps) > 0 && t.round != nil {
		ctx.Send(t.round, &deliverPrompts{Prompts: ps})
	}
}
