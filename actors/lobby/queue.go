package lobby

import (
	"cmp"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// memo is what a queue has learnt that outlives its actor's restart: the distinct keys seen
// until the tier split, the split itself, the table count and the incarnation. Only the queue's
// actor touches it, one incarnation after the other; mu orders them.
type memo struct {
	mu          sync.Mutex
	seen        map[string]struct{} // nil once split
	seenN       int
	split       bool
	tables      uint64
	incarnation uint64
}

func newMemo(split bool) *memo {
	m := &memo{split: split}
	if !split {
		m.seen = map[string]struct{}{}
	}
	return m
}

// see records that key queued; true when it is the key that makes the split (the splitAt-th).
func (m *memo) see(key string, splitAt int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.split {
		return false
	}
	if _, ok := m.seen[key]; ok {
		return false
	}
	m.seen[key] = struct{}{}
	m.seenN++
	if m.seenN < splitAt {
		return false
	}
	m.split, m.seen = true, nil
	return true
}

func (m *memo) nextTable() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tables++
	return m.tables
}

// entry is one queued entrant.
type entry struct {
	e      Entrant
	tier   string
	joined time.Time
	seq    uint64
	table  uint64 // the table it was seated at (set by form)
}

// bucket is one tier's waiting line in join order: before the split the one shared line (tier
// ""), after it one per tier.
type bucket struct {
	tier string
	list []*entry
	// aloneSince is when the line last fell below Min entrants (or got its first while below):
	// zero while empty or at Min or more.
	aloneSince time.Time
}

// touch keeps aloneSince true after the line changed.
func (b *bucket) touch(now time.Time, min int) {
	switch n := len(b.list); {
	case n == 0 || n >= min:
		b.aloneSince = time.Time{}
	case b.aloneSince.IsZero():
		b.aloneSince = now
	}
}

func (b *bucket) remove(en *entry) {
	b.list = slices.DeleteFunc(b.list, func(x *entry) bool { return x == en })
}

// queue is one queue's actor. Its lines live in its fields only: a restart starts it empty.
type queue struct {
	l     *Lobby
	cfg   *Config
	memo  *memo
	log   *slog.Logger
	clock Clock

	byKey   map[string]*entry
	buckets []*bucket // [shared] before the split, [rookie, open] after
	inc     uint64
	seq     uint64

	gen   uint64      // the armed timer's generation; a timerFired of another is stale
	stop  func() bool // the armed timer's stop (nil: none armed)
	armed time.Time   // the instant it is armed for
}

func newQueue(l *Lobby, qs *queueState) *queue {
	return &queue{l: l, cfg: &qs.cfg, memo: qs.memo, clock: l.o.Clock, log: l.o.Logger.With("queue", qs.cfg.ID)}
}

func (q *queue) Receive(ctx actor.Context) {
	defer q.guard(ctx)
	switch m := ctx.Message().(type) {
	case *actor.Started:
		q.start()
	case *actor.Restarting, *actor.Stopping:
		q.drop()
	case *joinQueue:
		ctx.Respond(q.join(ctx, m))
	case *leaveQueue:
		ctx.Respond(q.leave(ctx, m.key))
	case *getPosition:
		ctx.Respond(q.position(m.key))
	case *getInfo:
		ctx.Respond(q.info())
	case *timerFired:
		if m.inc != q.inc || m.gen != q.gen || q.stop == nil {
			return // stale: a timer re-armed since, or a previous incarnation's
		}
		q.stop, q.armed = nil, time.Time{}
		q.settle(ctx)
	}
}

// guard answers a request whose handling panicked with ErrQueueFault, so its caller need not
// wait out its timeout, and re-panics: the supervisor restarts the queue (its Restarting reports
// the entrants dropped). A panic while stopping is logged only.
func (q *queue) guard(ctx actor.Context) {
	r := recover()
	if r == nil {
		return
	}
	q.log.Error("lobby queue panicked", "message", fmt.Sprintf("%T", ctx.Message()), "panic", fmt.Sprint(r),
		"stack", string(debug.Stack()))
	switch ctx.Message().(type) {
	case *actor.Restarting, *actor.Stopping, *actor.Stopped:
		return
	}
	if ctx.Sender() != nil {
		ctx.Respond(ErrQueueFault)
	}
	panic(r)
}

func (q *queue) start() {
	q.memo.mu.Lock()
	q.memo.incarnation++
	q.inc = q.memo.incarnation
	split := q.memo.split
	q.memo.mu.Unlock()
	q.byKey = map[string]*entry{}
	if split {
		q.buckets = []*bucket{{tier: TierRookie}, {tier: TierOpen}}
	} else {
		q.buckets = []*bucket{{}}
	}
}

