package dotdotdot

import (
	"context"
	"errors"
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
// endpoint once the round starts (§4). One actor owns the gatherings; each is saved (storage
// gathering) before a join is answered, so a restart keeps every agent in its place.

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
		if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return x.Agent == agent }) {
			return id
		}
	}
	return ""
}

func (g *gatherer) join(ctx actor.Context, m *gatherJoin) *gatherJoinReply {
	j := m.Join
	if id := g.find(j.Agent); id != "" {
		return &gatherJoinReply{Err: games.Errorf(CodeInARound, "%s is waiting at table %s already", j.Agent, id)}
	}
	t := g.current(m.Kind, m.Format, m.Seats)
	fresh := t == nil
	if fresh {
		id, err := newTableID(m.Kind[:1])
		if err != nil {
			return &gatherJoinReply{Err: err}
		}
		t = &gathering{rec: storage.GatheringTable{Kind: m.Kind, Format: m.Format, Seats: m.Seats, Table: id, Since: g.a.deskClock().Now().UTC()},
			seats: m.Seats, gen: freshGen()}
	}
	if j.Owner != "" && m.Kind != KindFree {
		if slices.ContainsFunc(t.rec.Agents, func(x storage.GatheringAgent) bool { return x.Owner == j.Owner }) {
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
	spec := g.spec(t)
	a, self, root := g.a, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		octx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		round, err := a.openWhenReady(octx, spec)
		root.Send(self, &gatherOpened{Table: spec.ID, Round: round, Err: err})
	}()
}

// spec is t's table: its agents in seats 1.. in the order they came (on the A2A channel, their
// Badges' own keys), house seats in the rest at the same notional entry.
func (g *gatherer) spec(t *gathering) actors.TableSpec {
	named := make([]lobbyWalkin, len(t.rec.Agents))
	for i, ag := range t.rec.Agents {
		named[i].Name = ag.Name
	}
	spec, _ := walkinTableSpec(t.rec.Table, t.rec.Kind, t.rec.Format, t.seats, g.pace(t), named, nil)
	for i, ag := range t.rec.Agents {
		s := &spec.Seats[i]
		s.Seat.Agent, s.Seat.Name, s.Lent = ag.Agent, ag.Name, false
		setBlitzSeat(s, func(o *blitz.SeatOptions) { o.Kind, o.Walkin, o.Human, o.Owner = ag.Kind, false, ag.Human, ag.Owner })
		s.Channel, s.Endpoint = ChannelA2A, ag.Endpoint
	}
	return spec
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

// restore (actor start) takes up every saved gathering: a table that exists by now was opened
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
		if _, err := g.a.Stored(rec.Table); err == nil {
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
