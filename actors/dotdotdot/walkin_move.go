package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
	"arena/storage"
)

// Moving a walk-in to another instance of a cluster (the walkin table's queue is one in the
// cluster and lives on one member: a walk-in that joins it from another member moves there
// first, record and all, so its seat, mailbox and table are that member's). Three steps, each
// durable before the next: ExportWalkin on the old home (the record, refused unless the walk-in
// is free to join), ImportWalkin on the new one (record and name written), then, once the
// cluster records the new home, ForgetWalkin on the old (record and name removed, its actor
// stopped). A crash between the last two leaves a copy nobody reaches (every request for the
// token goes to the new home), never a walk-in in two places.

// walkinExport asks a walk-in actor for its record to move it. Reply *walkinExportReply.
type walkinExport struct {
	deskReplier
	Walkin bool // the move is for the walkin table: not_yet below PracticeRoundsForWalkin
}

type walkinExportReply struct {
	Err    *games.Error
	Record json.RawMessage
}

// deskImport goes door → desk: write a moved walk-in's record under Hash. Reply *deskMoveReply.
type deskImport struct {
	deskReplier
	Hash   string
	Record walkinRecord
}

// deskForget goes door → desk: remove a moved walk-in's record and name. Reply *deskMoveReply.
type deskForget struct {
	deskReplier
	Hash string
}

type deskMoveReply struct{ Err error }

// export answers the record when the walk-in could join now (JoinWalkin's refusals otherwise:
// a claim under way or spent, a hosted table, in_a_round, not_yet for the walkin table).
func (w *walkin) export(m *walkinExport) *walkinExportReply {
	if err := w.spentRefusal(); err != nil {
		return &walkinExportReply{Err: err}
	}
	switch {
	case w.hosted != "":
		return &walkinExportReply{Err: games.Errorf(CodeAtAHostedTable, "this walk-in waits at a hosted table; leave it first (§4.5)")}
	case w.rec.Live != nil:
		return &walkinExportReply{Err: games.Errorf(CodeInARound, "this walk-in already holds round %s", w.rec.Live.Round)}
	case w.joinGen != 0:
		return &walkinExportReply{Err: games.Errorf(CodeInARound, "this walk-in already holds a table that is being opened")}
	case w.queued:
		return &walkinExportReply{Err: games.Errorf(CodeInARound, "this walk-in already holds a place at a gathering table")}
	case m.Walkin && w.rec.Practice < PracticeRoundsForWalkin:
		return &walkinExportReply{Err: games.Errorf(CodeNotYet, "the walkin table opens after %d Practice rounds; %d done",
			PracticeRoundsForWalkin, w.rec.Practice)}
	}
	b, err := json.Marshal(&w.rec)
	if err != nil {
		return &walkinExportReply{Err: &games.Error{Code: CodeBusy, Msg: "the record could not be read; join again", Retry: true}}
	}
	return &walkinExportReply{Record: b}
}

// ExportWalkin is the token's record as JSON, to move the walk-in to another member; forWalkin
// says the move is for the walkin table. The walk-in must be free to join: otherwise the refusal
// JoinWalkin would give (unknown_token, in_a_round, not_yet, at_a_hosted_table, busy).
func (a *Arena) ExportWalkin(ctx context.Context, token string, forWalkin bool) ([]byte, error) {
	w, err := a.walkinPID(ctx, token)
	if err != nil {
		return nil, err
	}
	r, err := deskCall[*walkinExportReply](ctx, a, w, &walkinExport{Walkin: forWalkin})
	if err != nil {
		return nil, err
	}
	if r.Err != nil {
		return nil, r.Err
	}
	return r.Record, nil
}

