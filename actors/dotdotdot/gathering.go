package dotdotdot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/internal/ask"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
)

// Agent tables that gather (kinds.go: Free play, rated and badge-gated tables): registered
// agents join by POST /v1/join {"table": kind} and wait, in the order they came, for the table
// of that kind and format filling now. It opens when its seats are full, or once it has waited
// Paces.WalkinTopUp (two minutes) from its first agent with enough agents to play (MinAgents),
// house seats taking the rest; with fewer it waits another period. Every agent is called at its
// endpoint once the round starts (§4). Free play gathers walk-ins too (POST /v1/walkin/join
// {"table": "free"}): a walk-in waits beside the agents and plays on its mailbox under a Badge
// the house lends, told of its seat through the desk. One actor owns the gatherings; each is
// saved (storage gathering) before a join is answered, so a restart keeps every player in its
// place.

// gatheringName is the gathering actor's name under the root.
const gatheringName = "dotdotdot-gathering"

// minAgents is how many agents a gathering table of kind needs before house seats may fill it:
// a rated or badge-gated table needs two Badges to rate or to gate anything (rating.Round), Free
// play one.
func minAgents(kind string) int {
	if kind == KindRated || kind == KindGated {
		return 2
	}
	return 1
}

// gathers says whether kind's tables gather registered agents (JoinAgent's tables "free",
// "rated", "gated").
func gathers(kind string) bool { return kind == KindFree || kind == KindRated || kind == KindGated }

// Gathering is a table gathering as the lobby lists it: display names only.
type Gathering struct {
	Kind     string    `json:"kind"`
	Format   string    `json:"format"`
	Table    string    `json:"table"`
	Seats    int       `json:"seats"`
	Players  []string  `json:"players"`
	StartsBy time.Time `json:"starts_by"` // when house seats may top it up (if MinAgents have come)
}

type gatherJoin struct {
	Join   AgentJoin
	Kind   string
	Format string
	Seats  int
}

type gatherJoinReply struct {
	Reply AgentJoinReply
	Err   error
}

type gatherTimer struct {
	Table string
	Gen   uint64
}

type gatherOpened struct {
	Table, Round string
	Err          error
}

// gatherWalkin goes walk-in → gatherer: give walk-in Hash (display name Name, actor PID) a
// place at the Free table of Format and Seats filling now. The join's future rides along: it
// is answered Reply once the place is saved; a place that cannot be saved is answered busy and
// the walk-in told walkinUnqueued.
type gatherWalkin struct {
	deskReplier
	Hash, Name string
	PID        *actor.PID
	Format     string
	Seats      int
	Reply      *walkinBeginJoinReply
}

// gatherLeave takes walk-in Hash's place away (a place restored for a walk-in that holds another
// seat by now).
type gatherLeave struct{ Hash string }

type gatherList struct{}

type gatherListReply struct{ Tables []Gathering }

type gatherFind struct{ Agent string }

type gatherFindReply struct{ Table string }

// gathering is one table gathering (or being opened).
type gathering struct {
	rec     storage.GatheringTable
	seats   int
	gen     uint64
	stop    func() bool
	opening bool
}

// gatherer is the gathering actor.
type gatherer struct {
	a      *Arena
	tables map[string]*gathering // by table id
}

func startGathering(a *Arena) error {
	props := actor.PropsFromProducer(func() actor.Actor { return &gatherer{a: a, tables: map[string]*gathering{}} })
	pid, err := a.System().Root.SpawnNamed(props, gatheringName)
	if err != nil {
		return err
	}
	a.gathering = pid
	return nil
}

func (g *gatherer) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		g.restore(ctx)
	case *gatherJoin:
		ctx.Respond(g.join(ctx, m))
	case *gatherWalkin:
		g.joinWalkin(ctx, m)
	case *gatherLeave:
		g.leave(m.Hash)
	case *gatherTimer:
		t := g.tables[m.Table]
		if t == nil || t.gen != m.Gen || t.opening {
			return
		}
		g.due(ctx, t)
	case *gatherOpened:
		g.opened(m)
	case *gatherList:
		ctx.Respond(g.list())
	case *gatherFind:
		ctx.Respond(&gatherFindReply{Table: g.find(m.Agent)})
	}
}