// drop stops the timer and reports every queued entrant to OnDropped: the queue is restarting
// empty or stopping.
func (q *queue) drop() {
	if q.stop != nil {
		q.stop()
		q.stop = nil
	}
	if len(q.byKey) == 0 {
		return
	}
	ens := make([]*entry, 0, len(q.byKey))
	for _, en := range q.byKey {
		ens = append(ens, en)
	}
	slices.SortFunc(ens, func(a, b *entry) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]Entrant, len(ens))
	for i, en := range ens {
		out[i] = en.e
	}
	q.byKey = map[string]*entry{}
	q.buckets = nil
	q.log.Warn("lobby queue dropped its entrants", "count", len(out))
	if q.cfg.OnDropped == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			q.log.Error("lobby OnDropped panicked", "panic", fmt.Sprint(r))
		}
	}()
	q.cfg.OnDropped(q.cfg.ID, out)
}

func (q *queue) playing(key string) bool { return q.cfg.Playing != nil && q.cfg.Playing(key) }

func (q *queue) tierOf(key string) string {
	if q.cfg.Completed == nil || q.cfg.Completed(key) >= q.cfg.RookieMatches {
		return TierOpen
	}
	return TierRookie
}

func (q *queue) bucketOf(tier string) *bucket {
	if len(q.buckets) == 1 {
		return q.buckets[0]
	}
	for _, b := range q.buckets {
		if b.tier == tier {
			return b
		}
	}
	panic("lobby: no line for tier " + tier) // tierOf gives rookie or open only
}

func (q *queue) join(ctx actor.Context, m *joinQueue) *queuedReply {
	key := m.e.Key
	if key == "" {
		return &queuedReply{err: ErrBadEntrant}
	}
	if en, ok := q.byKey[key]; ok {
		if !m.replace {
			return &queuedReply{q: q.place(en), err: ErrAlreadyQueued}
		}
		en.e = m.e
		r := q.place(en)
		r.Replaced = true
		return &queuedReply{q: r}
	}
	if q.playing(key) {
		return &queuedReply{err: ErrAlreadyPlaying}
	}
	now := q.clock.Now()
	tier := q.tierOf(key)
	if q.memo.see(key, q.cfg.SplitAt) {
		q.split(now)
	}
	q.seq++
	en := &entry{e: m.e, tier: tier, joined: now, seq: q.seq}
	q.byKey[key] = en
	b := q.bucketOf(tier)
	b.list = append(b.list, en)
	b.touch(now, q.cfg.Min)
	q.settle(ctx)
	if en.table != 0 {
		return &queuedReply{q: Queued{Tier: tier, Seated: true, Table: en.table}}
	}
	return &queuedReply{q: q.place(en)}
}

// split parts the shared line into the tiers' lines, each in join order; a line below Min is
// alone since the shared line was (or since now).
func (q *queue) split(now time.Time) {
	old := q.buckets[0]
	rookie := &bucket{tier: TierRookie, aloneSince: old.aloneSince}
	open := &bucket{tier: TierOpen, aloneSince: old.aloneSince}
	for _, en := range old.list {
		if en.tier == TierRookie {
			rookie.list = append(rookie.list, en)
		} else {
			open.list = append(open.list, en)
		}
	}
	rookie.touch(now, q.cfg.Min)
	open.touch(now, q.cfg.Min)
	q.buckets = []*bucket{rookie, open}
	q.log.Info("lobby tiers split", "rookie", len(rookie.list), "open", len(open.list))
}

func (q *queue) place(en *entry) Queued {
	b := q.bucketOf(en.tier)
	return Queued{Position: slices.Index(b.list, en) + 1, Tier: en.tier, Waiting: len(b.list)}
}

func (q *queue) leave(ctx actor.Context, key string) *leftReply {
	if en, ok := q.byKey[key]; ok {
		b := q.bucketOf(en.tier)
		b.remove(en)
		delete(q.byKey, key)
		b.touch(q.clock.Now(), q.cfg.Min)
		q.settle(ctx)
		return &leftReply{was: true}
	}
	if q.playing(key) {
		return &leftReply{err: ErrAlreadyPlaying}
	}
	return &leftReply{}
}

func (q *queue) position(key string) *queuedReply {
	if en, ok := q.byKey[key]; ok {
		return &queuedReply{q: q.place(en)}
	}
	if q.playing(key) {
		return &queuedReply{err: ErrAlreadyPlaying}
	}
	return &queuedReply{err: ErrNotQueued}
}

func (q *queue) info() *Info {
	q.memo.mu.Lock()
	in := &Info{Queue: q.cfg.ID, Split: q.memo.split, Seen: q.memo.seenN, Tables: q.memo.tables}
	q.memo.mu.Unlock()
	in.Waiting = len(q.byKey)
	in.ByTier = map[string]int{}
	for _, en := range q.byKey {
		in.ByTier[en.tier]++
	}
	return in
}