// ImportWalkin writes a record ExportWalkin gave (on another member) as the record of token
// here, and its name, before it returns. Importing the same record again rewrites it. Refusals:
// unknown_token (malformed token), bad_request (not a record, or a live seat in it), name_taken
// (another walk-in here holds the name).
func (a *Arena) ImportWalkin(ctx context.Context, token string, record []byte) error {
	hash, ok := walkinTokenHash(token)
	if !ok {
		return games.Errorf(CodeUnknownToken, "no walk-in token (x-walkin: w_…) or a malformed one")
	}
	var rec walkinRecord
	if err := json.Unmarshal(record, &rec); err != nil || rec.Name == "" || rec.Live != nil {
		return games.Errorf(games.CodeBadRequest, "not a walk-in record free to move")
	}
	if rec.VsHouse == nil {
		rec.VsHouse = map[string]*walkinVs{}
	}
	d, err := a.deskPID()
	if err != nil {
		return err
	}
	r, err := deskCall[*deskMoveReply](ctx, a, d, &deskImport{Hash: hash, Record: rec})
	if err != nil {
		return err
	}
	return r.Err
}

// ForgetWalkin removes the token's record and name here (the walk-in moved to another member,
// and the cluster records it there), and stops its actor. A token with no record here is no
// error.
func (a *Arena) ForgetWalkin(ctx context.Context, token string) error {
	hash, ok := walkinTokenHash(token)
	if !ok {
		return games.Errorf(CodeUnknownToken, "no walk-in token (x-walkin: w_…) or a malformed one")
	}
	d, err := a.deskPID()
	if err != nil {
		return err
	}
	r, err := deskCall[*deskMoveReply](ctx, a, d, &deskForget{Hash: hash})
	if err != nil {
		return err
	}
	return r.Err
}

// receiveMove handles the desk's move messages; false for any other message.
func (d *desk) receiveMove(ctx actor.Context, msg any) bool {
	switch m := msg.(type) {
	case *deskImport:
		m.respond(&deskMoveReply{Err: d.importWalkin(ctx, m)})
	case *deskForget:
		m.respond(&deskMoveReply{Err: d.forgetWalkin(ctx, m.Hash)})
	default:
		return false
	}
	return true
}

// importWalkin writes the record, then its name (a crash between leaves a record whose name a
// later import writes). An actor this desk still holds for the record (the walk-in lived here
// before) is stopped, so the next request loads the imported record.
func (d *desk) importWalkin(ctx actor.Context, m *deskImport) error {
	db := d.a.Store().Walkins()
	key := "name/" + nameKey(m.Record.Name)
	if v, err := db.Get(key); err == nil && string(v) != m.Hash {
		return games.Errorf(CodeNameTaken, "the name %q is taken on the member that holds the walkin table's queue; register again under another name", m.Record.Name)
	} else if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	b, err := json.Marshal(&m.Record)
	if err == nil {
		err = db.Put(m.Hash, b)
	}
	if err == nil {
		err = db.Put(key, []byte(m.Hash))
	}
	if err != nil {
		return err
	}
	d.drop(ctx, m.Hash)
	return nil
}

// forgetWalkin removes the name (when it is this record's), then the record, and stops the
// walk-in's actor.
func (d *desk) forgetWalkin(ctx actor.Context, hash string) error {
	db := d.a.Store().Walkins()
	b, err := db.Get(hash)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var rec walkinRecord
	if json.Unmarshal(b, &rec) == nil && rec.Name != "" {
		k := "name/" + nameKey(rec.Name)
		if v, err := db.Get(k); err == nil && string(v) == hash {
			if err := db.Delete(k); err != nil {
				return err
			}
		}
	}
	if err := db.Delete(hash); err != nil {
		return err
	}
	d.drop(ctx, hash)
	return nil
}

// drop stops the walk-in actor of hash, if this desk holds one, as passivation does: calls for
// it meanwhile are parked and then served by a fresh actor (or none, the record gone).
func (d *desk) drop(ctx actor.Context, hash string) {
	pid, ok := d.walkins[hash]
	if !ok {
		return
	}
	delete(d.walkins, hash)
	d.stopping[hash] = nil
	ctx.Send(pid, &walkinStop{})
}