// current is the table of kind and format taking joins now (nil: none).
func (g *gatherer) current(kind, format string, seats int) *gathering {
	for _, t := range g.tables {
		if !t.opening && t.rec.Kind == kind && t.rec.Format == format && t.seats == seats {
			return t
		}
	}
	return nil
}

func (g *gatherer) find(agent string) string {
	for id, t := range g.tables {
		if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return x.Walkin == "" && x.Agent == agent }) {
			return id
		}
	}
	return ""
}

// findWalkin is the gathering table walk-in hash waits at ("" none).
func (g *gatherer) findWalkin(hash string) string {
	for id, t := range g.tables {
		if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return x.Walkin == hash }) {
			return id
		}
	}
	return ""
}

// placeWalkin writes walk-in hash's place at gathering table t into its join answer: the table,
// its place in the order of joins (as an agent's gathering answer has it) and starts_by.
func (g *gatherer) placeWalkin(r *walkinBeginJoinReply, t *gathering, hash string) {
	r.Table, r.StartsBy = t.rec.Table, g.startsBy(t)
	r.Seat = 1 + slices.IndexFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return x.Walkin == hash })
}

// table is the table of kind, format and seats taking joins now, or a fresh one (not yet kept).
func (g *gatherer) table(kind, format string, seats int) (*gathering, bool, error) {
	if t := g.current(kind, format, seats); t != nil {
		return t, false, nil
	}
	id, err := newTableID(kind[:1])
	if err != nil {
		return nil, false, err
	}
	return &gathering{rec: storage.GatheringTable{Kind: kind, Format: format, Seats: seats, Table: id, Since: g.a.deskClock().Now().UTC()},
		seats: seats, gen: freshGen()}, true, nil
}

// joinWalkin gives a walk-in a place at the Free table filling now (saved before it is
// answered); a walk-in waiting already keeps its place.
func (g *gatherer) joinWalkin(ctx actor.Context, m *gatherWalkin) {
	reply := walkinBeginJoinReply{}
	if m.Reply != nil {
		reply = *m.Reply
	}
	if id := g.findWalkin(m.Hash); id != "" {
		g.placeWalkin(&reply, g.tables[id], m.Hash)
		m.respond(&reply)
		return
	}
	fail := func(err error) {
		ctx.Send(m.PID, &walkinUnqueued{})
		var ge *games.Error
		if !errors.As(err, &ge) {
			ge = &games.Error{Code: CodeBusy, Msg: err.Error(), Retry: true}
		}
		reply.Err = ge
		m.respond(&reply)
	}
	t, fresh, err := g.table(KindFree, m.Format, m.Seats)
	if err != nil {
		fail(err)
		return
	}
	if err := nameAt(t, m.Name); err != nil {
		fail(err)
		return
	}
	rec := t.rec
	rec.Agents = append(slices.Clone(rec.Agents), storage.GatheringAgent{Walkin: m.Hash, Name: m.Name, Kind: "walkin", Human: true,
		Joined: g.a.deskClock().Now().UTC()})
	if err := g.a.Store().PutGathering(rec); err != nil {
		fail(&games.Error{Code: CodeBusy, Msg: "the place at the table could not be saved; join again", Retry: true})
		return
	}
	t.rec = rec
	if fresh {
		g.tables[rec.Table] = t
	}
	g.placeWalkin(&reply, t, m.Hash)
	m.respond(&reply)
	switch {
	case len(rec.Agents) >= t.seats:
		g.open(ctx, t)
	case fresh:
		g.arm(ctx, t, g.a.paces().WalkinTopUp)
	}
}

