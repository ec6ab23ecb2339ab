package dotdotdot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
)

// The lobby: Practice tables (opened at once for one walk-in against named house agents) and the
// walkin table (filled from waiting walk-ins, topped up with house seats two minutes after its
// first walk-in came), §4.4.

// walkinGame is the game every walk-in table plays (DOTDOTDOT Blitz, formats blitz and short).
const walkinGame = "blitz"

// walkinTopUpAfter is how long the walkin table waits for walk-ins before house seats fill it:
// the spec's value (§4.4), used when Options.Paces.WalkinTopUp is zero.
const walkinTopUpAfter = 2 * time.Minute

// houseRoster is the named house agents a walk-in meets (their record against each is kept by
// name). In-house agents are disclosed: their seats are kind "house".
var houseRoster = [...]string{"Ada", "Basil", "Cleo", "Dara", "Emil", "Faye", "Gideon", "Hana"}

// newTableID is a fresh table id: prefix ("p" practice, "w" walkin) + 16 hex digits.
func newTableID(prefix string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("actors: table id: %w", err)
	}
	return prefix + hex.EncodeToString(b[:]), nil
}

// lobbyWalkin is one walk-in to seat at a table.
type lobbyWalkin struct {
	Hash    string
	Name    string
	Mailbox string // the mailbox actor's PID id
}

