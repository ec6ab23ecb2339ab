package dotdotdot

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
	"arena/storage"
)

// The desk actor: the walk-in lobby. It maps tokens (by hash) to walk-in actors, display names to
// tokens, spawns and restores the mailboxes of walk-in seats, runs the walkin table's queues
// (lobby.go) and keeps this week's board. Its keys in the walkins bucket, beside the records
// (<sha256(token) hex>):
//
//	name/<nameKey(name)>       → the record's key (names are unique; walkin_name.go)
//	live/<mailbox actor name>  → deskLiveSeat JSON: a walk-in seat whose round is live
//	board/<ISO week>           → deskBoard JSON

// deskRegister issues a token. Reply *deskRegisterReply.
type deskRegister struct {
	deskReplier
	Name, Model string
	Token       string // drawn by the caller, so a caller that gives up can name its record
}

// deskRegisterAbandoned takes back a registration whose caller stopped waiting: the record
// under Hash and the name key pointing at it are deleted, if they were written. No answer.
type deskRegisterAbandoned struct {
	Name, Hash string
}

type deskRegisterReply struct {
	Token string
	Err   error
}

// deskResolve finds (loading on first use) the walk-in actor of a token, by the token's hash:
// the record key, or the record a rotated token opens (desk_tokens.go). Reply *deskResolveReply
// with a nil PID when no such record exists, and Err when the token is revoked or claimed.
type deskResolve struct {
	deskReplier
	Hash string
}

type deskResolveReply struct {
	PID *actor.PID
	Err *games.Error
}

// deskFindName finds the walk-in actor by display name. Reply *deskFindNameReply.
type deskFindName struct {
	deskReplier
	Name string
}

type deskFindNameReply struct{ PID *actor.PID }

// deskSpawnMailbox spawns the mailbox of one walk-in seat and records it as live (so a server
// restart respawns it). Reply *deskSpawnMailboxReply.
type deskSpawnMailbox struct {
	deskReplier
	Hash  string
	Table string
	Seat  int
	Game  string
}

type deskSpawnMailboxReply struct{ PID *actor.PID }

// deskFreeTell goes gatherer → desk: hand Msg (walkinSeated, walkinRequeued or walkinUnqueued)
// to the walk-in actor of record Hash, spawning it if need be (a walk-in at a Free table,
// gathering.go).
type deskFreeTell struct {
	Hash string
	Msg  any
}

// deskDropMailbox stops a mailbox (its walk-in moved on, or its table never opened) and forgets
// its live entry.
type deskDropMailbox struct{ PID *actor.PID }

// deskRoundEnded goes mailbox → desk: the seat's round is over. The desk forgets the live entry
// and hands the result to the walk-in actor.
type deskRoundEnded struct {
	Hash  string
	Table string
	Seat  int
	Ended actors.RoundEnded
}

// deskBoardLine goes walk-in → desk: one finished round for the board of Week.
type deskBoardLine struct {
	Name string
	Week string
	Line walkinRoundLine
}

// deskPassivate goes walk-in → desk: PID has been idle for walkinIdleAfter. The desk stops
// routing to it and asks it to stop (walkinStop).
type deskPassivate struct {
	Hash string
	PID  *actor.PID
}

// deskKeep goes walk-in → desk: asked to stop, it had work again; route to it as before.
type deskKeep struct {
	Hash string
	PID  *actor.PID
}

// deskGetBoard asks for this week's board. Reply *walkinViewReply.
type deskGetBoard struct{ deskReplier }

// deskLiveSeat is a live walk-in seat as stored under live/<mailbox name>.
type deskLiveSeat struct {
	Hash  string `json:"hash"`
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Game  string `json:"game"`
}

// deskBoard is one week's board (§4.4 "this week's board").
type deskBoard struct {
	Week  string                `json:"week"`
	Lines map[string]*BoardLine `json:"lines"` // by display name
}