// nameAt refuses a player whose display name (by nameKey) is one a player waiting at t holds
// already: the names at one table are distinct (§9 names seats by name), so it joins the next
// table (name_taken, retry).
func nameAt(t *gathering, name string) error {
	if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return nameKey(x.Name) == nameKey(name) }) {
		return &games.Error{Code: CodeNameTaken, Msg: fmt.Sprintf("a player named %q waits at table %s already: the names at one table are distinct; join again once it opens", name, t.rec.Table), Retry: true}
	}
	return nil
}

// leave takes a walk-in's place away from the table it waits at, unless that table is being
// opened (its seat is there: the walk-in refuses it, walkinSeated).
func (g *gatherer) leave(hash string) {
	t := g.tables[g.findWalkin(hash)]
	if t == nil || t.opening {
		return
	}
	rec := t.rec
	rec.Agents = slices.DeleteFunc(slices.Clone(rec.Agents), func(x storage.GatheringAgent) bool { return x.Walkin == hash })
	if len(rec.Agents) == 0 {
		if err := g.a.Store().DeleteGathering(rec.Table); err == nil {
			if t.stop != nil {
				t.stop()
			}
			delete(g.tables, rec.Table)
		}
		return
	}
	if err := g.a.Store().PutGathering(rec); err == nil {
		t.rec = rec
	}
}

func (g *gatherer) join(ctx actor.Context, m *gatherJoin) *gatherJoinReply {
	j := m.Join
	if id := g.find(j.Agent); id != "" {
		return &gatherJoinReply{Err: games.Errorf(CodeInARound, "%s is waiting at table %s already", j.Agent, id)}
	}
	t, fresh, err := g.table(m.Kind, m.Format, m.Seats)
	if err != nil {
		return &gatherJoinReply{Err: err}
	}
	if err := nameAt(t, j.Name); err != nil {
		return &gatherJoinReply{Err: err}
	}
	if j.Owner != "" && m.Kind != KindFree {
		if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return ownerKey(x.Owner) == ownerKey(j.Owner) }) {
			return &gatherJoinReply{Err: games.Errorf(CodeBadTable, "an agent of %s is waiting at this table already: one seat per owner at a %s", j.Owner, kindTitle(m.Kind))}
		}
	}
	kind := j.Kind
	if kind == "" {
		kind = "byo"
	}
	rec := t.rec
	rec.Agents = append(slices.Clone(rec.Agents), storage.GatheringAgent{Agent: j.Agent, Name: j.Name, Endpoint: j.Endpoint,
		Kind: kind, Owner: j.Owner, Human: j.Human, Joined: g.a.deskClock().Now().UTC()})
	if fresh && !paceZero(j.Pace) {
		rec.Pace = j.Pace
	}
	if err := g.a.Store().PutGathering(rec); err != nil {
		return &gatherJoinReply{Err: &games.Error{Code: CodeBusy, Msg: "the place at the table could not be saved; join again", Retry: true}}
	}
	t.rec = rec
	if fresh {
		g.tables[rec.Table] = t
	}
	reply := &gatherJoinReply{Reply: AgentJoinReply{Table: rec.Table, Seat: len(rec.Agents), Format: rec.Format,
		Pace: g.pace(t).Name, Status: "gathering", Kind: rec.Kind, StartsBy: g.startsBy(t)}}
	switch {
	case len(rec.Agents) >= t.seats:
		g.open(ctx, t)
	case fresh:
		g.arm(ctx, t, g.a.paces().WalkinTopUp)
	}
	return reply
}

func (g *gatherer) startsBy(t *gathering) time.Time {
	return t.rec.Since.Add(g.a.paces().WalkinTopUp)
}

func (g *gatherer) pace(t *gathering) games.Pace {
	if !paceZero(t.rec.Pace) {
		return t.rec.Pace
	}
	return g.a.pace("agent")
}

func (g *gatherer) arm(ctx actor.Context, t *gathering, wait time.Duration) {
	t.gen++
	self, root, gen, id := ctx.Self(), ctx.ActorSystem().Root, t.gen, t.rec.Table
	t.stop = g.a.deskClock().AfterFunc(max(wait, 0), func() { root.Send(self, &gatherTimer{Table: id, Gen: gen}) })
}

