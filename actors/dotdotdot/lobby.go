package dotdotdot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
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
// most 8 seats and 8 names, each walk-in taking at most one of them, so there are always
// enough), every seat at the notional entry and collateral. mole, when set, fixes the mole's seat (games/blitz Options.Mole).
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

// openPractice opens a Practice table (or a Solo: req.Table, kinds.go) for the walk-in whose
// join began (begin): its mailbox first, then the table, then the seat is recorded with the
// walk-in actor. It runs to the end
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
	spec, house := walkinTableSpec(id, req.Table, req.Format, req.Seats, a.pace(req.Pace), []lobbyWalkin{{Hash: begin.Hash, Name: begin.Name, Mailbox: mb.PID.Id}}, req.Mole)
	round, err := a.OpenTable(octx, spec)
	if err != nil {
		_ = a.deskSend(d, &deskDropMailbox{PID: mb.PID})
		return fail(err)
	}
	live := &walkinLive{Table: id, Round: round, Seat: 1, Kind: req.Table, Game: walkinGame, Format: req.Format,
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
	return JoinReply{Round: round, Table: id, Kind: req.Table, Format: req.Format, Seat: 1, Pace: req.Pace,
		Status: "seated", Practice: begin.Practice}, nil
}

// lobbyEnqueue goes walk-in → desk: queue me for the walkin table of (Format, Pace). The
// caller's future rides along: the desk answers it Reply once the place is saved.
type lobbyEnqueue struct {
	deskReplier
	Hash   string
	PID    *actor.PID
	Name   string
	Format string
	Pace   string
	Reply  *walkinBeginJoinReply
}

// lobbyTopUp is the walkin queue's two-minute timer; Gen tells a stale one apart.
type lobbyTopUp struct {
	Key string
	Gen uint64
}

// lobbyOpened comes back from the goroutine that opened a walkin table of queue Key.
type lobbyOpened struct {
	Key     string
	Spec    actors.TableSpec
	House   map[int]string
	Pace    string
	Round   string
	Err     error
	Entries []*lobbyEnqueue
	Seated  []*actor.PID // mailboxes, by entry
}

// lobbySeatTaken goes walk-in → desk: the walk-in heard of its seat at Table (walkinSeated) and
// saved its record, whether it took the seat or not.
type lobbySeatTaken struct{ Table, Hash string }

// lobbyLeave goes walk-in → desk: take Hash out of queue Key (a place the desk restored for a
// walk-in that holds another seat by now).
type lobbyLeave struct{ Key, Hash string }

// lobbyQueue is the walk-ins waiting for one (format, pace) walkin table, and the tables filled
// from it being opened. It is saved (storage walkin_queue) before any change is answered, so a
// restart keeps every place and seats the walk-ins of a table filled before it.
type lobbyQueue struct {
	format, pace string
	entries      []*lobbyEnqueue
	since        time.Time // when the first entry waiting came: the top-up runs from it
	gen          uint64
	stop         func() bool
	// opening are the tables filled from the queue whose walk-ins have not all heard of their
	// seat (lobbySeatTaken), by table id: the walk-ins in seat order, and those that heard.
	opening map[string]*lobbyOpening
}

type lobbyOpening struct {
	walkins []storage.QueuedWalkin
	told    map[string]bool
}

// record is the queue as stored.
func (q *lobbyQueue) record() storage.WalkinQueue {
	r := storage.WalkinQueue{Format: q.format, Pace: q.pace, Since: q.since}
	for _, e := range q.entries {
		r.Waiting = append(r.Waiting, storage.QueuedWalkin{Hash: e.Hash, Name: e.Name})
	}
	ids := make([]string, 0, len(q.opening))
	for id := range q.opening {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		r.Opening = append(r.Opening, storage.QueuedTable{Table: id, Walkins: q.opening[id].walkins})
	}
	if len(r.Waiting) == 0 {
		r.Since = time.Time{}
	}
	return r
}