// BoardLine is one walk-in on the board.
type BoardLine struct {
	Name             string `json:"name"`
	Rounds           int    `json:"rounds"`
	Net              int64  `json:"net"` // microCCD against the notional entry
	Best             int64  `json:"best"`
	MoleRounds       int    `json:"mole_rounds"`
	Rungs            int    `json:"rungs"`
	AccusationsRight int    `json:"accusations_right"`
}

// BoardView is GET /v1/walkin/board: this week's lines, best net first (ties: more rounds, then
// name), at most boardMax of them.
type BoardView struct {
	Week  string      `json:"week"`
	Entry int64       `json:"entry"`
	Lines []BoardLine `json:"lines"`
}

const boardMax = 100

type desk struct {
	a   *Arena
	log *slog.Logger
	// redeliver: on start, have the tables of live walk-in seats redeliver their open moves
	// (the desk restarted after a panic, and its mailboxes' moves were lost with them).
	redeliver bool

	walkins   map[string]*actor.PID         // record key → walk-in actor
	walkinOf  map[string]string             // walk-in actor id → record key
	stopping  map[string][]func(*actor.PID) // idle walk-ins being stopped → calls parked until then
	mailboxes map[string]string             // mailbox actor id → its live/ key
	board     *deskBoard
	queues    map[string]*lobbyQueue // lobby.go
	hosted    *hostedDesk            // hosted_desk.go
	tokens    deskTokens             // desk_tokens.go: revoked and rotated tokens
}

func newDesk(a *Arena) *desk {
	return &desk{a: a, log: a.deskLogger().With("actor", "desk")}
}

// Receive implements actor.Actor.
func (d *desk) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		d.start(ctx)
	case *deskPing:
		msg.respond(&deskPong{})
	case *deskRegister:
		msg.respond(d.register(ctx, msg))
	case *deskRegisterAbandoned:
		d.unregister(msg)
	case *deskResolve:
		key, refused := d.tokenKey(msg.Hash)
		if refused != nil {
			msg.respond(&deskResolveReply{Err: refused})
			return
		}
		d.withWalkin(ctx, key, func(pid *actor.PID) { msg.respond(&deskResolveReply{PID: pid}) })
	case *deskFindName:
		b, err := d.a.Store().Walkins().Get("name/" + nameKey(msg.Name))
		if errors.Is(err, storage.ErrNotFound) {
			// A name registered before names were keyed by nameKey sits under its lower case.
			b, err = d.a.Store().Walkins().Get("name/" + strings.ToLower(strings.TrimSpace(msg.Name)))
		}
		if err != nil {
			msg.respond(&deskFindNameReply{})
			return
		}
		d.withWalkin(ctx, string(b), func(pid *actor.PID) { msg.respond(&deskFindNameReply{PID: pid}) })
	case *deskSpawnMailbox:
		msg.respond(&deskSpawnMailboxReply{PID: d.spawnMailbox(ctx, deskLiveSeat{Hash: msg.Hash, Table: msg.Table, Seat: msg.Seat, Game: msg.Game}, true)})
	case *deskDropMailbox:
		d.dropMailbox(ctx, msg.PID)
	case *deskRoundEnded:
		d.forgetLive(mailboxName(msg.Table, msg.Seat))
		ended := msg.Ended
		d.withWalkin(ctx, msg.Hash, func(pid *actor.PID) {
			if pid != nil {
				ctx.Send(pid, &walkinRoundEnded{Ended: ended})
			}
		})
	case *deskSeatStopped:
		st := msg.Stopped
		d.forgetLive(mailboxName(st.Table, st.Seat))
		d.withWalkin(ctx, msg.Hash, func(pid *actor.PID) {
			if pid != nil {
				ctx.Send(pid, &walkinSeatStopped{Stopped: st})
			}
		})
	case *deskPassivate:
		if pid, ok := d.walkins[msg.Hash]; ok && pid.Equal(msg.PID) {
			delete(d.walkins, msg.Hash)
			d.stopping[msg.Hash] = nil
			ctx.Send(pid, &walkinStop{})
		}
	case *deskKeep:
		// The walk-in had work again by the time it was asked to stop: keep it.
		if parked, ok := d.stopping[msg.Hash]; ok {
			delete(d.stopping, msg.Hash)
			d.walkins[msg.Hash] = msg.PID
			for _, f := range parked {
				f(msg.PID)
			}
		}
	case *deskBoardLine:
		d.addBoardLine(msg)
	case *deskGetBoard:
		d.boardFor(isoWeek(d.a.deskClock().Now()))
		b, err := json.Marshal(d.boardView())
		if err != nil {
			msg.respond(err)
			return
		}
		msg.respond(&walkinViewReply{JSON: b})
	case *lobbyEnqueue:
		d.enqueue(ctx, msg)
	case *lobbyTopUp:
		d.topUp(ctx, msg)
	case *lobbyOpened:
		d.opened(ctx, msg)
	case *lobbySeatTaken:
		d.seatTaken(msg)
	case *lobbyLeave:
		if msg.Key == KindFree { // a restored place at a Free table (gathering.go)
			if g := d.a.gathering; g != nil {
				ctx.Send(g, &gatherLeave{Hash: msg.Hash}) // no PID: nobody waits for it
			}
			return
		}
		d.leaveQueue(msg)
	case *deskQueueLeave:
		d.leaveQueued(ctx, msg)
	case *deskFreeTell:
		d.withWalkin(ctx, msg.Hash, func(pid *actor.PID) {
			if pid != nil {
				ctx.Send(pid, msg.Msg)
			}
		})
	case *actor.Terminated:
		if h, ok := d.walkinOf[msg.Who.Id]; ok {
			delete(d.walkinOf, msg.Who.Id)
			if pid, ok := d.walkins[h]; ok && pid.Equal(msg.Who) {
				delete(d.walkins, h)
			}
			if parked, ok := d.stopping[h]; ok {
				delete(d.stopping, h)
				for _, f := range parked {
					d.withWalkin(ctx, h, f) // a fresh actor, the record reloaded
				}
			}
		}
		delete(d.mailboxes, msg.Who.Id)
	default:
		if !d.receiveTokens(ctx, msg) && !d.receiveMove(ctx, msg) {
			d.receiveHosted(ctx, msg)
		}
	}
}

