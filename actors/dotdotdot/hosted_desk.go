package dotdotdot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
	"arena/storage"
)

// The desk's side of hosted tables (§4.5): the tables by code, their ten-minute timers, and
// opening a table (like the walkin table's, lobby.go) once it is full, started by its host, or
// its timer fired.

// hostedOpen goes walk-in → desk: host a table (the caller's future rides along).
type hostedOpen struct {
	deskReplier
	Hash, Name, Format string
	PID                *actor.PID
}

// hostedJoin goes walk-in → desk: join the table with Code.
type hostedJoin struct {
	deskReplier
	Hash, Name, Code string
	PID              *actor.PID
}

// hostedOp goes walk-in → desk: start (host only) or leave the table with Code.
type hostedOp struct {
	deskReplier
	Op, Hash, Code string
}

// hostedList asks for the tables gathering. Reply *hostedListReply.
type hostedList struct{ deskReplier }

type hostedListReply struct{ Tables []HostedTable }

// hostedGet asks for one table by code. Reply *hostedReply or a *games.Error.
type hostedGet struct {
	deskReplier
	Code string
}

// hostedReply answers the calls on one table.
type hostedReply struct{ T HostedTable }

// hostedTimer is a table's ten-minute timer; Gen tells a stale one apart.
type hostedTimer struct {
	Code string
	Gen  uint64
}

// hostedOpened comes back from the goroutine that opened a hosted table (or from a restart
// that found its table opened: Started is then when it was saved as started, if it was).
type hostedOpened struct {
	Code    string
	Started time.Time
	Spec    actors.TableSpec
	House   map[int]string
	Round   string
	Err     error
	Seated  []*actor.PID // mailboxes, by member
	Members []hostedMember
}

// walkinHostedAt goes desk → walk-in: the code it now waits at ("" : none, it is free).
// Restored is set when the desk, restarted, puts it back at the table it waited at.
type walkinHostedAt struct {
	Code     string
	Restored bool
}

// walkinHostedSeated goes desk → walk-in: its hosted table (Code) opened; this is its seat.
type walkinHostedSeated struct {
	Code string
	Live *walkinLive
}

// Hosted operations a walk-in forwards (hostedOp.Op).
const (
	hostedOpStart = "start"
	hostedOpLeave = "leave"
)

type hostedMember struct {
	Hash, Name string
	PID        *actor.PID
}

// hostedTab is one table in the desk's memory.
type hostedTab struct {
	code, format string
	seats        int            // the format's (formatSeats)
	members      []hostedMember // the host first; seat order when it opens
	status       string
	created      time.Time
	startsBy     time.Time // created + Paces.HostedStart: it starts with whoever came
	started      time.Time
	round, table string
	gen          uint64
	stop         func() bool
	waiting      []func(*hostedTab, error) // start/join calls answered once it opened
}

// hostedDesk is the desk's hosted tables.
type hostedDesk struct {
	tabs map[string]*hostedTab // by code: gathering, starting, and started for hostedCodeHold
	gen  uint64
}

func (t *hostedTab) view(now time.Time) HostedTable {
	v := HostedTable{Code: t.code, Link: "/t/" + t.code, Format: t.format, Pace: "chat",
		Seats: t.seats, Status: t.status, Round: t.round, Table: t.table,
		Created: t.created.UTC(), Players: make([]string, 0, len(t.members))}
	if t.status == HostedGathering {
		v.StartsBy = t.startsBy.UTC()
	}
	if !t.started.IsZero() {
		v.Started = t.started.UTC()
	}
	for _, m := range t.members {
		v.Players = append(v.Players, m.Name)
	}
	if len(t.members) > 0 {
		v.Host = t.members[0].Name
	}
	return v
}

func (t *hostedTab) member(hash string) int {
	for i, m := range t.members {
		if m.Hash == hash {
			return i
		}
	}
	return -1
}