// due is a table's top-up time: it opens with house seats if enough agents came, else it
// waits another period (its agents keep their places; Since moves on, so the lobby's starts_by
// is the next try).
func (g *gatherer) due(ctx actor.Context, t *gathering) {
	if len(t.rec.Agents) >= minAgents(t.rec.Kind) {
		g.open(ctx, t)
		return
	}
	rec := t.rec
	rec.Since = g.a.deskClock().Now().UTC()
	if err := g.a.Store().PutGathering(rec); err == nil {
		t.rec = rec
	}
	g.arm(ctx, t, g.a.paces().WalkinTopUp)
}

// open opens t (its record stays saved until the table exists, so a restart opens it with the
// same id) on a goroutine: OpenTable blocks on storage; the answer comes back as gatherOpened.
func (g *gatherer) open(ctx actor.Context, t *gathering) {
	t.opening = true
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	rec, seats, pace := t.rec, t.seats, g.pace(t)
	a, self, root := g.a, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		octx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		mbs, err := a.freeMailboxes(octx, rec)
		var round string
		if err == nil {
			spec, house := gatherSpec(rec, seats, pace, mbs)
			if round, err = a.openWhenReady(octx, spec); err == nil {
				a.tellFreeSeated(rec, round, pace, len(spec.Seats), house, mbs)
			}
		}
		if err != nil {
			a.unseatFree(rec, mbs)
		}
		root.Send(self, &gatherOpened{Table: rec.Table, Round: round, Err: err})
	}()
}

// freeMailboxes spawns the mailbox of each walk-in waiting at rec (through the desk, its live
// entry written first, so a server restart respawns it), by seat, once the tables are restored.
func (a *Arena) freeMailboxes(ctx context.Context, rec storage.GatheringTable) (map[int]*actor.PID, error) {
	mbs := map[int]*actor.PID{}
	select { // the desk is started with the product, and the tables restored, by then
	case <-a.Ready():
	case <-ctx.Done():
		return mbs, ctx.Err()
	}
	for i, ag := range rec.Agents {
		if ag.Walkin == "" {
			continue
		}
		d, err := a.deskPID()
		if err != nil {
			return mbs, err
		}
		r, err := deskCall[*deskSpawnMailboxReply](ctx, a, d, &deskSpawnMailbox{Hash: ag.Walkin, Table: rec.Table, Seat: i + 1, Game: walkinGame})
		if err != nil {
			return mbs, err
		}
		mbs[i+1] = r.PID // recorded live (a server restart respawns it); a second spawn is idempotent
	}
	return mbs, nil
}

// tellFreeSeated tells each walk-in of rec its seat at the opened table (walkinSeated, through
// the desk); a walk-in that holds another seat by then, or played that round, refuses it.
func (a *Arena) tellFreeSeated(rec storage.GatheringTable, round string, pace games.Pace, n int, house map[int]string, mbs map[int]*actor.PID) {
	d, err := a.deskPID()
	if err != nil {
		return
	}
	now := a.deskClock().Now().UTC()
	for i, ag := range rec.Agents {
		if ag.Walkin == "" || mbs[i+1] == nil {
			continue
		}
		live := &walkinLive{Table: rec.Table, Round: round, Seat: i + 1, Kind: KindFree, Game: walkinGame, Format: rec.Format,
			Pace: pace.Name, Mailbox: mbs[i+1].Id, Entry: walkinEntry, Seats: n, House: house, Joined: now}
		_ = a.deskSend(d, &deskFreeTell{Hash: ag.Walkin, Msg: &walkinSeated{Live: live}})
	}
}

// unseatFree drops the mailboxes of a table that did not open and frees its walk-ins to join
// again (walkinUnqueued).
func (a *Arena) unseatFree(rec storage.GatheringTable, mbs map[int]*actor.PID) {
	d, err := a.deskPID()
	if err != nil {
		return
	}
	for _, pid := range mbs {
		_ = a.deskSend(d, &deskDropMailbox{PID: pid})
	}
	for _, ag := range rec.Agents {
		if ag.Walkin != "" {
			_ = a.deskSend(d, &deskFreeTell{Hash: ag.Walkin, Msg: &walkinUnqueued{}})
		}
	}
}