// saveQueue writes q (write before you speak: no place is answered, and no seat told, before it).
func (d *desk) saveQueue(q *lobbyQueue) error {
	err := d.a.Store().PutWalkinQueue(q.record())
	if err != nil {
		d.log.Error("walkin queue not saved", "err", err, "queue", q.format+"/"+q.pace)
	}
	return err
}

func (d *desk) queue(format, pace string) (string, *lobbyQueue) {
	key := format + "/" + pace
	q := d.queues[key]
	if q == nil {
		q = &lobbyQueue{format: format, pace: pace, gen: freshGen(), opening: map[string]*lobbyOpening{}}
		d.queues[key] = q
	}
	return key, q
}

func (d *desk) enqueue(ctx actor.Context, m *lobbyEnqueue) {
	key, q := d.queue(m.Format, m.Pace)
	reply := walkinBeginJoinReply{}
	if m.Reply != nil {
		reply = *m.Reply
	}
	for _, e := range q.entries {
		if e.Hash == m.Hash {
			m.respond(&reply)
			return
		}
	}
	since := q.since
	if len(q.entries) == 0 {
		q.since = d.now().UTC()
	}
	q.entries = append(q.entries, m)
	if err := d.saveQueue(q); err != nil {
		q.entries, q.since = q.entries[:len(q.entries)-1], since
		ctx.Send(m.PID, &walkinUnqueued{})
		reply.Err = &games.Error{Code: CodeBusy, Msg: "the place in the queue could not be saved; join again", Retry: true}
		m.respond(&reply)
		return
	}
	m.respond(&reply)
	if len(q.entries) >= d.a.seatsOf(m.Format) {
		d.openWalkinTable(ctx, key, q)
		return
	}
	if len(q.entries) == 1 {
		d.armTopUp(ctx, key, q, d.a.paces().WalkinTopUp)
	}
}

// armTopUp arms the queue's top-up timer to fire after wait.
func (d *desk) armTopUp(ctx actor.Context, key string, q *lobbyQueue, wait time.Duration) {
	q.gen++
	self, root, gen := ctx.Self(), ctx.ActorSystem().Root, q.gen
	q.stop = d.a.deskClock().AfterFunc(max(wait, 0), func() { root.Send(self, &lobbyTopUp{Key: key, Gen: gen}) })
}

func (d *desk) topUp(ctx actor.Context, m *lobbyTopUp) {
	q := d.queues[m.Key]
	if q == nil || q.gen != m.Gen || len(q.entries) == 0 {
		return // stale: the table filled (or opened) meanwhile
	}
	d.openWalkinTable(ctx, m.Key, q)
}

// leaveQueue takes a walk-in out of a queue (lobbyLeave).
func (d *desk) leaveQueue(m *lobbyLeave) {
	q := d.queues[m.Key]
	if q == nil {
		return
	}
	i := slices.IndexFunc(q.entries, func(e *lobbyEnqueue) bool { return e.Hash == m.Hash })
	if i < 0 {
		return
	}
	q.entries = slices.Delete(q.entries, i, i+1)
	if len(q.entries) == 0 && q.stop != nil {
		q.stop()
		q.stop = nil
	}
	_ = d.saveQueue(q)
}

// leaveQueued takes a walk-in away from the walkin queue it waits in (saved first, then
// walkinLeft), or hands the leave to the gatherer (a place at a Free play table); with neither,
// its table is being opened (table_started).
func (d *desk) leaveQueued(ctx actor.Context, m *deskQueueLeave) {
	for _, q := range d.queues {
		i := slices.IndexFunc(q.entries, func(e *lobbyEnqueue) bool { return e.Hash == m.Hash })
		if i < 0 {
			continue
		}
		was := q.entries
		q.entries = slices.Delete(slices.Clone(q.entries), i, i+1)
		if err := d.saveQueue(q); err != nil {
			q.entries = was
			m.respond(&games.Error{Code: CodeBusy, Msg: "the leave could not be saved; leave again", Retry: true})
			return
		}
		if len(q.entries) == 0 && q.stop != nil {
			q.stop()
			q.stop = nil
		}
		ctx.Send(m.PID, &walkinLeft{deskReplier: m.deskReplier})
		return
	}
	if g := d.a.gathering; g != nil {
		ctx.Send(g, &gatherLeave{deskReplier: m.deskReplier, Hash: m.Hash, PID: m.PID})
		return
	}
	m.respond(games.Errorf(CodeTableStarted, "this walk-in's table is being opened; its seat comes with the next poll"))
}

