package dotdotdot

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
)

// The walk-in actor (§4.4): one per token, named "desk/walkin-<first 32 hex of sha256(token)>".
// It owns the token's record (walkinRecord, storage walkins/<sha256(token) hex>), knows the seat
// the token holds (at most one live round, §4.4 in_a_round) and routes the token's polls and
// answers to that seat's mailbox. A restart reloads the record; the mailbox is a sibling (a
// child of the desk), so it survives.

// walkinBeginJoin asks the walk-in actor to start a join: it checks in_a_round and not_yet and,
// for the walkin table, queues the walk-in with the desk. Reply *walkinBeginJoinReply.
type walkinBeginJoin struct {
	deskReplier
	Req JoinRequest
}

type walkinBeginJoinReply struct {
	Err      *games.Error
	Gen      uint64 // the practice join in flight, to hand back in walkinEndJoin
	Hash     string // the record key (the mailbox routes the result by it)
	Name     string
	Practice int
	// Table, Seat and StartsBy are a Free play place (gathering.go): the table, the place in
	// the order of joins and when house seats may top it up.
	Table    string
	Seat     int
	StartsBy time.Time
}

// walkinEndJoin ends a practice join begun with Gen: Live is the seat taken, nil when the table
// could not be opened. Reply *walkinEndJoinReply.
type walkinEndJoin struct {
	deskReplier
	Gen  uint64
	Live *walkinLive
}

type walkinEndJoinReply struct{ OK bool }

// walkinSeated tells a queued walk-in the walkin table it was seated at (desk → walk-in). The
// walk-in answers lobbySeatTaken once its record is saved, whether it took the seat or not.
type walkinSeated struct{ Live *walkinLive }

// walkinRequeued goes desk → walk-in when the desk, restarted, puts back the walk-in's place in
// the walkin table's queue of Key (lobby.go).
type walkinRequeued struct{ Key string }

// walkinUnqueued tells a queued walk-in its table could not be opened: it is free to join again.
type walkinUnqueued struct{}

// walkinSeatOf asks for the seat the token holds in round (for levers). Reply *walkinSeatReply.
type walkinSeatOf struct {
	deskReplier
	Round string
}

type walkinSeatReply struct {
	Err   *games.Error
	Table string
	Round string
	Seat  int
}

// walkinGetView asks for the record as JSON (public: the page by name). Reply *walkinViewReply.
type walkinGetView struct {
	deskReplier
	Public bool
}

type walkinViewReply struct{ JSON json.RawMessage }

// walkinRoundEnded is the seat's round result, routed mailbox → desk → walk-in.
type walkinRoundEnded struct{ Ended actors.RoundEnded }

// walkinIdle is the walk-in's idle timer; Gen tells a stale one apart.
type walkinIdle struct{ Gen uint64 }

// walkinStop goes desk → walk-in: stop if still idle (else answer deskKeep).
type walkinStop struct{}

// walkinIdleAfter is how long a walk-in actor with nothing going on stays in memory. Its
// record is in storage; the next request for the token loads it again.
const walkinIdleAfter = 15 * time.Minute

type walkin struct {
	a    *Arena
	log  *slog.Logger
	hash string
	rec  walkinRecord

	gens    uint64
	joinGen uint64 // a practice join in flight (0: none)
	queued  bool   // waiting at the walkin table
	hosted  string // the hosted table's code waited at, hostedPending, or "" (hosted_walkin.go)
	mailbox *actor.PID
	waiters []mboxWaiter // polls while a join is being seated

	idleGen    uint64
	idleStop   func() bool // the armed idle timer (nil: none)
	lastActive time.Time
	claim      int // claimNone, claimPending, claimSpent (walkin_claim.go)
}

func newWalkin(a *Arena, hash string) *walkin {
	return &walkin{a: a, hash: hash, log: a.deskLogger().With("walkin", hash[:12])}
}

// Receive implements actor.Actor.
func (w *walkin) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Stopping, *actor.Restarting:
		w.disarmIdle()
		return
	case *actor.Stopped, *actor.Terminated:
		return
	case *walkinIdle:
		if msg.Gen != w.idleGen || !w.idle() {
			return
		}
		w.idleStop = nil
		if left := w.lastActive.Add(walkinIdleAfter).Sub(w.a.deskClock().Now()); left > 0 {
			w.startIdle(ctx, left) // used since the timer was armed
			return
		}
		ctx.Send(ctx.Parent(), &deskPassivate{Hash: w.hash, PID: ctx.Self()})
		return
	case *walkinStop:
		if !w.idle() {
			ctx.Send(ctx.Parent(), &deskKeep{Hash: w.hash, PID: ctx.Self()})
			return
		}
		if w.mailbox != nil {
			ctx.Send(ctx.Parent(), &deskDropMailbox{PID: w.mailbox}) // its result is in the table's record
		}
		w.disarmIdle()
		ctx.Stop(ctx.Self())
		return
	}
	w.lastActive = w.a.deskClock().Now()
	w.receive(ctx)
	w.armIdle(ctx)
}