// start (first start and every restart: children were stopped) respawns the mailbox of every
// live walk-in seat, so tables restored at boot can redeliver their open moves to them, and puts
// back the walkin queues (lobby.go) and hosted tables (hosted_desk.go) as they were saved.
func (d *desk) start(ctx actor.Context) {
	d.walkins, d.walkinOf, d.mailboxes = map[string]*actor.PID{}, map[string]string{}, map[string]string{}
	d.stopping = map[string][]func(*actor.PID){}
	d.queues = map[string]*lobbyQueue{}
	d.hosted = nil
	d.loadTokens()
	var live []deskLiveSeat
	err := d.a.Store().Walkins().Scan("live/", func(_ string, v []byte) error {
		var s deskLiveSeat
		if json.Unmarshal(v, &s) == nil && s.Hash != "" {
			live = append(live, s)
		}
		return nil
	})
	if err != nil {
		d.log.Error("live walk-in seats unreadable", "err", err)
	}
	for _, s := range live {
		d.spawnMailbox(ctx, s, false)
	}
	// The walkin queues and the hosted tables as saved: places, codes and tables being opened.
	d.restoreQueues(ctx)
	d.restoreFreePlaces(ctx)
	d.restoreHosted(ctx)
	if d.redeliver && len(live) > 0 {
		a, log := d.a, d.log
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			for _, id := range a.liveWalkinTables() {
				if err := a.RestartTable(ctx, id); err != nil {
					log.Info("table not restarted for redelivery", "table", id, "err", err)
				}
			}
		}()
	}
}

