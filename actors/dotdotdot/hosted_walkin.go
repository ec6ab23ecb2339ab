package dotdotdot

import (
	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// The walk-in actor's side of hosted tables (§4.5): it knows the code it waits at
// (walkin.hosted; hostedPending while the desk has not answered yet), refuses a second table or
// any other seat meanwhile (at_a_hosted_table), and forwards host / join / start / leave to the
// desk with the caller's future.

// hostedPending marks a host or join on its way to the desk.
const hostedPending = "?"

// walkinHost asks to host a table. Reply *hostedReply or a *games.Error.
type walkinHost struct {
	deskReplier
	Format string
	Seats  int // within the format's (normalizeHosted)
}

// walkinJoinCode asks to join the table with Code. Reply *hostedReply or a *games.Error.
type walkinJoinCode struct {
	deskReplier
	Code string
}

// walkinHostedCall asks to start or leave the table waited at (Op hostedOpStart|hostedOpLeave).
type walkinHostedCall struct {
	deskReplier
	Op string
}

// deskQueueLeave goes walk-in → desk (→ gatherer, gatherLeave): take walk-in Hash (actor PID)
// out of the walkin table's queue or away from the Free play table it waits at, saved before
// the walk-in is told walkinLeft (which answers the caller). A place whose table is being opened
// is refused table_started (its seat comes: walkinSeated); busy when the change cannot be saved.
type deskQueueLeave struct {
	deskReplier
	Hash string
	PID  *actor.PID
}

// walkinLeft goes desk or gatherer → walk-in: its queue place was taken away and saved; it
// answers the leave's caller.
type walkinLeft struct{ deskReplier }

// hostedConflict is the refusal of a host or join by a walk-in that waits at a hosted table or
// holds a seat, a join in flight, or a place at the walkin table; nil when it is free.
func (w *walkin) hostedConflict() *games.Error {
	if err := w.spentRefusal(); err != nil {
		return err
	}
	switch {
	case w.hosted == hostedPending:
		return games.Errorf(CodeAtAHostedTable, "this walk-in is joining a hosted table already")
	case w.hosted != "":
		return games.Errorf(CodeAtAHostedTable, "this walk-in waits at hosted table %s; leave it first", w.hosted)
	case w.rec.Live != nil:
		return games.Errorf(CodeAtAHostedTable, "this walk-in holds a seat in round %s; a hosted table waits until it is over", w.rec.Live.Round)
	case w.joinGen != 0:
		return games.Errorf(CodeAtAHostedTable, "this walk-in has a table being opened")
	case w.queued:
		return games.Errorf(CodeAtAHostedTable, "this walk-in waits in the walkin table's queue")
	}
	return nil
}

// receiveHosted handles the walk-in's hosted-table messages (walkin.receive's default case).
func (w *walkin) receiveHosted(ctx actor.Context, msg any) {
	switch m := msg.(type) {
	case *walkinHost:
		if err := w.hostedConflict(); err != nil {
			m.respond(err)
			return
		}
		w.hosted = hostedPending
		fwd := &hostedOpen{Hash: w.hash, Name: w.rec.Name, Format: m.Format, Seats: m.Seats, PID: ctx.Self()}
		fwd.deskReplier = m.deskReplier
		ctx.Send(ctx.Parent(), fwd)
	case *walkinJoinCode:
		if err := w.hostedConflict(); err != nil {
			m.respond(err)
			return
		}
		w.hosted = hostedPending
		fwd := &hostedJoin{Hash: w.hash, Name: w.rec.Name, Code: m.Code, PID: ctx.Self()}
		fwd.deskReplier = m.deskReplier
		ctx.Send(ctx.Parent(), fwd)
	case *walkinHostedCall:
		if m.Op == hostedOpLeave && w.hosted == "" && w.queued && w.rec.Live == nil && w.joinGen == 0 {
			// A place at a Free play gathering table or in the walkin table's queue: the desk
			// takes it away (saved first) and answers through walkinLeft.
			fwd := &deskQueueLeave{Hash: w.hash, PID: ctx.Self()}
			fwd.deskReplier = m.deskReplier
			ctx.Send(ctx.Parent(), fwd)
			return
		}
		if m.Op == hostedOpLeave && w.hosted == "" && (w.rec.Live != nil || w.joinGen != 0) {
			// Its table opened (or is opening): a started table is left by going silent (§4.5).
			m.respond(games.Errorf(CodeTableStarted, "this walk-in's table has started; a started table is left by going silent"))
			return
		}
		if w.hosted == "" || w.hosted == hostedPending {
			m.respond(games.Errorf(CodeNotAtATable, "this walk-in waits at no hosted table"))
			return
		}
		fwd := &hostedOp{Op: m.Op, Hash: w.hash, Code: w.hosted}
		fwd.deskReplier = m.deskReplier
		ctx.Send(ctx.Parent(), fwd)
	case *walkinHostedAt:
		if m.Restored && (w.rec.Live != nil || w.joinGen != 0 || w.queued) {
			// The desk, restarted, puts the walk-in back at its table, but it holds another seat
			// by now: it leaves the table (no one waits for the answer).
			ctx.Send(ctx.Parent(), &hostedOp{Op: hostedOpLeave, Hash: w.hash, Code: m.Code})
			return
		}
		w.hosted = m.Code
		if m.Code == "" {
			w.release(Next{Waiting: true, Status: NextIdle})
		}
	case *walkinLeft:
		// Its place is saved away: it is free to join again, and its polls say idle.
		w.queued = false
		w.release(Next{Waiting: true, Status: NextIdle})
		m.respond(&hostedReply{})
	case *walkinHostedSeated:
		if w.hosted != "" && w.hosted != m.Code {
			return // it waits at another table now (the desk, restarted, seats a live table again)
		}
		w.hosted = ""
		// Taken unless a seat is held already (the walk-in restarted and joined elsewhere) or
		// the round was played (the desk, restarted, seats a live table's walk-ins again).
		if w.rec.Live == nil && w.joinGen == 0 && !w.queued && !w.playedRound(m.Live.Table, m.Live.Round) {
			w.seat(ctx, m.Live)
		}
	}
}

// hostedBrief is the waiting line of a walk-in at a hosted table (next_move, format=brief); ""
// when it waits at none.
func (w *walkin) hostedBrief() string {
	if w.hosted == "" || w.hosted == hostedPending {
		return ""
	}
	return "You are waiting at hosted table " + w.hosted + " (its page: /t/" + w.hosted + "). It starts when full, " +
		"when its host starts it, or ten minutes after it was hosted, house agents taking the empty seats. Ask again for your first move."
}