// openWalkinTable seats everyone queued, tops up with house seats and opens the table
// (openQueued).
func (d *desk) openWalkinTable(ctx actor.Context, key string, q *lobbyQueue) {
	entries := q.entries
	q.entries, q.since = nil, time.Time{}
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
		_ = d.saveQueue(q)
		return
	}
	d.openQueued(ctx, key, q, id, entries)
}

// openQueued records table id as opening from q with entries in seats 1.. (saved first: a
// restart then opens it, or seats them at it), spawns their mailboxes and opens the table on a
// goroutine (OpenTable blocks on storage); the answer comes back as *lobbyOpened. A restart
// calls it again with the same id for a table that was not opened.
func (d *desk) openQueued(ctx actor.Context, key string, q *lobbyQueue, id string, entries []*lobbyEnqueue) {
	o := &lobbyOpening{told: map[string]bool{}}
	for _, e := range entries {
		o.walkins = append(o.walkins, storage.QueuedWalkin{Hash: e.Hash, Name: e.Name})
	}
	q.opening[id] = o
	if err := d.saveQueue(q); err != nil {
		delete(q.opening, id)
		for _, e := range entries {
			if e.PID != nil {
				ctx.Send(e.PID, &walkinUnqueued{})
			}
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
		round, err := a.openWhenReady(octx, spec)
		root.Send(self, &lobbyOpened{Key: key, Spec: spec, House: house, Pace: pace, Round: round, Err: err, Entries: entries, Seated: mbs})
	}()
}

func (d *desk) opened(ctx actor.Context, m *lobbyOpened) {
	q := d.queues[m.Key]
	if m.Err != nil {
		d.log.Error("walkin table not opened", "err", m.Err, "table", m.Spec.ID)
		for i, e := range m.Entries {
			d.dropMailbox(ctx, m.Seated[i])
			if e.PID != nil {
				ctx.Send(e.PID, &walkinUnqueued{})
			}
		}
		if q != nil {
			delete(q.opening, m.Spec.ID)
			_ = d.saveQueue(q)
		}
		return
	}
	now := d.now().UTC()
	for i, e := range m.Entries {
		if e.PID == nil {
			continue
		}
		ctx.Send(e.PID, &walkinSeated{Live: &walkinLive{Table: m.Spec.ID, Round: m.Round, Seat: i + 1, Kind: "walkin",
			Game: walkinGame, Format: m.Spec.Format, Pace: m.Pace, Mailbox: m.Seated[i].Id, Entry: walkinEntry,
			Seats: len(m.Spec.Seats), House: m.House, Joined: now}})
	}
}

// seatTaken notes that a walk-in heard of its seat; once all of a table's have, the table is no
// longer opening (saved).
func (d *desk) seatTaken(m *lobbySeatTaken) {
	for _, q := range d.queues {
		o := q.opening[m.Table]
		if o == nil {
			continue
		}
		o.told[m.Hash] = true
		for _, w := range o.walkins {
			if !o.told[w.Hash] {
				return
			}
		}
		delete(q.opening, m.Table)
		_ = d.saveQueue(q)
		return
	}
}

// restoreQueues (desk start) puts back every saved queue: its walk-ins in their places (told so,
// walkinRequeued), its top-up timer for what is left of it, and each table that was opening:
// opened by then (its record exists), its walk-ins are seated again; else it is opened now,
// with the same id.
func (d *desk) restoreQueues(ctx actor.Context) {
	saved, err := d.a.Store().WalkinQueues()
	if err != nil {
		d.log.Error("walkin queues unreadable", "err", err)
		return
	}
	now := d.now()
	for _, sq := range saved {
		key, q := d.queue(sq.Format, sq.Pace)
		q.since = sq.Since
		for _, w := range sq.Waiting {
			pid := d.resolve(ctx, w.Hash)
			if pid == nil {
				continue // the record is gone
			}
			q.entries = append(q.entries, &lobbyEnqueue{Hash: w.Hash, PID: pid, Name: w.Name, Format: sq.Format, Pace: sq.Pace})
			ctx.Send(pid, &walkinRequeued{Key: key})
		}
		for _, t := range sq.Opening {
			d.restoreOpening(ctx, key, q, t)
		}
		switch {
		case len(q.entries) >= d.a.seatsOf(q.format):
			d.openWalkinTable(ctx, key, q)
		case len(q.entries) > 0:
			d.armTopUp(ctx, key, q, q.since.Add(d.a.paces().WalkinTopUp).Sub(now))
			_ = d.saveQueue(q)
		default:
			_ = d.saveQueue(q)
		}
	}
}

// restoreOpening takes up a table that was opening from q when the desk stopped.
func (d *desk) restoreOpening(ctx actor.Context, key string, q *lobbyQueue, t storage.QueuedTable) {
	entries := make([]*lobbyEnqueue, len(t.Walkins))
	for i, w := range t.Walkins {
		entries[i] = &lobbyEnqueue{Hash: w.Hash, PID: d.resolve(ctx, w.Hash), Name: w.Name, Format: q.format, Pace: q.pace}
	}
	st, err := d.a.Stored(t.Table)
	switch {
	case errors.Is(err, actors.ErrNoTable): // never opened: its walk-ins wait for it again, and it opens now
		for _, e := range entries {
			if e.PID != nil {
				ctx.Send(e.PID, &walkinRequeued{Key: key})
			}
		}
		d.openQueued(ctx, key, q, t.Table, entries)
		return
	case err != nil:
		d.log.Error("opening walkin table unreadable; kept for the next start", "err", err, "table", t.Table)
		q.opening[t.Table] = &lobbyOpening{walkins: t.Walkins, told: map[string]bool{}}
		return
	}
	if st.Status != actors.StatusLive {
		return // over (or parked) by now: there is no seat to take, and the opening is done
	}
	o := &lobbyOpening{walkins: t.Walkins, told: map[string]bool{}}
	for _, e := range entries {
		if e.PID == nil {
			o.told[e.Hash] = true // its record is gone: nobody to tell
		}
	}
	q.opening[t.Table] = o
	ws := make([]lobbyWalkin, len(entries))
	mbs := make([]*actor.PID, len(entries))
	for i, e := range entries {
		mbs[i] = d.spawnMailbox(ctx, deskLiveSeat{Hash: e.Hash, Table: t.Table, Seat: i + 1, Game: walkinGame}, false)
		ws[i] = lobbyWalkin{Hash: e.Hash, Name: e.Name, Mailbox: mbs[i].Id}
	}
	spec, house := walkinTableSpec(t.Table, "walkin", q.format, d.a.seatsOf(q.format), d.a.pace(q.pace), ws, nil)
	d.opened(ctx, &lobbyOpened{Key: key, Spec: spec, House: house, Pace: q.pace, Round: st.Round, Entries: entries, Seated: mbs})
}

// openWhenReady is OpenTable once the arena has restored its tables (actors.Arena.Ready): a
// desk restored at boot reopens the tables it was opening before the arena can open them.
func (a *Arena) openWhenReady(ctx context.Context, spec actors.TableSpec) (string, error) {
	select {
	case <-a.Ready():
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return a.OpenTable(ctx, spec)
}

// freshGen is a random timer generation, so a timer armed by an earlier life of the desk (it
// restarted) never matches one of this life's.
func freshGen() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return binary.BigEndian.Uint64(b[:]) >> 1
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