func (d *desk) register(ctx actor.Context, m *deskRegister) *deskRegisterReply {
	db := d.a.Store()
	key := "name/" + nameKey(m.Name)
	// The second key is where a name registered before nameKey existed sits (its lower case).
	for _, k := range []string{key, "name/" + strings.ToLower(m.Name)} {
		if _, err := db.Walkins().Get(k); err == nil {
			return &deskRegisterReply{Err: games.Errorf(CodeNameTaken, "the name %q is taken", m.Name)}
		} else if !errors.Is(err, storage.ErrNotFound) {
			return &deskRegisterReply{Err: err}
		}
	}
	token := m.Token
	hash, ok := walkinTokenHash(token)
	if !ok {
		return &deskRegisterReply{Err: errors.New("dotdotdot: register: malformed token")}
	}
	rec := walkinRecord{Name: m.Name, Model: m.Model, Created: d.a.deskClock().Now().UTC(), VsHouse: map[string]*walkinVs{}}
	b, err := json.Marshal(&rec)
	if err == nil {
		err = db.Walkins().Put(hash, b)
	}
	if err == nil {
		err = db.Walkins().Put(key, []byte(hash))
	}
	if err != nil {
		return &deskRegisterReply{Err: err}
	}
	return &deskRegisterReply{Token: token}
}

// unregister removes what register wrote for a registration its caller gave up: the name key
// first (a crash after it leaves a record nobody can open, never a name taken by nothing), then
// the record. The token was never handed out, so nothing else can have used the record; a name
// key pointing at another record (the registration was refused name_taken) is left alone.
func (d *desk) unregister(m *deskRegisterAbandoned) {
	db := d.a.Store()
	k := "name/" + nameKey(m.Name)
	if v, err := db.Walkins().Get(k); err == nil && string(v) == m.Hash {
		if err := db.Walkins().Delete(k); err != nil {
			d.log.Error("abandoned registration: name not freed", "err", err)
			return
		}
	}
	if err := db.Walkins().Delete(m.Hash); err != nil {
		d.log.Error("abandoned registration: record not removed", "err", err)
	}
}

// withWalkin calls f with the walk-in actor of a record key (nil when no such record exists),
// at once, or, while that walk-in's idle actor is stopping, once it has stopped and a fresh one
// is spawned.
func (d *desk) withWalkin(ctx actor.Context, hash string, f func(*actor.PID)) {
	if parked, ok := d.stopping[hash]; ok {
		d.stopping[hash] = append(parked, f)
		return
	}
	f(d.resolve(ctx, hash))
}

// resolve returns the walk-in actor of a record key, spawning it when the record exists.
func (d *desk) resolve(ctx actor.Context, hash string) *actor.PID {
	if pid, ok := d.walkins[hash]; ok {
		return pid
	}
	if len(hash) != 64 {
		return nil
	}
	if _, err := d.a.Store().Walkins().Get(hash); err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			d.log.Error("walk-in record unreadable", "err", err)
		}
		return nil
	}
	a := d.a
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newWalkin(a, hash) }), "walkin-"+hash[:32])
	if err != nil && !errors.Is(err, actor.ErrNameExists) {
		d.log.Error("walk-in actor not spawned", "err", err)
		return nil
	}
	d.walkins[hash], d.walkinOf[pid.Id] = pid, hash
	return pid
}

func mailboxName(table string, seat int) string {
	return "mailbox-" + table + "-" + strconv.Itoa(seat)
}

// spawnMailbox spawns a seat's mailbox (idempotent) and, when record is set, writes its live
// entry first, so a crash right after leaves it respawnable.
func (d *desk) spawnMailbox(ctx actor.Context, s deskLiveSeat, record bool) *actor.PID {
	name := mailboxName(s.Table, s.Seat)
	key := "live/" + name
	if record {
		b, _ := json.Marshal(s) // strings and an int: cannot fail
		if err := d.a.Store().Walkins().Put(key, b); err != nil {
			d.log.Error("live walk-in seat not saved", "err", err, "table", s.Table)
		}
	}
	a := d.a
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return newMailbox(a, s.Hash, s.Table, s.Seat, s.Game)
	}), name)
	if err != nil && !errors.Is(err, actor.ErrNameExists) {
		d.log.Error("mailbox not spawned", "err", err, "table", s.Table)
	}
	if pid == nil {
		pid = actor.NewPID(ctx.Self().Address, ctx.Self().Id+"/"+name) // its stable address all the same
	}
	d.mailboxes[pid.Id] = key
	return pid
}