// receiveHosted handles the desk's hosted-table messages (desk.Receive's default case).
func (d *desk) receiveHosted(ctx actor.Context, msg any) {
	h := d.hostedTabs()
	now := d.now()
	switch m := msg.(type) {
	case *hostedOpen:
		d.prune(now)
		if len(h.tabs) >= hostedMaxTables {
			ctx.Send(m.PID, &walkinHostedAt{})
			m.respond(games.Errorf(CodeBusy, "too many hosted tables right now; try again later"))
			return
		}
		code, err := "", error(nil)
		for range 64 {
			if code, err = newHostedCode(); err != nil || h.tabs[code] == nil {
				break
			}
			code = ""
		}
		if err != nil || code == "" {
			ctx.Send(m.PID, &walkinHostedAt{})
			m.respond(&games.Error{Code: CodeBusy, Msg: "no table code could be drawn; try again", Retry: true})
			return
		}
		seats, _ := d.a.formats.of(m.Format)
		t := &hostedTab{code: code, format: m.Format, seats: seats, status: HostedGathering, created: now,
			startsBy: now.Add(d.a.paces().HostedStart),
			members:  []hostedMember{{Hash: m.Hash, Name: m.Name, PID: m.PID}}}
		if err := d.saveHosted(t); err != nil { // the code is held once it is saved
			ctx.Send(m.PID, &walkinHostedAt{})
			m.respond(&games.Error{Code: CodeBusy, Msg: "the table could not be saved; host it again", Retry: true})
			return
		}
		d.armHosted(ctx, t, d.a.paces().HostedStart)
		h.tabs[code] = t
		ctx.Send(m.PID, &walkinHostedAt{Code: code})
		m.respond(&hostedReply{T: t.view(now)})
	case *hostedJoin:
		d.prune(now)
		t := h.tabs[m.Code]
		var refusal error
		switch {
		case t == nil:
			refusal = games.Errorf(CodeUnknownTable, "no hosted table with code %s", m.Code)
		case t.status != HostedGathering:
			refusal = games.Errorf(CodeTableStarted, "table %s has started; watch it at /t/%s", m.Code, m.Code)
		case t.member(m.Hash) >= 0:
			refusal = games.Errorf(CodeAtAHostedTable, "this walk-in already waits at table %s", m.Code)
		}
		if refusal != nil {
			ctx.Send(m.PID, &walkinHostedAt{}) // its pending join is over
			m.respond(refusal)
			return
		}
		t.members = append(t.members, hostedMember{Hash: m.Hash, Name: m.Name, PID: m.PID})
		if err := d.saveHosted(t); err != nil {
			t.members = t.members[:len(t.members)-1]
			ctx.Send(m.PID, &walkinHostedAt{})
			m.respond(&games.Error{Code: CodeBusy, Msg: "the join could not be saved; join again", Retry: true})
			return
		}
		ctx.Send(m.PID, &walkinHostedAt{Code: t.code})
		if len(t.members) < t.seats {
			v := t.view(now)
			v.you = m.Name
			m.respond(&hostedReply{T: v})
			return
		}
		name := m.Name
		t.waiting = append(t.waiting, func(t *hostedTab, err error) {
			if err != nil {
				m.respond(err)
				return
			}
			v := t.view(d.now())
			v.you = name
			m.respond(&hostedReply{T: v})
		})
		d.openHosted(ctx, t)
	case *hostedOp:
		t := h.tabs[m.Code]
		i := -1
		if t != nil {
			i = t.member(m.Hash)
		}
		if i < 0 {
			m.respond(games.Errorf(CodeNotAtATable, "this walk-in waits at no hosted table"))
			return
		}
		if t.status != HostedGathering {
			m.respond(games.Errorf(CodeTableStarted, "table %s has started", t.code))
			return
		}
		switch m.Op {
		case hostedOpStart:
			if i != 0 {
				m.respond(games.Errorf(CodeNotHost, "only the host (%s) starts table %s", t.members[0].Name, t.code))
				return
			}
			t.waiting = append(t.waiting, func(t *hostedTab, err error) {
				if err != nil {
					m.respond(err)
					return
				}
				m.respond(&hostedReply{T: t.view(d.now())})
			})
			d.openHosted(ctx, t)
		case hostedOpLeave:
			left := t.members[i]
			t.members = slices.Delete(t.members, i, i+1)
			var err error
			if len(t.members) == 0 {
				err = d.closeHosted(t)
			} else {
				err = d.saveHosted(t)
			}
			if err != nil {
				t.members = slices.Insert(t.members, i, left)
				d.hosted.tabs[t.code] = t
				m.respond(&games.Error{Code: CodeBusy, Msg: "the leave could not be saved; leave again", Retry: true})
				return
			}
			ctx.Send(left.PID, &walkinHostedAt{})
			m.respond(&hostedReply{T: t.view(now)})
		default:
			m.respond(games.Errorf(games.CodeBadRequest, "unknown hosted operation %q", m.Op))
		}
	case *hostedList:
		d.prune(now)
		out := []HostedTable{}
		for _, t := range h.tabs {
			if t.status == HostedGathering {
				out = append(out, t.view(now))
			}
		}
		sortHosted(out)
		m.respond(&hostedListReply{Tables: out})
	case *hostedGet:
		d.prune(now)
		if t := h.tabs[m.Code]; t != nil {
			m.respond(&hostedReply{T: t.view(now)})
			return
		}
		m.respond(games.Errorf(CodeUnknownTable, "no hosted table with code %s", m.Code))
	case *hostedTimer:
		if t := h.tabs[m.Code]; t != nil && t.gen == m.Gen && t.status == HostedGathering {
			d.openHosted(ctx, t)
		}
	case *hostedOpened:
		d.hostedOpened(ctx, m)
	}
}