// idle: no seat, no join on its way, no place in a queue, no poll waiting here.
func (w *walkin) idle() bool {
	return w.rec.Live == nil && w.joinGen == 0 && !w.queued && w.hosted == "" && len(w.waiters) == 0
}

// armIdle runs after each message: it stops the idle timer while the walk-in is busy and arms
// it when it is idle and none is armed. Messages while idle only move lastActive; the timer
// then re-arms for what is left when it fires (one timer per idle spell, not per message).
func (w *walkin) armIdle(ctx actor.Context) {
	if !w.idle() {
		w.disarmIdle()
		return
	}
	if w.idleStop == nil {
		w.startIdle(ctx, walkinIdleAfter)
	}
}

func (w *walkin) startIdle(ctx actor.Context, d time.Duration) {
	w.idleGen++
	self, root, gen := ctx.Self(), ctx.ActorSystem().Root, w.idleGen
	w.idleStop = w.a.deskClock().AfterFunc(d, func() { root.Send(self, &walkinIdle{Gen: gen}) })
}

func (w *walkin) disarmIdle() {
	if w.idleStop != nil {
		w.idleStop()
		w.idleStop = nil
	}
}

func (w *walkin) receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		w.load(ctx)
	case *walkinBeginJoin:
		if r := w.beginJoin(ctx, msg.Req, msg.deskReplier); r != nil {
			msg.respond(r)
		}
	case *walkinEndJoin:
		ok := msg.Gen != 0 && msg.Gen == w.joinGen
		if ok {
			w.joinGen = 0
			if msg.Live != nil {
				w.seat(ctx, msg.Live)
			} else {
				w.release(Next{Waiting: true, Status: NextIdle})
			}
		}
		msg.respond(&walkinEndJoinReply{OK: ok})
	case *walkinSeated:
		// Taken even if the queue place was forgotten (a restart of this actor): the walk-in did
		// ask for the table. Refused when it holds a seat already, or played that round (the
		// desk, restarted, seats a table's walk-ins again until each has answered).
		if w.rec.Live == nil && w.joinGen == 0 && !w.playedRound(msg.Live.Table, msg.Live.Round) {
			w.queued = false
			w.seat(ctx, msg.Live)
		}
		ctx.Send(ctx.Parent(), &lobbySeatTaken{Table: msg.Live.Table, Hash: w.hash})
	case *walkinRequeued:
		if w.rec.Live != nil || w.joinGen != 0 || w.hosted != "" {
			// It holds another seat by now: the restored place is not its own any more.
			ctx.Send(ctx.Parent(), &lobbyLeave{Key: msg.Key, Hash: w.hash})
			return
		}
		w.queued = true
	case *walkinUnqueued:
		w.queued = false
		w.release(Next{Waiting: true, Status: NextIdle})
	case *walkinAwait:
		w.await(ctx, msg)
	case *mboxClaim:
		if w.mailbox == nil || w.queued {
			msg.respond(&mboxClaimReply{Err: games.Errorf(games.CodeStale, "no move is waiting for this seat")})
			return
		}
		ctx.Send(w.mailbox, msg)
	case *mboxClaimDone:
		if w.mailbox != nil {
			ctx.Send(w.mailbox, msg)
		}
	case *walkinSeatOf:
		msg.respond(w.seatOf(msg.Round))
	case *walkinExport:
		msg.respond(w.export(msg))
	case *walkinGetView:
		b, err := json.Marshal(w.rec.view(msg.Public))
		if err != nil {
			msg.respond(err)
			return
		}
		msg.respond(&walkinViewReply{JSON: b})
	case *walkinRoundEnded:
		w.roundEnded(ctx, &msg.Ended)
	case *walkinSeatStopped:
		w.seatStopped(msg.Stopped)
	case *walkinClaim:
		msg.respond(w.beginClaim())
	case *walkinClaimDone:
		if w.claim == claimPending {
			w.claim = claimNone
			if msg.OK {
				w.claim = claimSpent
			}
		}
	default:
		w.receiveHosted(ctx, msg)
	}
}