// gatherSpec is rec's table: its players in seats 1.. in the order they came (registered agents
// on the A2A channel with their Badges' own keys; walk-ins on their mailboxes, mbs by seat, under
// Badges the house lends, unrated), house seats in the rest at the same notional entry; and the
// house seats' names by seat.
func gatherSpec(rec storage.GatheringTable, seats int, pace games.Pace, mbs map[int]*actor.PID) (actors.TableSpec, map[int]string) {
	named := make([]lobbyWalkin, len(rec.Agents))
	for i, ag := range rec.Agents {
		named[i].Name = ag.Name
		if pid := mbs[i+1]; ag.Walkin != "" && pid != nil {
			named[i].Hash, named[i].Mailbox = ag.Walkin, pid.Id
		}
	}
	spec, house := walkinTableSpec(rec.Table, rec.Kind, rec.Format, seats, pace, named, nil)
	for i, ag := range rec.Agents {
		if ag.Walkin != "" {
			continue // walkinTableSpec's walk-in seat: lent Badge, mailbox channel
		}
		s := &spec.Seats[i]
		s.Seat.Agent, s.Seat.Name, s.Lent = ag.Agent, ag.Name, false
		setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Kind, o.Walkin, o.Human, o.Owner = ag.Kind, false, ag.Human, ag.Owner })
		s.Channel, s.Endpoint = ChannelA2A, ag.Endpoint
	}
	return spec, house
}

func (g *gatherer) opened(m *gatherOpened) {
	t := g.tables[m.Table]
	if t == nil {
		return
	}
	delete(g.tables, m.Table)
	log := g.a.Logger()
	if m.Err != nil {
		// Its agents were told "gathering" and are never called: the lobby no longer lists the
		// table, and a join of theirs seats them afresh.
		log.Error("gathering table not opened; its agents may join again", "table", m.Table, "kind", t.rec.Kind, "err", m.Err)
	}
	if err := g.a.Store().DeleteGathering(m.Table); err != nil {
		log.Warn("gathering table opened but its record stays; the next start drops it", "table", m.Table, "err", err)
	}
}

func (g *gatherer) list() *gatherListReply {
	out := []Gathering{}
	for _, t := range g.tables {
		if t.opening {
			continue
		}
		v := Gathering{Kind: t.rec.Kind, Format: t.rec.Format, Table: t.rec.Table, Seats: t.seats, StartsBy: g.startsBy(t), Players: []string{}}
		for _, ag := range t.rec.Agents {
			v.Players = append(v.Players, ag.Name)
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Table < out[j].Table })
	return &gatherListReply{Tables: out}
}

