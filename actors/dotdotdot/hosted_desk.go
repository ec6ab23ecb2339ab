package dotdotdot

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
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

// hostedOpened comes back from the goroutine that opened a hosted table.
type hostedOpened struct {
	Code    string
	Spec    actors.TableSpec
	House   map[int]string
	Round   string
	Err     error
	Seated  []*actor.PID // mailboxes, by member
	Members []hostedMember
}

// walkinHostedAt goes desk → walk-in: the code it now waits at ("" : none, it is free).
type walkinHostedAt struct{ Code string }

// walkinHostedSeated goes desk → walk-in: its hosted table opened; this is its seat.
type walkinHostedSeated struct{ Live *walkinLive }

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
	if d.hosted == nil {
		d.hosted = &hostedDesk{tabs: map[string]*hostedTab{}}
	}
	h := d.hosted
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
		h.gen++
		seats, _ := d.a.formats.of(m.Format)
		t := &hostedTab{code: code, format: m.Format, seats: seats, status: HostedGathering, created: now, gen: h.gen,
			startsBy: now.Add(d.a.paces().HostedStart),
			members:  []hostedMember{{Hash: m.Hash, Name: m.Name, PID: m.PID}}}
		self, root, gen := ctx.Self(), ctx.ActorSystem().Root, t.gen
		t.stop = d.a.deskClock().AfterFunc(d.a.paces().HostedStart, func() { root.Send(self, &hostedTimer{Code: code, Gen: gen}) })
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
			pid := t.members[i].PID
			t.members = append(t.members[:i], t.members[i+1:]...)
			if len(t.members) == 0 {
				d.closeHosted(t)
			}
			ctx.Send(pid, &walkinHostedAt{})
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
	for code, t := range d.hosted.tabs {
		if t.status == HostedStarted && now.Sub(t.started) >= hostedCodeHold {
			delete(d.hosted.tabs, code)
		}
	}
}

func (d *desk) closeHosted(t *hostedTab) {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	delete(d.hosted.tabs, t.code)
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
	id, err := newTableID("h")
	if err != nil {
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
		round, err := a.OpenTable(octx, spec)
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
		for i, mb := range m.Seated {
			d.dropMailbox(ctx, mb)
			ctx.Send(m.Members[i].PID, &walkinHostedAt{})
		}
		for _, mem := range t.members[len(m.Seated):] {
			ctx.Send(mem.PID, &walkinHostedAt{})
		}
		d.closeHosted(t)
		err := &games.Error{Code: CodeBusy, Msg: "the table could not be opened; host it again", Retry: true}
		for _, f := range waiting {
			f(t, err)
		}
		return
	}
	now := d.now().UTC()
	t.status, t.round, t.table, t.started = HostedStarted, m.Round, m.Spec.ID, now
	for i, mem := range m.Members {
		ctx.Send(mem.PID, &walkinHostedSeated{Live: &walkinLive{Table: m.Spec.ID, Round: m.Round, Seat: i + 1, Kind: "hosted",
			Game: walkinGame, Format: m.Spec.Format, Pace: "chat", Mailbox: m.Seated[i].Id, Entry: walkinEntry,
			Seats: len(m.Spec.Seats), House: m.House, Joined: now}})
	}
	for _, f := range waiting {
		f(t, nil)
	}
}