// load reads the record (on start and after every restart). A record that cannot be read stops
// the actor: the desk forgets it and the next request loads it afresh.
func (w *walkin) load(ctx actor.Context) {
	b, err := w.a.Store().Walkins().Get(w.hash)
	if err == nil {
		err = json.Unmarshal(b, &w.rec)
	}
	if err != nil {
		w.log.Error("walk-in record unreadable", "err", err)
		ctx.Stop(ctx.Self())
		return
	}
	if l := w.rec.Live; l != nil && l.Mailbox != "" {
		w.mailbox = actor.NewPID(ctx.ActorSystem().Address(), l.Mailbox)
	}
	// A live seat whose table has finished: the actors.RoundEnded died with the process (a crash between
	// the reveal's commit and this record). The round's end is the table's record's; it is taken
	// now, and polls answer that result (lastResult) until the next join.
	if e := w.liveEnded(); e != nil {
		w.roundEnded(ctx, e)
		w.mailbox = nil
	}
}

// persist commits the record. A failed write is logged; the record in memory stays right and is
// written again with the next change.
func (w *walkin) persist() {
	b, err := json.Marshal(&w.rec)
	if err == nil {
		err = w.a.Store().Walkins().Put(w.hash, b)
	}
	if err != nil {
		w.log.Error("walk-in record not saved", "err", err)
	}
}

// beginJoin starts a join; nil means the answer was handed on with replier (a place in the
// walkin table's queue: the desk answers once it is saved).
func (w *walkin) beginJoin(ctx actor.Context, req JoinRequest, replier deskReplier) *walkinBeginJoinReply {
	r := &walkinBeginJoinReply{Hash: w.hash, Name: w.rec.Name, Practice: w.rec.Practice}
	if err := w.spentRefusal(); err != nil {
		r.Err = err
		return r
	}
	if w.hosted != "" {
		r.Err = games.Errorf(CodeAtAHostedTable, "this walk-in waits at a hosted table; leave it first (§4.5)")
		return r
	}
	if w.rec.Live != nil && w.joinGen == 0 && w.liveGone() {
		w.seatStopped(actors.TableStopped{Table: w.rec.Live.Table, Round: w.rec.Live.Round, Seat: w.rec.Live.Seat})
	}
	if w.rec.Live != nil || w.joinGen != 0 || w.queued {
		round := "a table that is being opened"
		if w.rec.Live != nil {
			round = "round " + w.rec.Live.Round
		} else if w.queued {
			round = "a place at a gathering table"
		}
		r.Err = games.Errorf(CodeInARound, "this walk-in already holds %s", round)
		return r
	}
	if req.Table == "walkin" {
		if w.rec.Practice < PracticeRoundsForWalkin {
			r.Err = games.Errorf(CodeNotYet, "the walkin table opens after %d Practice rounds; %d done",
				PracticeRoundsForWalkin, w.rec.Practice)
			return r
		}
		// The desk answers once the place is saved (lobby.go); a place it cannot save comes back
		// as walkinUnqueued.
		w.queued = true
		fwd := &lobbyEnqueue{Hash: w.hash, PID: ctx.Self(), Name: w.rec.Name, Format: req.Format, Pace: req.Pace, Reply: r}
		fwd.deskReplier = replier
		ctx.Send(ctx.Parent(), fwd)
		return nil
	}
	if req.Table == KindFree {
		// Free play gathers walk-ins beside registered agents (gathering.go): the gatherer
		// answers once the place is saved, or sends walkinUnqueued with a refusal.
		w.queued = true
		g := w.a.gathering
		if g == nil {
			w.queued = false
			r.Err = games.Errorf(CodeBadTable, "this arena gathers no Free play")
			return r
		}
		fwd := &gatherWalkin{Hash: w.hash, PID: ctx.Self(), Name: w.rec.Name, Format: req.Format, Seats: req.Seats, Reply: r}
		fwd.deskReplier = replier
		ctx.Send(g, fwd)
		return nil
	}
	w.gens++
	w.joinGen = w.gens
	r.Gen = w.joinGen
	return r
}

// seat records the seat just taken and hands the polls waiting for it to its mailbox. The
// previous seat's mailbox (holding the last result) is stopped.
func (w *walkin) seat(ctx actor.Context, live *walkinLive) {
	if w.mailbox != nil && w.mailbox.Id != live.Mailbox {
		ctx.Send(ctx.Parent(), &deskDropMailbox{PID: w.mailbox})
	}
	w.rec.Live = live
	w.persist()
	w.mailbox = actor.NewPID(ctx.ActorSystem().Address(), live.Mailbox)
	for _, wt := range w.waiters {
		if !wt.gone() {
			ctx.Send(w.mailbox, &walkinAwait{W: wt})
		}
	}
	w.waiters = nil
}