// prune forgets started tables whose code hold (two hours after the start) has passed.
func (d *desk) prune(now time.Time) {
	for _, t := range d.hosted.tabs {
		if t.status == HostedStarted && now.Sub(t.started) >= hostedCodeHold {
			_ = d.closeHosted(t) // a failed delete is retried by the next prune (or start)
		}
	}
}

// closeHosted forgets t: its timer, its saved record (its code is free again) and its place.
// When the record cannot be deleted, t stays (its code held) and the error is returned.
func (d *desk) closeHosted(t *hostedTab) error {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	if err := d.a.Store().DeleteHosted(t.code); err != nil {
		d.log.Error("hosted table not deleted", "err", err, "code", t.code)
		return err
	}
	delete(d.hosted.tabs, t.code)
	return nil
}

// openHosted seats the members in seats 1.. (host first), tops up with house seats and opens the
// table on a goroutine (OpenTable blocks on storage); the answer comes back as *hostedOpened.
func (d *desk) openHosted(ctx actor.Context, t *hostedTab) {
	t.status = HostedStarting
	t.gen++ // the timer, if it fires now, is stale
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	if t.table == "" { // a restart opening a table that was starting keeps its id
		id, err := newTableID("h")
		if err != nil {
			d.hostedOpened(ctx, &hostedOpened{Code: t.code, Err: err})
			return
		}
		t.table = id
	}
	id := t.table
	// Saved starting, with its table id, before anything opens: a restart then seats its
	// walk-ins at that table, or opens it.
	if err := d.saveHosted(t); err != nil {
		d.hostedOpened(ctx, &hostedOpened{Code: t.code, Err: err})
		return
	}
	members := append([]hostedMember(nil), t.members...)
	ws := make([]lobbyWalkin, len(members))
	mbs := make([]*actor.PID, len(members))
	for i, m := range members {
		mbs[i] = d.spawnMailbox(ctx, deskLiveSeat{Hash: m.Hash, Table: id, Seat: i + 1, Game: walkinGame}, true)
		ws[i] = lobbyWalkin{Hash: m.Hash, Name: m.Name, Mailbox: mbs[i].Id}
	}
	spec, house := walkinTableSpec(id, "hosted", t.format, t.seats, d.a.pace("chat"), ws, nil)
	a, self, root, code := d.a, ctx.Self(), ctx.ActorSystem().Root, t.code
	go func() {
		octx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		round, err := a.openWhenReady(octx, spec)
		root.Send(self, &hostedOpened{Code: code, Spec: spec, House: house, Round: round, Err: err, Seated: mbs, Members: members})
	}()
}

