package dotdotdot

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games/blitz"
	"arena/storage"
)

// Void: a paid round whose table stops for good. A table an operator stopped, or one parked as
// failed (a panic repeated on the same input, which a restart replays), never finishes, so its
// pot would stay staked in the ledger and its pool in the escrow, which pays a round's pool out
// only by settle. Once the table of an open round has stayed stopped or failed for
// PaidOptions.VoidAfter, the round is settled void: every seat's entry back to whoever staked it
// (each paid seat's to its paid_by, the house seats' to the house), as games.Match.Abandon's
// result has it, under the transcript hash of its events so far. The void (why, and that hash)
// is written to the table's record before anything of it is posted, so a restart settles the
// round void again, and never by a result it reaches later (an operator restart after the void
// plays on for nothing: the round is settled). The settle itself is the ordinary one (the
// ledger, then the escrow's settle, reconciled), under the same ledger key, so a round settles
// once either way.

// watchDown reads the table of every open round not yet over (off the actor): a table seen
// stopped or failed starts its round's VoidAfter (once), one still so after it is voided; a
// table seen live again clears it; one seen finished is settled (its status was not heard).
func (a *paidActor) watchDown(ctx actor.Context) {
	if a.watching {
		return
	}
	var ids []string
	for _, t := range a.byID {
		if t.status == storage.PaidOpen && t.staked && !t.finished && t.void.hash == "" {
			ids = append(ids, t.id)
		}
	}
	if len(ids) == 0 {
		return
	}
	a.watching = true
	arena := a.p.a
	a.run(ctx, func() func() {
		status := map[string]string{}
		for _, id := range ids {
			if st, err := arena.Stored(id); err == nil {
				status[id] = st.Status
			}
		}
		return func() {
			a.watching = false
			now := a.p.a.Clock().Now()
			for id, s := range status {
				t := a.byID[id]
				if t == nil || t.status != storage.PaidOpen || t.finished || t.void.hash != "" {
					continue
				}
				switch s {
				case actors.StatusStopped, actors.StatusFailed:
					if t.downSince.IsZero() {
						t.downSince = now
						a.p.log.Warn("paid round's table is down: its round is settled void unless it is restarted", "table", t.id,
							"round", t.round, "status", s, "void_at", now.Add(a.p.o.VoidAfter))
						continue
					}
					if down := now.Sub(t.downSince); down >= a.p.o.VoidAfter {
						a.void(ctx, t, fmt.Sprintf("its table was %s for %s and not restarted", s, down.Truncate(time.Second)))
					}
				case actors.StatusFinished:
					t.downSince = time.Time{}
					t.finished = true
					a.resume(ctx, t)
				default:
					t.downSince = time.Time{}
				}
			}
		}
	})
}

// void settles t's round void (see above): the transcript hash of its events so far is read,
// the void written to t's record, then the round settled. A round whose open-round anchor is not
// known (its table stopped before it asked for one) is not voided: open_round cannot be sent
// for it, and settle needs it (logged; an operator restart plays it on).
func (a *paidActor) void(ctx actor.Context, t *paidTable, why string) {
	if t.busy {
		return
	}
	log := a.p.log.With("table", t.id, "round", t.round)
	if t.openAnchor == nil {
		log.Error("paid round not voided: its open-round anchor is not known, so the escrow cannot hold it; restart its table")
		return
	}
	t.busy = true
	st, round := a.p.a.Store(), t.round
	a.run(ctx, func() func() {
		hash := ""
		evs, err := st.Events(round)
		if err == nil {
			hash, err = blitz.TranscriptHash(evs)
		}
		return func() {
			if err != nil {
				t.busy = false
				log.Error("paid round not voided: its transcript could not be read (tried again at the next tick)", "err", err)
				return
			}
			t.void = paidVoid{why: why, hash: hash}
			a.save(ctx, t, func(err error) {
				t.busy = false
				if err != nil {
					t.void = paidVoid{} // not written: nothing rests on it; tried again at the next tick
					return
				}
				log.Warn("paid round settled void: every entry goes back to whoever staked it", "why", why, "transcript_hash", hash)
				a.resume(ctx, t)
			})
		}
	})
}