// walkinTableSpec builds the spec of a walk-in table of n seats (formatSeats) on pace (the
// arena's configured clock, Arena.pace): the walk-ins in seats 1.., house agents after them
// (names drawn from houseRoster with the table id as seed, none a walk-in's name by nameKey: at
// most 6 seats, 8 names, so there are always enough), every seat at the notional entry and
// collateral. mole, when set, fixes the mole's seat (games/blitz Options.Mole).
func walkinTableSpec(id, kind, format string, n int, pace games.Pace, walkins []lobbyWalkin, mole *int) (actors.TableSpec, map[int]string) {
	sum := sha256.Sum256([]byte(id))
	rng := mrand.New(mrand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	shuffled := houseRoster
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	// The display names at one table are distinct by nameKey (§9: a call names a seat by its
	// display name), so a house agent whose name a seated walk-in (or agent) holds sits out.
	taken := map[string]bool{}
	for _, w := range walkins {
		taken[nameKey(w.Name)] = true
	}
	names := make([]string, 0, len(shuffled))
	for _, h := range shuffled {
		if !taken[nameKey(h)] {
			names = append(names, h)
		}
	}
	spec := actors.TableSpec{ID: id, Game: walkinGame, Format: format, Kind: kind, Pace: pace}
	house := map[int]string{}
	for s := 1; s <= n; s++ {
		// Agent is left empty: OpenTable lends each seat its house Badge (keys.go).
		seat := games.Seat{Seat: s, Entry: walkinEntry}
		opts := blitz.SeatOptions{Walkin: true, Collateral: walkinCollateral}
		if s <= len(walkins) {
			w := walkins[s-1]
			seat.Name, opts.Kind, opts.Human = w.Name, "walkin", true
			seat.Options = opts.JSON()
			spec.Seats = append(spec.Seats, actors.SeatSpec{Seat: seat, Kind: opts.Kind, Lent: true, Channel: ChannelMailbox, Actor: w.Mailbox})
			continue
		}
		seat.Name, opts.Kind = names[(s-len(walkins)-1)%len(names)], "house"
		seat.Options = opts.JSON()
		house[s] = seat.Name
		spec.Seats = append(spec.Seats, actors.SeatSpec{Seat: seat, Kind: opts.Kind, Lent: true, Channel: actors.ChannelHouse})
	}
	if mole != nil {
		spec.Options, _ = json.Marshal(map[string]int{"mole": *mole}) // cannot fail
	}
	return spec, house
}

// openPractice opens a Practice table for the walk-in whose join began (begin): its mailbox
// first, then the table, then the seat is recorded with the walk-in actor. It runs to the end
// even when the client goes away, so a table is never opened without its seat being recorded.
func (a *Arena) openPractice(ctx context.Context, w *actor.PID, begin *walkinBeginJoinReply, req JoinRequest) (JoinReply, error) {
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	fail := func(err error) (JoinReply, error) {
		_, _ = deskCall[*walkinEndJoinReply](octx, a, w, &walkinEndJoin{Gen: begin.Gen})
		return JoinReply{Practice: begin.Practice}, err
	}
	d, err := a.deskPID()
	if err != nil {
		return fail(err)
	}
	id, err := newTableID("p")
	if err != nil {
		return fail(err)
	}
	mb, err := deskCall[*deskSpawnMailboxReply](octx, a, d, &deskSpawnMailbox{Hash: begin.Hash, Table: id, Seat: 1, Game: walkinGame})
	if err != nil {
		return fail(err)
	}
	spec, house := walkinTableSpec(id, "practice", req.Format, a.seatsOf(req.Format), a.pace(req.Pace), []lobbyWalkin{{Hash: begin.Hash, Name: begin.Name, Mailbox: mb.PID.Id}}, req.Mole)
	round, err := a.OpenTable(octx, spec)
	if err != nil {
		_ = a.deskSend(d, &deskDropMailbox{PID: mb.PID})
		return fail(err)
	}
	live := &walkinLive{Table: id, Round: round, Seat: 1, Kind: "practice", Game: walkinGame, Format: req.Format,
		Pace: req.Pace, Mailbox: mb.PID.Id, Entry: walkinEntry, Seats: len(spec.Seats), House: house, Joined: a.deskClock().Now().UTC()}
	ended, err := deskCall[*walkinEndJoinReply](octx, a, w, &walkinEndJoin{Gen: begin.Gen, Live: live})
	if err != nil {
		return JoinReply{}, err
	}
	if !ended.OK {
		// The walk-in actor restarted meanwhile and forgot this join: the table plays on without
		// it (the away rule keeps it quick). Ask the client to join again.
		return JoinReply{Practice: begin.Practice}, &games.Error{Code: CodeBusy, Msg: "the seat could not be recorded; join again", Retry: true}
	}
	return JoinReply{Round: round, Table: id, Kind: "practice", Format: req.Format, Seat: 1, Pace: req.Pace,
		Status: "seated", Practice: begin.Practice}, nil
}

// lobbyEnqueue goes walk-in → desk: queue me for the walkin table of (Format, Pace).
type lobbyEnqueue struct {
	Hash   string
	PID    *actor.PID
	Name   string
	Format string
	Pace   string
}

// lobbyTopUp is the walkin queue's two-minute timer; Gen tells a stale one apart.
type lobbyTopUp struct {
	Key string
	Gen uint64
}

// lobbyOpened comes back from the goroutine that opened a walkin table.
type lobbyOpened struct {
	Spec    actors.TableSpec
	House   map[int]string
	Pace    string
	Round   string
	Err     error
	Entries []*lobbyEnqueue
	Seated  []*actor.PID // mailboxes, by entry
}

// lobbyQueue is the walk-ins waiting for one (format, pace) walkin table.
type lobbyQueue struct {
	format, pace string
	entries      []*lobbyEnqueue
	gen          uint64
	stop         func() bool
}

func (d *desk) enqueue(ctx actor.Context, m *lobbyEnqueue) {
	key := m.Format + "/" + m.Pace
	q := d.queues[key]
	if q == nil {
		q = &lobbyQueue{format: m.Format, pace: m.Pace}
		d.queues[key] = q
	}
	for _, e := range q.entries {
		if e.Hash == m.Hash {
			return
		}
	}
	q.entries = append(q.entries, m)
	if len(q.entries) >= d.a.seatsOf(m.Format) {
		d.openWalkinTable(ctx, key, q)
		return
	}
	if len(q.entries) == 1 {
		q.gen++
		self, root, gen := ctx.Self(), ctx.ActorSystem().Root, q.gen
		q.stop = d.a.deskClock().AfterFunc(d.a.paces().WalkinTopUp, func() { root.Send(self, &lobbyTopUp{Key: key, Gen: gen}) })
	}
}

func (d *desk) topUp(ctx actor.Context, m *lobbyTopUp) {
	q := d.queues[m.Key]
	if q == nil || q.gen != m.Gen || len(q.entries) == 0 {
		return // stale: the table filled (or opened) meanwhile
	}
	d.openWalkinTable(ctx, m.Key, q)
}

// openWalkinTable seats everyone queued, tops up with house seats and opens the table on a
// goroutine (OpenTable blocks on storage); the answer comes back as *lobbyOpened.
func (d *desk) openWalkinTable(ctx actor.Context, key string, q *lobbyQueue) {
	entries := q.entries
	q.entries = nil
	q.gen++
	if q.stop != nil {
		q.stop()
		q.stop = nil
	}
	id, err := newTableID("w")
	if err != nil {
		d.log.Error("walkin table id", "err", err)
		for _, e := range entries {
			ctx.Send(e.PID, &walkinUnqueued{})
		}
		return
	}
	ws := make([]lobbyWalkin, len(entries))
	mbs := make([]*actor.PID, len(entries))
	for i, e := range entries {
		mbs[i] = d.spawnMailbox(ctx, deskLiveSeat{Hash: e.Hash, Table: id, Seat: i + 1, Game: walkinGame}, true)
		ws[i] = lobbyWalkin{Hash: e.Hash, Name: e.Name, Mailbox: mbs[i].Id}
	}
	spec, house := walkinTableSpec(id, "walkin", q.format, d.a.seatsOf(q.format), d.a.pace(q.pace), ws, nil)
	a, self, root, pace := d.a, ctx.Self(), ctx.ActorSystem().Root, q.pace
	go func() {
		octx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		round, err := a.OpenTable(octx, spec)
		root.Send(self, &lobbyOpened{Spec: spec, House: house, Pace: pace, Round: round, Err: err, Entries: entries, Seated: mbs})
	}()
}

func (d *desk) opened(ctx actor.Context, m *lobbyOpened) {
	if m.Err != nil {
		d.log.Error("walkin table not opened", "err", m.Err, "table", m.Spec.ID)
		for i, e := range m.Entries {
			d.dropMailbox(ctx, m.Seated[i])
			ctx.Send(e.PID, &walkinUnqueued{})
		}
		return
	}
	now := d.now().UTC()
	for i, e := range m.Entries {
		ctx.Send(e.PID, &walkinSeated{Live: &walkinLive{Table: m.Spec.ID, Round: m.Round, Seat: i + 1, Kind: "walkin",
			Game: walkinGame, Format: m.Spec.Format, Pace: m.Pace, Mailbox: m.Seated[i].Id, Entry: walkinEntry,
			Seats: len(m.Spec.Seats), House: m.House, Joined: now}})
	}
}

// PracticeBench is actors.BenchOptions.Spec for `arena bench -practice`: each table opened as the
// desk opens a Practice table with no walk-in (walkinTableSpec: named house seats of kind "house"
// at the notional entry and collateral, as many as the format of eng's manifest seats at the
// fewest: blitz 6, short 3). The bench then puts its engine and compressed agent clock on it.
// Format "" is blitz; a format the manifest does not have is an error.
func PracticeBench(eng games.Engine, format string) (func(id string) actors.TableSpec, error) {
	if format == "" {
		format = walkinGame
	}
	formats := formatSeatsOf(eng.Manifest())
	n, ok := formats.of(format)
	if !ok {
		return nil, fmt.Errorf("dotdotdot: bench: practice format %q: %s", format, formats.choices())
	}
	return func(id string) actors.TableSpec {
		spec, _ := walkinTableSpec(id, "practice", format, n, blitz.AgentPace(), nil, nil)
		return setLevers(spec) // the bench opens through actors.Arena, not Arena.OpenTable
	}, nil
}

// setBlitzSeat changes a seat's Blitz options (games.Seat.Options) in place, the seat's kind
// (SeatSpec.Kind) following them; the seats walkinTableSpec makes are the only ones it is given.
func setBlitzSeat(s *actors.SeatSpec, f func(*blitz.SeatOptions)) {
	o, _ := blitz.SeatOptionsOf(s.Seat) // walkinTableSpec wrote them: they decode
	f(&o)
	s.Seat.Options, s.Kind = o.JSON(), o.Kind
}