// settle opens every table due now, then arms the timer for the next instant one may be.
func (q *queue) settle(ctx actor.Context) {
	now := q.clock.Now()
	for _, b := range q.buckets {
		for q.formOne(b, now) {
		}
	}
	q.arm(ctx, now)
}

// formOne opens one table from b if one is due at now: full, the lobby timer with at least Min,
// or the longest-waiting alone for HouseAfter with a fill that reaches Min.
func (q *queue) formOne(b *bucket, now time.Time) bool {
	n := len(b.list)
	switch {
	case n == 0:
		return false
	case n >= q.cfg.TableSize:
		q.form(b, slices.Clone(b.list[:q.cfg.TableSize]), q.memo.nextTable(), nil, nil, ReasonFull, now)
		return true
	case n >= q.cfg.Min:
		if now.Before(b.list[0].joined.Add(q.cfg.Wait)) {
			return false
		}
		q.form(b, slices.Clone(b.list), q.memo.nextTable(), nil, nil, ReasonTimer, now)
		return true
	case q.canFill(n) && !now.Before(q.houseAt(b)):
		number := q.memo.nextTable()
		need := q.cfg.Min - n
		var staff *Entrant
		if q.cfg.Staff != nil {
			s := q.cfg.Staff(number)
			staff = &s
			need--
		}
		house := make([]Entrant, need)
		for i := range house {
			house[i] = q.cfg.House(number, i)
		}
		q.form(b, slices.Clone(b.list), number, staff, house, ReasonAlone, now)
		return true
	}
	return false
}

// canFill: a line of n (below Min) can be filled to Min: house entrants, or staff alone when
// one seat is missing.
func (q *queue) canFill(n int) bool {
	return q.cfg.House != nil || q.cfg.Staff != nil && n+1 >= q.cfg.Min
}

// houseAt is when b's longest-waiting entrant will have been alone HouseAfter: alone since the
// line fell below Min, or since it joined if later.
func (q *queue) houseAt(b *bucket) time.Time {
	t := b.aloneSince
	if j := b.list[0].joined; j.After(t) {
		t = j
	}
	return t.Add(q.cfg.HouseAfter)
}

// form seats ens (in join order), then staff, then house, shuffles the seats, tells OnTable and
// only then takes the entrants out of the line (a panic in between leaves them queued, to be
// reported dropped).
func (q *queue) form(b *bucket, ens []*entry, number uint64, staff *Entrant, house []Entrant, reason string, now time.Time) {
	seats := make([]Seat, 0, len(ens)+len(house)+1)
	tier := b.tier
	rookies := 0
	for _, en := range ens {
		seats = append(seats, Seat{Entrant: en.e, Tier: en.tier, Joined: en.joined})
		if en.tier == TierRookie {
			rookies++
		}
	}
	if tier == "" {
		tier = TierOpen
		if rookies == len(ens) {
			tier = TierRookie
		}
	}
	if staff != nil {
		seats = append(seats, Seat{Entrant: *staff, Staff: true})
	}
	for _, h := range house {
		seats = append(seats, Seat{Entrant: h, House: true})
	}
	shuffle(seats, q.cfg.Seed, fmt.Sprintf("lobby/seats/%s/%d/%d", q.cfg.ID, q.inc, number))
	q.cfg.OnTable(&TableFormed{Queue: q.cfg.ID, Number: number, Tier: tier, Ranked: len(house) == 0,
		Seats: seats, Reason: reason, At: now})
	for _, en := range ens {
		en.table = number
		b.remove(en)
		delete(q.byKey, en.e.Key)
	}
	b.touch(now, q.cfg.Min)
	q.log.Info("lobby table formed", "table", number, "tier", tier, "seats", len(seats), "house", len(house),
		"staff", staff != nil, "reason", reason)
}

// arm sets the one timer for the earliest instant a table may become due: a line at Min or more
// when its longest-waiting entrant has waited Wait; a line below Min that can be filled when its
// longest-waiting entrant has been alone HouseAfter. Nothing due: no timer.
func (q *queue) arm(ctx actor.Context, now time.Time) {
	var next time.Time
	for _, b := range q.buckets {
		var at time.Time
		switch n := len(b.list); {
		case n == 0:
			continue
		case n >= q.cfg.Min:
			at = b.list[0].joined.Add(q.cfg.Wait)
		case q.canFill(n):
			at = q.houseAt(b)
		default:
			continue
		}
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	if q.stop != nil && next.Equal(q.armed) {
		return
	}
	if q.stop != nil {
		q.stop()
		q.stop = nil
	}
	q.armed = next
	if next.IsZero() {
		return
	}
	q.gen++
	fired, self, root := &timerFired{inc: q.inc, gen: q.gen}, ctx.Self(), ctx.ActorSystem().Root
	q.stop = q.clock.AfterFunc(next.Sub(now), func() { root.Send(self, fired) })
}