// restore (actor start) takes up every saved gathering (the desk gives its walk-ins their
// places back, restoreFreePlaces): a table that exists by now was opened
// (its record is dropped); one that is full, or past its top-up with enough agents, opens now
// under its id; the rest gather on, their timers armed for what is left of their wait.
func (g *gatherer) restore(ctx actor.Context) {
	saved, err := g.a.Store().Gatherings()
	if err != nil {
		g.a.Logger().Error("gathering tables unreadable", "err", err)
		return
	}
	now := g.a.deskClock().Now()
	for _, rec := range saved {
		if st, err := g.a.Stored(rec.Table); err == nil {
			if st.Status == actors.StatusLive && slices.ContainsFunc(rec.Agents, func(x storage.GatheringAgent) bool { return x.Walkin != "" }) {
				// Opened before the stop: its walk-ins may not have heard of their seats.
				a, rec, round, seats, pace := g.a, rec, st.Round, len(st.Seats), g.pace(&gathering{rec: rec})
				go func() {
					octx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
					defer cancel()
					if mbs, err := a.freeMailboxes(octx, rec); err == nil {
						_, house := gatherSpec(rec, seats, pace, mbs)
						a.tellFreeSeated(rec, round, pace, seats, house, mbs)
					}
					_ = a.Store().DeleteGathering(rec.Table)
				}()
				continue
			}
			_ = g.a.Store().DeleteGathering(rec.Table)
			continue
		} else if !errors.Is(err, actors.ErrNoTable) {
			g.a.Logger().Error("gathering table's record unreadable; kept for the next start", "table", rec.Table, "err", err)
			continue
		}
		seats, err := g.a.formats.choose(rec.Format, rec.Seats)
		if err != nil || len(rec.Agents) == 0 {
			_ = g.a.Store().DeleteGathering(rec.Table)
			continue
		}
		t := &gathering{rec: rec, seats: seats, gen: freshGen()}
		g.tables[rec.Table] = t
		due := rec.Since.Add(g.a.paces().WalkinTopUp)
		switch {
		case len(rec.Agents) >= seats, !now.Before(due) && len(rec.Agents) >= minAgents(rec.Kind):
			g.open(ctx, t)
		default:
			g.arm(ctx, t, due.Sub(now))
		}
	}
}

func kindTitle(kind string) string {
	if k, ok := KindOf(kind); ok {
		return k.Title
	}
	return kind
}

// Gatherings lists the agent tables gathering now (the lobby's), by table id.
func (a *Arena) Gatherings(ctx context.Context) ([]Gathering, error) {
	if a.gathering == nil {
		return []Gathering{}, nil
	}
	res, err := a.System().Root.RequestFuture(a.gathering, &gatherList{}, ask.Timeout(ctx, a.AskTimeout())).Result()
	if err != nil {
		return nil, &games.Error{Code: CodeBusy, Msg: "the gathering tables did not answer: " + err.Error(), Retry: true}
	}
	return res.(*gatherListReply).Tables, nil
}

// waitingAt is the gathering table agent waits at ("" none).
func (a *Arena) waitingAt(ctx context.Context, agent string) (string, error) {
	if a.gathering == nil {
		return "", nil
	}
	res, err := a.System().Root.RequestFuture(a.gathering, &gatherFind{Agent: agent}, ask.Timeout(ctx, a.AskTimeout())).Result()
	if err != nil {
		return "", &games.Error{Code: CodeBusy, Msg: "the gathering tables did not answer: " + err.Error(), Retry: true}
	}
	return res.(*gatherFindReply).Table, nil
}

// joinGathering queues j at the table of kind gathering now (JoinAgent's free, rated and gated
// tables). A rated or badge-gated join is checked against the kind's seat rule first, so a
// walk-in's lent Badge or an ungated Badge is refused at once, not when the table opens.
func (a *Arena) joinGathering(ctx context.Context, kind, format string, seats int, j AgentJoin) (AgentJoinReply, error) {
	if a.gathering == nil {
		return AgentJoinReply{}, games.Errorf(CodeBadTable, "this arena gathers no %s", kindTitle(kind))
	}
	one := actors.TableSpec{Game: walkinGame, Kind: kind, Seats: []actors.SeatSpec{{Seat: games.Seat{Seat: 1, Agent: j.Agent, Name: j.Name,
		Options: blitz.SeatOptions{Kind: orKind(j.Kind), Owner: j.Owner, Human: j.Human}.JSON()}, Channel: ChannelA2A, Endpoint: j.Endpoint}}}
	if err := admit(one, a.ratedRounds); err != nil {
		return AgentJoinReply{}, err
	}
	res, err := a.System().Root.RequestFuture(a.gathering, &gatherJoin{Join: j, Kind: kind, Format: format, Seats: seats}, ask.Timeout(ctx, a.AskTimeout())).Result()
	if err != nil {
		return AgentJoinReply{}, &games.Error{Code: CodeBusy, Msg: "the gathering tables did not answer: " + err.Error(), Retry: true}
	}
	r := res.(*gatherJoinReply)
	return r.Reply, r.Err
}
