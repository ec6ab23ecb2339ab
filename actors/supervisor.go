package actors

import (
	"errors"
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"arena/storage"
)

// The isolation rule (docs/design.md, "Isolation"), as implemented here:
//
//   - A table guards every input it handles (table.go guard) with a key naming the input: the
//     deadline instant for a timer ("advance@<instant>"), seat, kind, move and body hash for an
//     answer, "restore" for loading. On a panic it writes into its record, before the restart, the
//     key (the poison mark), the error and its restart count, then re-panics as *tableFault.
//   - tablesActor (this file) is the OneForOne supervisor of every table. It restarts the table
//     that failed and no other; the restarted table reloads its record in Started and replays what
//     is due (a passed deadline fires at once).
//   - If the restarted table panics on the same key again, or has panicked more than
//     Options.MaxRestarts times since the last ops restart, it is parked: status failed in its
//     record, actor stopped. Faults escalated from a table's round or seat actors carry no key;
//     they are keyed by their reason's text.
//   - An ops restart clears the mark and the count and spawns the table again from its record.
type tablesActor struct {
	env     *env
	live    map[string]*actor.PID
	pending map[string][]pendingOp
	parking map[string]bool // stopped by the isolation rule; the status moves once it is gone
}

type pendingOp struct {
	restart bool // else stop
	reply   *actor.PID
}

const tablePrefix = "table-"

func tablesProps(e *env) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &tablesActor{env: e} })
}

// ping is answered with &opReply{} once the actor has started (Start waits on it).
type ping struct{}

func (s *tablesActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		s.live = map[string]*actor.PID{}
		s.pending = map[string][]pendingOp{}
		s.parking = map[string]bool{}
		s.recover(ctx)
	case *ping:
		ctx.Respond(&opReply{})
	case *spawnTable:
		ctx.Respond(&opReply{Err: s.spawn(ctx, m.ID)})
	case *restartTable:
		s.op(ctx, m.ID, true)
	case *stopTable:
		s.op(ctx, m.ID, false)
	case *actor.Terminated:
		id := strings.TrimPrefix(m.Who.Id[strings.LastIndexByte(m.Who.Id, '/')+1:], tablePrefix)
		delete(s.live, id)
		if s.parking[id] {
			delete(s.parking, id)
			rec := s.load(id) // nil if unreadable: the status has no game, the mailboxes no word
			s.env.m.setStatus(id, rec.game(), StatusFailed)
			s.tellMailboxes(ctx, id, rec, StatusFailed)
		}
		ops := s.pending[id]
		delete(s.pending, id)
		for _, op := range ops {
			ctx.Send(op.reply, &opReply{Err: s.settle(ctx, id, op.restart)})
		}
	}
}

// recover is boot recovery: every live table in storage is spawned, and every finished one whose
// end may not have been announced (Unsettled); each resumes in Started.
func (s *tablesActor) recover(ctx actor.Context) {
	var ids []string
	err := s.env.store.ListTables(func(id string, b []byte) error {
		rec, err := decodeRecord(id, b)
		if err != nil {
			// Parked as failed, as the isolation rule parks a table: not spawned; its walk-ins
			// are released when they next ask (walk-in liveGone reads ErrDamaged), and ops
			// refuse to stop or restart it (settle).
			s.env.log.Error("boot recovery: table record undecodable, parked as failed", "table", id, "err", err)
			s.env.m.setStatus(id, "", StatusFailed)
			return nil
		}
		s.env.m.setStatus(id, rec.Spec.Game, rec.Status)
		if rec.Status == StatusLive || (rec.Status == StatusFinished && rec.Unsettled) {
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		s.env.log.Error("boot recovery: list tables", "err", err)
	}
	for _, id := range ids {
		if err := s.spawn(ctx, id); err != nil {
			s.env.log.Error("boot recovery: spawn", "table", id, "err", err)
		}
	}
	if len(ids) > 0 {
		s.env.log.Info("boot recovery: tables resumed", "count", len(ids))
	}
}

func (s *tablesActor) spawn(ctx actor.Context, id string) error {
	if _, ok := s.live[id]; ok {
		return fmt.Errorf("%w: table %s is running", ErrTableExists, id)
	}
	pid, err := ctx.SpawnNamed(tableProps(s.env, id), tablePrefix+id)
	if err != nil {
		return fmt.Errorf("actors: spawn table %s: %w", id, err)
	}
	s.live[id] = pid
	return nil
}

// op runs an ops restart or stop: a running table is poisoned first (its queued messages are
// handled) and the op completes on its Terminated; a stop of a running table whose product
// abandons on stop (Product.AbandonOnStop) is the table's to answer (abandonTable). A stop of a table that has finished its round
// is refused at once (errFinished), its actor left to record its last anchors.
func (s *tablesActor) op(ctx actor.Context, id string, restart bool) {
	b, err := s.env.store.LoadTable(id)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			err = fmt.Errorf("%w: %s", ErrNoTable, id)
		}
		ctx.Respond(&opReply{Err: err})
		return
	}
	if !restart {
		if rec, err := decodeRecord(id, b); err == nil && rec.Status == StatusFinished {
			ctx.Respond(&opReply{Err: errFinished(id, "stop")})
			return
		}
	}
	if pid, ok := s.live[id]; ok {
		if !restart {
			if rec, err := decodeRecord(id, b); err == nil {
				if reason := s.env.products.abandonOnStop(rec.Spec.Game); reason != "" {
					// The table ends its match itself and stops once its end is announced.
					ctx.RequestWithCustomSender(pid, &abandonTable{Reason: reason}, ctx.Sender())
					return
				}
			}
		}
		s.pending[id] = append(s.pending[id], pendingOp{restart: restart, reply: ctx.Sender()})
		ctx.Poison(pid)
		return
	}
	ctx.Respond(&opReply{Err: s.settle(ctx, id, restart)})
}