// playedRound reports whether round, at table, is among the record's finished rounds.
func (w *walkin) playedRound(table, round string) bool {
	for _, l := range w.rec.Last {
		// By table and round: round ids are per instance, and a walk-in that moved between
		// members of a cluster (walkin_move.go) has lines of another instance's rounds.
		if l.Round == round && (l.Table == table || l.Table == "") {
			return true
		}
	}
	return false
}

// release answers the polls kept while a join was in flight.
func (w *walkin) release(n Next) {
	for _, wt := range w.waiters {
		if !wt.gone() {
			wt.answer(n)
		}
	}
	w.waiters = nil
}

func (w *walkin) await(ctx actor.Context, msg *walkinAwait) {
	if w.queued || w.joinGen != 0 || w.hosted != "" {
		status := NextGathering
		if w.joinGen != 0 {
			status = NextPlaying
		}
		if !msg.W.wait {
			msg.W.answer(Next{Waiting: true, Status: status, Brief: w.hostedBrief()})
			return
		}
		live := w.waiters[:0]
		for _, wt := range w.waiters {
			if !wt.gone() {
				live = append(live, wt)
			}
		}
		w.waiters = append(live, msg.W)
		return
	}
	if w.mailbox != nil {
		ctx.Send(w.mailbox, msg)
		return
	}
	msg.W.answer(w.lastResult())
}

// lastResult is the answer of a poll with no mailbox (the server restarted since the last
// round): that round's result, read from its table's record, or idle.
func (w *walkin) lastResult() Next {
	if len(w.rec.Last) == 0 {
		return Next{Waiting: true, Status: NextIdle}
	}
	l := w.rec.Last[0]
	rec, err := w.a.Stored(l.Table)
	if err != nil || rec.Result == nil {
		return Next{Waiting: true, Status: NextIdle}
	}
	r := *rec.Result
	return Next{Round: l.Round, Status: NextRevealed, Table: l.Table, Seat: l.Seat, Game: rec.Game, Result: &r}
}

func (w *walkin) seatOf(round string) *walkinSeatReply {
	if l := w.rec.Live; l != nil && l.Round == round {
		return &walkinSeatReply{Table: l.Table, Round: l.Round, Seat: l.Seat}
	}
	for _, line := range w.rec.Last {
		if line.Round == round {
			return &walkinSeatReply{Err: games.Errorf(games.CodeRoundOver, "round %s is over", round)}
		}
	}
	return &walkinSeatReply{Err: games.Errorf(games.CodeNotSeated, "this walk-in holds no seat in round %q", round)}
}

// roundEnded records the live seat's result once (a redelivered actors.RoundEnded is ignored) and
// sends the board its line.
func (w *walkin) roundEnded(ctx actor.Context, e *actors.RoundEnded) {
	l := w.rec.Live
	if l == nil || l.Round != e.Round || l.Seat != e.Seat {
		return
	}
	now := w.a.deskClock().Now()
	var stats map[int]map[string]float64
	if st, ok := w.statser(l.Game); ok {
		evs, err := w.a.Store().Events(e.Round)
		if err != nil {
			w.log.Warn("transcript unreadable: accusations not recorded", "round", e.Round, "err", err)
		}
		stats = st.Stats(e.Result, games.Redact(evs, 0, false)) // the public lines
	}
	kind := l.Kind
	line := w.rec.apply(l, e.Result, stats, now, w.a.fees().Table)
	w.persist()
	if kind != "hosted" && kind != KindFree { // hosted tables (§4.5) and Free play are unrated: in the record, not on the board
		ctx.Send(ctx.Parent(), &deskBoardLine{Name: w.rec.Name, Week: isoWeek(now), Line: line})
	}
}

// deskLogger is the arena's logger (discarding when none was given).
func (a *Arena) deskLogger() *slog.Logger {
	if a.Logger() == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Logger()
}

// statser is the game's Statser (games.Statser: the figures a record keeps), if the Bracket has
// the game and it reads any.
func (w *walkin) statser(game string) (games.Statser, bool) {
	if game == "" {
		game = walkinGame
	}
	if w.a.Bracket() == nil {
		return nil, false
	}
	e, ok := w.a.Bracket().Engine(game)
	if !ok {
		return nil, false
	}
	st, ok := e.(games.Statser)
	return st, ok
}