func (d *desk) hostedOpened(ctx actor.Context, m *hostedOpened) {
	t := d.hosted.tabs[m.Code]
	if t == nil {
		return
	}
	waiting := t.waiting
	t.waiting = nil
	if m.Err != nil {
		d.log.Error("hosted table not opened", "err", m.Err, "code", m.Code, "table", m.Spec.ID)
		for _, mb := range m.Seated {
			d.dropMailbox(ctx, mb)
		}
		for _, mem := range t.members {
			if mem.PID != nil {
				ctx.Send(mem.PID, &walkinHostedAt{})
			}
		}
		_ = d.closeHosted(t)
		delete(d.hosted.tabs, t.code) // forgotten here even if its record could not be deleted
		err := &games.Error{Code: CodeBusy, Msg: "the table could not be opened; host it again", Retry: true}
		for _, f := range waiting {
			f(t, err)
		}
		return
	}
	now := d.now().UTC()
	if m.Started.IsZero() {
		m.Started = now
	}
	t.status, t.round, t.table, t.started = HostedStarted, m.Round, m.Spec.ID, m.Started
	_ = d.saveHosted(t) // failed: still starting on disk, so a restart seats its walk-ins again
	for i, mem := range m.Members {
		if mem.PID == nil {
			continue // its record is gone
		}
		ctx.Send(mem.PID, &walkinHostedSeated{Code: t.code, Live: &walkinLive{Table: m.Spec.ID, Round: m.Round, Seat: i + 1, Kind: "hosted",
			Game: walkinGame, Format: m.Spec.Format, Pace: "chat", Mailbox: m.Seated[i].Id, Entry: walkinEntry,
			Seats: len(m.Spec.Seats), House: m.House, Joined: now}})
	}
	for _, f := range waiting {
		f(t, nil)
	}
}

// hostedTabs is the desk's hosted tables (made empty on first use).
func (d *desk) hostedTabs() *hostedDesk {
	if d.hosted == nil {
		d.hosted = &hostedDesk{tabs: map[string]*hostedTab{}, gen: freshGen()}
	}
	return d.hosted
}

// armHosted arms t's start-with-whoever-came timer to fire after wait.
func (d *desk) armHosted(ctx actor.Context, t *hostedTab, wait time.Duration) {
	h := d.hostedTabs()
	h.gen++
	t.gen = h.gen
	self, root, code, gen := ctx.Self(), ctx.ActorSystem().Root, t.code, t.gen
	t.stop = d.a.deskClock().AfterFunc(max(wait, 0), func() { root.Send(self, &hostedTimer{Code: code, Gen: gen}) })
}

// record is t as stored.
func (t *hostedTab) record() storage.HostedTable {
	r := storage.HostedTable{Code: t.code, Format: t.format, Seats: t.seats, Status: t.status, Created: t.created.UTC(),
		StartsBy: t.startsBy.UTC(), Table: t.table, Round: t.round, Members: make([]storage.HostedMember, len(t.members))}
	if !t.started.IsZero() {
		r.Started = t.started.UTC()
	}
	for i, m := range t.members {
		r.Members[i] = storage.HostedMember{Hash: m.Hash, Name: m.Name}
	}
	return r
}

// saveHosted writes t (write before you speak: no code, join, leave or start is answered before
// it is saved).
func (d *desk) saveHosted(t *hostedTab) error {
	err := d.a.Store().PutHosted(t.record())
	if err != nil {
		d.log.Error("hosted table not saved", "err", err, "code", t.code)
	}
	return err
}