// errFinished refuses an ops restart or stop (op) of table id, which has finished its round: an
// ErrBadSpec the ops door answers as refused.
func errFinished(id, op string) error {
	return fmt.Errorf("%w: table %s has finished its round; there is nothing to %s", ErrBadSpec, id, op)
}

// settle finishes an ops restart or stop on a table whose actor is not running.
func (s *tablesActor) settle(ctx actor.Context, id string, restart bool) error {
	b, err := s.env.store.LoadTable(id)
	if err != nil {
		return err
	}
	rec, err := decodeRecord(id, b)
	if err != nil {
		return fmt.Errorf("%w: table %s: its stored record cannot be decoded, so it stays failed; "+
			"repair or remove it from the store (%w)", ErrBadSpec, id, err)
	}
	if rec.Status == StatusFinished {
		if restart {
			// Nothing to restart; but an incarnation started on a finished round records the
			// anchors it has no transcript line for yet (a restart that met the round's last
			// commit stopped the table before their replies came), then stops by itself.
			if rec.Unsettled {
				_ = s.spawn(ctx, id)
			}
			return errFinished(id, "restart")
		}
		return errFinished(id, "stop")
	}
	if restart {
		rec.Status, rec.Poison, rec.Restarts = StatusLive, nil, 0
	} else {
		rec.Status = StatusStopped
	}
	rec.Updated = s.env.clock.Now()
	if err := s.env.store.PutTable(id, rec.encode()); err != nil {
		return err
	}
	s.env.m.setStatus(id, rec.Spec.Game, rec.Status)
	if restart {
		return s.spawn(ctx, id)
	}
	s.tellMailboxes(ctx, id, rec, StatusStopped)
	return nil
}

// load is table id's record as stored (nil if it cannot be read).
func (s *tablesActor) load(id string) *tableRecord {
	b, err := s.env.store.LoadTable(id)
	if err != nil {
		return nil
	}
	rec, err := decodeRecord(id, b)
	if err != nil {
		return nil
	}
	return rec
}

// tellMailboxes sends *TableStopped to the channel actor of every seat of table id (its record
// rec; nil: nobody) that has its own (SeatSpec.Actor: a walk-in's mailbox).
func (s *tablesActor) tellMailboxes(ctx actor.Context, id string, rec *tableRecord, status string) {
	if rec == nil {
		return
	}
	for _, st := range rec.Spec.Seats {
		if st.Actor != "" {
			ctx.Send(actor.NewPID(ctx.ActorSystem().Address(), st.Actor),
				&TableStopped{Table: id, Round: rec.Round, Seat: st.Seat.Seat, Status: status})
		}
	}
}

// HandleFailure makes tablesActor its children's supervisor strategy (protoactor-go notes §1):
// restart the failed table alone, or stop it when it is to be parked.
func (s *tablesActor) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason any, _ any) {
	id := strings.TrimPrefix(child.Id[strings.LastIndexByte(child.Id, '/')+1:], tablePrefix)
	rs.Fail()
	s.env.m.restarts.Inc()
	park := false
	if f, ok := reason.(*tableFault); ok {
		park = f.Park
	} else {
		park = s.recordEscalated(id, reason)
	}
	if park {
		s.env.log.Error("table parked as failed", "table", id, "reason", fmt.Sprint(reason))
		s.parking[id] = true
		sup.StopChildren(child)
		return
	}
	sup.RestartChildren(child)
}

// recordEscalated applies the isolation rule to a fault escalated from a round or seat actor.
func (s *tablesActor) recordEscalated(id string, reason any) bool {
	b, err := s.env.store.LoadTable(id)
	if err != nil {
		s.env.log.Error("escalated fault: load record", "table", id, "err", err)
		return false
	}
	rec, err := decodeRecord(id, b)
	if err != nil {
		return true
	}
	key := "escalated:" + fmt.Sprint(reason)
	rec.Restarts++
	rec.LastError = fmt.Sprintf("panic in round/seat: %v", reason)
	park := (rec.Poison != nil && rec.Poison.Input == key) || rec.Restarts > s.env.maxRestarts
	if park {
		rec.Status = StatusFailed
	}
	rec.Poison = &poisonMark{Input: key, At: s.env.clock.Now()}
	if err := s.env.store.PutTable(id, rec.encode()); err != nil {
		s.env.log.Error("escalated fault: record", "table", id, "err", err)
	}
	return park
}

// rootActor is "arena", the top of the tree: it spawns "tables" (and, later, the lobby and the
// chain actor) and forwards pings to it.
type rootActor struct {
	env    *env
	tables *actor.PID
}

func (r *rootActor) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started:
		pid, err := ctx.SpawnNamed(tablesProps(r.env), "tables")
		if err != nil {
			panic("spawn tables: " + err.Error())
		}
		r.tables = pid
	case *ping:
		ctx.Forward(r.tables)
	}
}