func (d *desk) dropMailbox(ctx actor.Context, pid *actor.PID) {
	if pid == nil {
		return
	}
	if key, ok := d.mailboxes[pid.Id]; ok {
		d.forgetLiveKey(key)
		delete(d.mailboxes, pid.Id)
	}
	ctx.Stop(pid)
}

func (d *desk) forgetLive(name string) { d.forgetLiveKey("live/" + name) }

func (d *desk) forgetLiveKey(key string) {
	if err := d.a.Store().Walkins().Delete(key); err != nil {
		d.log.Error("live walk-in seat not cleared", "err", err, "key", key)
	}
}

// boardFor makes week the board's current week, loading it (or starting it empty).
func (d *desk) boardFor(week string) {
	if d.board != nil && d.board.Week == week {
		return
	}
	d.board = &deskBoard{Week: week, Lines: map[string]*BoardLine{}}
	if b, err := d.a.Store().Walkins().Get("board/" + week); err == nil {
		var loaded deskBoard
		if json.Unmarshal(b, &loaded) == nil && loaded.Lines != nil {
			loaded.Week = week
			d.board = &loaded
		}
	}
}

func (d *desk) addBoardLine(m *deskBoardLine) {
	d.boardFor(m.Week)
	l := d.board.Lines[m.Name]
	if l == nil {
		l = &BoardLine{Name: m.Name, Best: m.Line.Net}
		d.board.Lines[m.Name] = l
	}
	l.Rounds++
	l.Net += m.Line.Net
	if m.Line.Net > l.Best {
		l.Best = m.Line.Net
	}
	if m.Line.Role == "mole" {
		l.MoleRounds++
		l.Rungs += m.Line.Rungs
	}
	if m.Line.Right {
		l.AccusationsRight++
	}
	b, err := json.Marshal(d.board)
	if err == nil {
		err = d.a.Store().Walkins().Put("board/"+m.Week, b)
	}
	if err != nil {
		d.log.Error("board not saved", "err", err)
	}
}

func (d *desk) boardView() BoardView {
	v := BoardView{Week: d.board.Week, Entry: walkinEntry, Lines: make([]BoardLine, 0, len(d.board.Lines))}
	for _, l := range d.board.Lines {
		v.Lines = append(v.Lines, *l)
	}
	sort.Slice(v.Lines, func(i, j int) bool {
		a, b := v.Lines[i], v.Lines[j]
		if a.Net != b.Net {
			return a.Net > b.Net
		}
		if a.Rounds != b.Rounds {
			return a.Rounds > b.Rounds
		}
		return a.Name < b.Name
	})
	if len(v.Lines) > boardMax {
		v.Lines = v.Lines[:boardMax]
	}
	return v
}

// deskSince is the desk's notion of "now" for records (the arena clock).
func (d *desk) now() time.Time { return d.a.deskClock().Now() }

// restoreFreePlaces (desk start) tells each walk-in waiting at a Free table that has not opened
// (storage gathering, gathering.go) that it still holds its place (walkinRequeued), before the
// desk takes any request: a second join is in_a_round, a poll says gathering.
func (d *desk) restoreFreePlaces(ctx actor.Context) {
	saved, err := d.a.Store().Gatherings()
	if err != nil {
		d.log.Error("gathering tables unreadable", "err", err)
		return
	}
	for _, rec := range saved {
		if _, err := d.a.Stored(rec.Table); !errors.Is(err, actors.ErrNoTable) {
			continue // opened (its walk-ins are seated, gatherer.restore) or unreadable
		}
		for _, ag := range rec.Agents {
			if ag.Walkin == "" {
				continue
			}
			if pid := d.resolve(ctx, ag.Walkin); pid != nil {
				ctx.Send(pid, &walkinRequeued{Key: KindFree})
			}
		}
	}
}