// restoreHosted (desk start) puts back every saved hosted table: a gathering one with its
// walk-ins told where they wait (walkinHostedAt, Restored) and its ten-minute timer for what is
// left of it; a starting one seated at its table if that opened, else opened now with the same
// id; a started one for the rest of its code's hold, its walk-ins seated again while its round is
// live (a walk-in that took the seat, or played the round, ignores it).
func (d *desk) restoreHosted(ctx actor.Context) {
	h := d.hostedTabs()
	saved, err := d.a.Store().HostedTables()
	if err != nil {
		d.log.Error("hosted tables unreadable", "err", err)
		return
	}
	now := d.now()
	for _, r := range saved {
		t := &hostedTab{code: r.Code, format: r.Format, seats: r.Seats, status: r.Status, created: r.Created,
			startsBy: r.StartsBy, started: r.Started, round: r.Round, table: r.Table}
		for _, m := range r.Members {
			t.members = append(t.members, hostedMember{Hash: m.Hash, Name: m.Name, PID: d.resolve(ctx, m.Hash)})
		}
		h.tabs[t.code] = t
		switch t.status {
		case HostedGathering:
			for _, m := range t.members {
				if m.PID != nil {
					ctx.Send(m.PID, &walkinHostedAt{Code: t.code, Restored: true})
				}
			}
			d.armHosted(ctx, t, t.startsBy.Sub(now))
		case HostedStarting:
			d.restoreStarting(ctx, t)
		case HostedStarted:
			if now.Sub(t.started) >= hostedCodeHold {
				_ = d.closeHosted(t)
				continue
			}
			if st, err := d.a.Stored(t.table); err == nil && st.Status == actors.StatusLive {
				d.reseatHosted(ctx, t, st.Round, t.started)
			}
		}
	}
}

// restoreStarting takes up a table that was starting when the desk stopped: opened by then (its
// record exists), its walk-ins are seated at it; else it is opened now.
func (d *desk) restoreStarting(ctx actor.Context, t *hostedTab) {
	st, err := d.a.Stored(t.table)
	switch {
	case errors.Is(err, actors.ErrNoTable):
		for _, m := range t.members {
			if m.PID != nil {
				ctx.Send(m.PID, &walkinHostedAt{Code: t.code, Restored: true})
			}
		}
		d.openHosted(ctx, t)
	case err != nil:
		d.log.Error("starting hosted table unreadable; kept for the next start", "err", err, "code", t.code, "table", t.table)
	case st.Status != actors.StatusLive:
		t.status, t.round, t.started = HostedStarted, st.Round, d.now().UTC()
		_ = d.saveHosted(t)
	default:
		d.reseatHosted(ctx, t, st.Round, time.Time{})
	}
}

// reseatHosted tells t's walk-ins their seats at its opened table (round), as hostedOpened does
// once a table opens: their mailboxes are those spawned for it (live entries).
func (d *desk) reseatHosted(ctx actor.Context, t *hostedTab, round string, started time.Time) {
	ws := make([]lobbyWalkin, len(t.members))
	mbs := make([]*actor.PID, len(t.members))
	for i, m := range t.members {
		mbs[i] = d.spawnMailbox(ctx, deskLiveSeat{Hash: m.Hash, Table: t.table, Seat: i + 1, Game: walkinGame}, false)
		ws[i] = lobbyWalkin{Hash: m.Hash, Name: m.Name, Mailbox: mbs[i].Id}
	}
	spec, house := walkinTableSpec(t.table, "hosted", t.format, t.seats, d.a.pace("chat"), ws, nil)
	d.hostedOpened(ctx, &hostedOpened{Code: t.code, Started: started, Spec: spec, House: house, Round: round,
		Seated: mbs, Members: append([]hostedMember(nil), t.members...)})
}
