package breakroom

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/breakroom/cashier"
	"arena/actors/lobby"
	"arena/games"
	"arena/games/breakroom"
	"arena/games/breakroom/wire"
	"arena/games/canon"
)

// The room actor: every session, connection and match of the product, on one goroutine. Its
// state is memory only but for what the store keeps (each match's seating, written before the
// table opens, and the tables themselves): after a restart it rebuilds the running matches from
// them, and every agent comes back by joining again.

// Session statuses.
const (
	sJoining = iota + 1 // the lobby has not answered the join yet
	sQueued             // waiting in the game's queue
	sSeating            // the lobby formed its table; the match is opening
	sSeated             // at a running match
	sEnded              // its match is over (match_end sent)
	sLeft               // out of the queue (left, dropped, the queue restarted)
)

// session is one key's presence in one game, from its join to its match's end.
type session struct {
	game, key, name string
	spoilers        bool
	status          int
	conn            *conn // the current connection; nil while it has none
	m               *match
	seat            int // the house's 1-based seat
	prompt          *games.Prompt
	moved           games.Move // the open prompt's move once the seat answered it
	lastState       json.RawMessage
	lastRound       int64
	lastTurn        int64
	end             *wire.MatchEnd
	endedAt         time.Time
	left            *wire.Left
	version         uint64 // bumped whenever what a state or join poll answers changes
	waiters         []waiter

	wantAway, sentAway, presenceBusy bool
	// Coming back (breakroom-games §1.5) is the engine's rule, which counts the strikes and
	// knows who sits out: a request of the key while the seat has no open move asks the match
	// with a presence {"away":false} though the seat is not away (comeBack); the engine brings a
	// seat that sits out (or has used its last strike) back and answers unchanged otherwise.
	// askedGen is the match's line count (match.gen) when it last asked: until a new line, the
	// answer would be the same, and it is not asked again.
	comeBack   bool
	asked      bool
	askedGen   uint64
	silenceGen uint64
	// reseat is a reconnected socket whose state and your_turn wait for the seat's presence to
	// be taken (reseated), so that they carry the deadline it restores.
	reseat *conn
	conns  []string // every connection it had, forgotten with it
	// paid is the stake in escrow of a session at a paid queue (paid.go); paidGen numbers its
	// timers; polled is when its HTTP token last asked (the idle refund).
	paid    *paidStake
	paidGen uint64
	polled  time.Time
}

// waiter is a long poll parked on a session or a connection: ch has room for its answer; done
// (its request's ctx) says nobody listens any more.
type waiter struct {
	q    *request
	done <-chan struct{}
}

func (w waiter) gone() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// conn is one connection of a session: a socket's mailbox, or an HTTP token.
type conn struct {
	id      string
	via     string
	s       *session
	items   []Item
	next    uint64 // the number of the last message put in
	closed  error
	held    bool // First not written yet: messages wait in pending
	pending []wire.Outbound
	waiters []waiter
}

// seatRec is one seat of a match as its seating is stored.
type seatRec struct {
	Seat     int    `json:"seat"` // 1-based
	Key      string `json:"key"`
	Name     string `json:"name,omitempty"`
	Spoilers bool   `json:"spoilers,omitempty"`
	House    bool   `json:"house,omitempty"`
	Staff    bool   `json:"staff,omitempty"`
	// Token is the SHA-256 (hex) of the token the seat's agent held when the table formed: a
	// note sent with that token after the room forgot it (past the feedback window, a
	// restart) is still known as this seat's (Room.Feedback). Never shown; "" for a house seat.
	Token string `json:"token,omitempty"`
	// Paid is the payment hash of the seat's stake at a paid table ("" at a free one).
	Paid string `json:"paid,omitempty"`
}

// seating is a match's seating (storage: PutBreakroomTable), written before its table opens.
type seating struct {
	Table  string    `json:"table"`
	Game   string    `json:"game"`
	Tier   string    `json:"tier"`
	Ranked bool      `json:"ranked"`
	Seats  []seatRec `json:"seats"`
	At     time.Time `json:"at"`
	// Made is when the room stored the seating (the arena's clock), ordering the matches one
	// lobby instant formed (Matches). Absent from seatings stored before it was kept.
	Made time.Time `json:"made,omitzero"`
	// Stake is a paid table's stake per seat, in sats (0: free).
	Stake int64 `json:"stake,omitempty"`
}

// match is one table of the room.
type match struct {
	seating
	id      string // the match id: the table's round
	opened  bool
	ended   bool
	early   []games.Event // events that came before the table said it opened
	sess    map[int]*session
	players []wire.Player
	staff   staffSay // the bartender's talk (staff.go)
	// gen counts the lines fanned out: a coming back asked at one gen has its answer until
	// the next line (session.askedGen).
	gen uint64
	// shown counts, per seat (1-based), the lines of the log the seat may read so far: the
	// seq its event messages carry (seatSeqs).
	shown map[int]int64
}

type state struct {
	r        *Room
	sessions map[string]*session // by gameKey
	conns    map[string]*conn
	tables   map[string]*match // by table id
	byID     map[string]*match // by match id
}

func newState(r *Room) *state {
	return &state{r: r, sessions: map[string]*session{}, conns: map[string]*conn{}, tables: map[string]*match{},
		byID: map[string]*match{}}
}

// Messages to the room actor beside the façade's requests.
type (
	opJoin        struct{ j JoinRequest }
	opAbandonJoin struct{ conn string }
	opQueued      struct {
		conn string
		q    lobby.Queued
	}
	opNext struct {
		conn  string
		after uint64
		done  <-chan struct{}
	}
	opDrop    struct{ conn string }
	opResolve struct {
		conn, matchID string
		present       bool
	}
	opMoved struct {
		conn string
		move games.Move
	}
	opWaitSeat struct {
		conn    string
		version uint64
		done    <-chan struct{}
	}
	opJoinStatus struct{ conn string }
	opLive       struct{}
	opLeft       struct {
		conn string
		left wire.Left
	}
	tableFormed struct{ tf *lobby.TableFormed }
	tableOpened struct {
		table, round string
		err          error
	}
	tableEvents struct {
		table, round string
		events       []games.Event
	}
	queueDropped struct {
		game     string
		entrants []lobby.Entrant
	}
	recovered    struct{}
	presenceDone struct {
		s      *session
		away   bool
		forced bool   // a coming back (session.comeBack)
		gen    uint64 // the match's gen when it was sent
		ok     bool
		// deadline is the open prompt's new deadline when the presence moved it
		// (dilemma.PresenceReply); zero when it did not.
		deadline time.Time
	}
	presenceRetry struct{ s *session }
	silenceDue    struct {
		s   *session
		gen uint64
	}
	forget struct{ m *match }
	viewed struct {
		c     *conn
		state wire.State
	}
)

// joinStep is opJoin's answer: joined when the join is answered already (a reconnect), else the
// new connection the lobby is to place (rejoin: taking over a queued entry).
type joinStep struct {
	joined *Joined
	conn   string
	rejoin bool
}

// seatRef is opResolve's answer: where the connection's seat is and what it holds.
type seatRef struct {
	table, round, key   string
	seat                int
	prompt              *games.Prompt
	end                 *wire.MatchEnd
	endedAt             time.Time
	ended               bool
	lastState           json.RawMessage
	lastRound, lastTurn int64
	version             uint64
}

// joinStatus is opJoinStatus's answer.
type joinStatus struct {
	msg       wire.Outbound
	game, key string
	queue     string     // the lobby queue
	paid      *paidStake // a paid session's stake
	seated    bool
	version   uint64
}

func (st *state) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *request:
		v, err := st.handle(m)
		if v != nil || err != nil {
			m.answer(v, err)
		}
	case *tableFormed:
		st.formed(m.tf)
	case *tableOpened:
		st.opened(m)
	case *tableEvents:
		st.events(m)
	case *actors.DeliverPrompt:
		st.prompt(m)
	case *actors.RoundEnded:
		st.roundEnded(m)
	case *actors.TableStopped:
		st.r.log.Warn("breakroom table stopped", "table", m.Table, "status", m.Status)
	case *queueDropped:
		game := gameOf(m.game)
		for _, e := range m.entrants {
			if s := st.sessions[gameKey(game, e.Key)]; s != nil && (s.status == sQueued || s.status == sJoining) {
				if s.paid != nil {
					st.r.paidLeave(s, s.queue(), s.paid, "no_table", "the queue restarted: your stake is refunded in full; join again")
					continue
				}
				st.leave(s, wire.Left{Game: game, Reason: "no_table", Note: "the queue restarted: join again"})
			}
		}
	case *paidDue:
		st.paidDueNow(m)
	case *recovered:
		for _, s := range st.sessions {
			if s.status == sSeated && s.conn == nil {
				st.setAway(s, true)
			}
		}
	case *presenceDone:
		s := m.s
		s.presenceBusy = false
		if m.ok {
			s.sentAway = m.away
			if m.forced {
				s.comeBack, s.asked, s.askedGen = false, true, m.gen
			}
			if p := s.prompt; p != nil && !m.deadline.IsZero() {
				np := *p
				np.Deadline = m.deadline
				s.prompt = &np
			}
			st.pushPresence(s)
			if !s.presenceBusy {
				st.reseated(s)
			}
			return
		}
		st.reseated(s) // the socket hears its state now; the presence is tried again
		// The table did not answer (restarting, busy): try again in a second.
		pid, root := st.r.pid, st.r.arena.System().Root
		st.r.arena.Clock().AfterFunc(time.Second, func() { root.Send(pid, &presenceRetry{s: s}) })
	case *presenceRetry:
		st.pushPresence(m.s)
	case *silenceDue:
		if s := m.s; m.gen == s.silenceGen && s.conn != nil && s.conn.via == ViaHTTP && s.status == sSeated {
			st.setAway(s, true)
		}
	case *forget:
		st.forget(m.m)
	case *viewed:
		// The reconnected socket's state, then your_turn if a move is open, then what came
		// meanwhile ("Reconnecting": seated, then state, then your_turn).
		c := m.c
		pending := c.pending
		c.held, c.pending = false, nil
		st.put(c, m.state)
		turn := false
		for _, p := range pending {
			_, isTurn := p.(wire.YourTurn)
			turn = turn || isTurn
		}
		if p := c.s.prompt; p != nil && !turn && c.s.open(st.now()) {
			st.put(c, yourTurn(c.s.m.id, p, st.now()))
		}
		for _, p := range pending {
			st.put(c, p)
		}
	case *actor.Stopping:
		for _, c := range st.conns {
			st.close(c, ErrClosed)
		}
	}
}

func (st *state) now() time.Time { return st.r.arena.Clock().Now() }

// handle answers a façade request; a nil answer and error means the request waits (a long poll).
func (st *state) handle(q *request) (any, error) {
	switch op := q.op.(type) {
	case *opJoin:
		return st.join(op.j)
	case *opQueued:
		return st.queued(op)
	case *opAbandonJoin:
		if c := st.conns[op.conn]; c != nil {
			st.close(c, ErrGone)
			if s := c.s; s.conn == c && s.status == sJoining {
				delete(st.sessions, gameKey(s.game, s.key))
			}
		}
		return true, nil
	case *opNext:
		c := st.conns[op.conn]
		if c == nil {
			return nil, ErrGone
		}
		if c.closed != nil {
			return nil, c.closed // a closed connection's unwritten messages are not for a socket any more
		}
		st.trim(c, op.after)
		if len(c.items) > 0 {
			return append([]Item(nil), c.items...), nil
		}
		c.waiters = live(append(c.waiters, waiter{q: q, done: op.done}))
		return nil, nil
	case *opDrop:
		st.drop(op.conn)
		return true, nil
	case *opResolve:
		return st.resolve(op)
	case *opMoved:
		if c := st.conns[op.conn]; c != nil && c.s.prompt != nil && c.s.prompt.Move == op.move {
			c.s.moved = op.move
			st.bump(c.s)
		}
		return true, nil
	case *opWaitSeat:
		c, err := st.live(op.conn)
		if err != nil {
			return nil, err
		}
		if c.s.version > op.version {
			return c.s.version, nil
		}
		c.s.waiters = live(append(c.s.waiters, waiter{q: q, done: op.done}))
		return nil, nil
	case *opJoinStatus:
		c, err := st.live(op.conn)
		if err != nil {
			return nil, err
		}
		s := c.s
		st.touch(s)
		s.polled = st.now()
		js := &joinStatus{game: s.game, key: s.key, queue: s.queue(), version: s.version, seated: s.status == sSeated || s.status == sSeating}
		if s.status == sQueued || s.status == sJoining {
			js.paid = s.paid
		}
		switch s.status {
		case sSeated, sEnded:
			seated := st.seated(s)
			seated.Token = c.id
			js.msg = seated
		case sLeft:
			js.msg = *s.left
		}
		return js, nil
	case *opLive:
		return st.liveFigures(), nil
	case *opLeft:
		if c := st.conns[op.conn]; c != nil && c.s.conn == c {
			st.leave(c.s, op.left)
		}
		return true, nil
	case *opPaidLeft:
		if s := op.s; s.status == sQueued || s.status == sJoining {
			st.leave(s, op.left)
		}
		return true, nil
	}
	return nil, fmt.Errorf("breakroom: unknown request %T", q.op)
}

// liveFigures is each game's running tables (opened, not ended) and the counts made from them,
// by game id (Room.Live adds Waiting). Counts and tables come from this one pass over the room's
// matches, so they cannot disagree; every change of what it reads bumps the live watch (open,
// roundEnded).
func (st *state) liveFigures() map[string]Live {
	out := map[string]Live{}
	for _, m := range st.tables {
		if !m.opened || m.ended {
			continue
		}
		t := LiveTable{MatchID: m.id, Tier: m.Tier, Started: m.At}
		for _, rec := range m.Seats {
			if rec.House || rec.Staff {
				t.House++
			} else {
				t.Agents++
			}
		}
		l := out[m.Game]
		l.Tables++
		l.Playing += t.Agents
		l.House += t.House
		l.Running = append(l.Running, t)
		out[m.Game] = l
	}
	return out
}

// live is the connection named id if it is its session's current one; unauthorized otherwise
// (an unknown token, or one a newer join replaced).
func (st *state) live(id string) (*conn, error) {
	c := st.conns[id]
	if c == nil || c.closed != nil || c.s.conn != c {
		return nil, games.Errorf("unauthorized", "unknown or replaced connection: join again")
	}
	return c, nil
}

// live drops the waiters nobody listens to any more.
func live(ws []waiter) []waiter {
	out := ws[:0]
	for _, w := range ws {
		if !w.gone() {
			out = append(out, w)
		}
	}
	return out
}

func newID() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (st *state) newConn(s *session, via string) *conn {
	c := &conn{id: newID(), via: via, s: s, held: true}
	st.conns[c.id] = c
	s.conns = append(s.conns, c.id)
	if old := s.conn; old != nil {
		st.close(old, ErrReplaced)
	}
	s.conn = c
	return c
}

// join answers opJoin (Room.Join).
func (st *state) join(j JoinRequest) (any, error) {
	sk := gameKey(j.Game, j.Key)
	s := st.sessions[sk]
	switch {
	case s != nil && (s.status == sSeated || s.status == sSeating):
		// A reconnect: the seat, name and spoilers stay what they were.
		c := st.newConn(s, j.Via)
		st.touch(s)
		st.present(s)
		if s.status == sSeating {
			first := wire.Queued{Game: s.game, Position: 1}
			if c.via == ViaHTTP {
				first.Token = c.id
			}
			st.first(c, first)
			return &joinStep{joined: &Joined{Conn: c.id, First: first}}, nil
		}
		seated := st.seated(s)
		if c.via == ViaHTTP {
			seated.Token = c.id
		}
		st.first(c, seated)
		if c.via == ViaWebSocket {
			if s.presenceBusy {
				// The seat's presence is on its way to the match: its state and your_turn wait for
				// it (reseated), so they carry the deadline it restores and your_turn comes once.
				c.held, s.reseat = true, c
			} else {
				st.sendState(c)
			}
		}
		return &joinStep{joined: &Joined{Conn: c.id, First: seated}}, nil
	case s != nil && (s.status == sQueued || s.status == sJoining):
		c := st.newConn(s, j.Via)
		return &joinStep{conn: c.id, rejoin: true}, nil
	}
	s = &session{game: j.Game, key: j.Key, name: j.Name, spoilers: j.Spoilers, status: sJoining, paid: j.paid, polled: st.now()}
	if n, err := breakroom.CleanName(j.Name); err == nil {
		s.name = n
	} else {
		s.name = ""
	}
	st.sessions[sk] = s
	c := st.newConn(s, j.Via)
	return &joinStep{conn: c.id}, nil
}

// queued answers opQueued: the lobby placed the connection's entry.
func (st *state) queued(op *opQueued) (any, error) {
	c := st.conns[op.conn]
	if c == nil || c.closed != nil {
		return nil, games.Errorf("unauthorized", "a newer join of this key took this one's place")
	}
	s := c.s
	if s.status == sJoining {
		s.status = sQueued
		st.paidTimers(s)
	}
	first := st.r.queuedMsg(s.game, s.paid, op.q)
	if c.via == ViaHTTP {
		first.Token = c.id
	}
	st.first(c, first)
	st.bump(s)
	return &Joined{Conn: c.id, First: first}, nil
}

// first puts a connection's first message in its mailbox, then what waited for it.
func (st *state) first(c *conn, m wire.Outbound) {
	c.held = false
	st.put(c, m)
	for _, p := range c.pending {
		st.put(c, p)
	}
	c.pending = nil
}

// put adds m to a socket's mailbox and wakes its writer. HTTP connections have no mailbox: they
// read state and join polls.
func (st *state) put(c *conn, m wire.Outbound) {
	if c == nil || c.via != ViaWebSocket || c.closed != nil {
		return
	}
	if c.held {
		c.pending = append(c.pending, m)
		return
	}
	c.next++
	c.items = append(c.items, Item{Seq: c.next, Msg: m})
	if len(c.items) > MailboxCap {
		st.r.log.Info("breakroom connection too slow: dropped", "game", c.s.game, "key", c.s.key)
		st.drop(c.id)
		c.closed = ErrSlow
		return
	}
	ws := c.waiters
	c.waiters = nil
	for _, w := range ws {
		w.q.answer(append([]Item(nil), c.items...), nil)
	}
}

// trim forgets the messages a writer has written.
func (st *state) trim(c *conn, after uint64) {
	i := 0
	for i < len(c.items) && c.items[i].Seq <= after {
		i++
	}
	c.items = c.items[i:]
}

// close ends a connection: its waiters hear err.
func (st *state) close(c *conn, err error) {
	if c.closed != nil {
		return
	}
	c.closed = err
	for _, w := range c.waiters {
		w.q.answer(nil, err)
	}
	c.waiters = nil
	if c.s.conn == c {
		for _, w := range c.s.waiters {
			w.q.answer(c.s.version, nil)
		}
		c.s.waiters = nil
	}
}

// bump says a session's state changed: its parked polls look again.
func (st *state) bump(s *session) {
	s.version++
	ws := s.waiters
	s.waiters = nil
	for _, w := range ws {
		w.q.answer(s.version, nil)
	}
}

// drop is a connection gone (Room.Drop, a slow reader).
func (st *state) drop(id string) {
	c := st.conns[id]
	if c == nil || c.closed != nil {
		return
	}
	st.close(c, ErrGone)
	s := c.s
	if s.conn != c {
		return
	}
	s.conn = nil
	switch s.status {
	case sQueued, sJoining:
		queue, key, paid, r := s.queue(), s.key, s.paid, st.r
		l := st.r.lobby
		go func() {
			ctx, cancel := contextFor(r)
			defer cancel()
			// A paid stake comes back once the lobby entry is gone (the queue left).
			if _, err := l.Leave(ctx, queue, key); err == nil {
				_, _ = r.refundStake(ctx, paid, "left")
			}
		}()
		st.leave(s, wire.Left{Game: s.game, Reason: "left", Note: "the connection closed"})
	case sSeated, sSeating:
		st.setAway(s, true)
	}
}

// leave takes a session out of its queue.
func (st *state) leave(s *session, l wire.Left) {
	s.status = sLeft
	s.left = &l
	st.put(s.conn, l)
	st.bump(s)
}

// resolve answers opResolve: the connection's seat at matchID.
func (st *state) resolve(op *opResolve) (any, error) {
	c, err := st.live(op.conn)
	if err != nil {
		return nil, err
	}
	s := c.s
	switch {
	case s.m == nil || s.status == sSeating:
		return nil, games.Errorf("not_seated", "this connection is not seated at a match yet")
	case s.m.id != op.matchID:
		return nil, games.Errorf("unknown_match", "match %q is not this connection's match (%s)", op.matchID, s.m.id)
	}
	st.touch(s)
	if op.present && s.status == sSeated {
		st.present(s)
	}
	ref := &seatRef{table: s.m.Table, round: s.m.id, key: s.key, seat: s.seat, end: s.end, endedAt: s.endedAt,
		ended: s.m.ended, lastState: s.lastState, lastRound: s.lastRound, lastTurn: s.lastTurn, version: s.version}
	if s.open(st.now()) {
		p := *s.prompt
		ref.prompt = &p
	}
	return ref, nil
}

// open says the session's prompt is open: not answered, its deadline not passed.
func (s *session) open(now time.Time) bool {
	return s.prompt != nil && s.moved != s.prompt.Move && now.Before(s.prompt.Deadline) && s.status == sSeated
}

// touch counts a request of an HTTP agent: it is not silent, and is away again only after
// HTTPSilence without one.
func (st *state) touch(s *session) {
	c := s.conn
	if c == nil || c.via != ViaHTTP || (s.status != sSeated && s.status != sSeating) {
		return
	}
	s.silenceGen++
	gen, pid, root := s.silenceGen, st.r.pid, st.r.arena.System().Root
	st.r.opts.Clock.AfterFunc(HTTPSilence, func() { root.Send(pid, &silenceDue{s: s, gen: gen}) })
}

// present is a request of the session's key for its match (a re-join, a state, a move attempt):
// its seat is back; and with no open move, the request asks the match whether the seat sits
// out (or has just used its last strike) and so comes back, though its connection never went
// away (breakroom-games §1.5: the engine's rule), unless the match answered that since its last
// line.
func (st *state) present(s *session) {
	if !s.open(st.now()) && !(s.asked && s.m != nil && s.askedGen == s.m.gen) {
		s.comeBack = true
	}
	st.setAway(s, false)
}

// setAway sets what the session's seat should be (away or back) and tells the match.
func (st *state) setAway(s *session, away bool) {
	s.wantAway = away
	st.pushPresence(s)
}

// pushPresence submits the session's wanted presence to its match when it differs from the one
// last taken, one at a time, so the match hears them in order.
//
// A coming back (comeBack) is sent though the presence is the one last taken: the match answers
// it unchanged when the seat was not out after all, which changes nothing and is not logged.
func (st *state) pushPresence(s *session) {
	forced := s.comeBack && !s.wantAway
	if s.presenceBusy || (s.wantAway == s.sentAway && !forced) || s.m == nil || !s.m.opened || s.m.ended {
		return
	}
	s.presenceBusy = true
	away, a, pid, gen := s.wantAway, st.r.arena, st.r.pid, s.m.gen
	in := actors.SubmitAnswer{Table: s.m.Table, Round: s.m.id, At: st.now(),
		Input: games.Input{Seat: s.seat, Kind: KindPresence, Body: json.RawMessage(fmt.Sprintf(`{"away":%t}`, away))}}
	go func() {
		ctx, cancel := contextFor(st.r)
		defer cancel()
		rep, err := a.Submit(ctx, in)
		ok := err == nil && (rep.Code == "" || rep.Code == CodeUnchanged)
		if err == nil && !ok {
			// The match refused it for good (over, not seated): it is as good as taken.
			ok = rep.Code != "unavailable"
		}
		done := &presenceDone{s: s, away: away, forced: forced, ok: ok, gen: gen}
		if err == nil && rep.Code == "" && len(rep.Reply) > 0 {
			var pr breakroom.PresenceReply
			if json.Unmarshal(rep.Reply, &pr) == nil {
				done.deadline = pr.Deadline
			}
		}
		a.System().Root.Send(pid, done)
	}()
}

// tokenHash is a token as a stored seating keeps it (seatRec.Token): SHA-256, hex.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// DealKeyOptions is opts (a JSON object, or none) with member set to a fresh secret of 32 bytes
// from crypto/rand, 64 lowercase hex digits (Game.DealKey): each table's own, drawn once, kept
// in its setup. `arena bench` opens its tables of such a game with it too.
func DealKeyOptions(opts json.RawMessage, member string) json.RawMessage {
	var key [32]byte
	_, _ = rand.Read(key[:]) // crypto/rand.Read does not return an error (it crashes instead)
	m := map[string]json.RawMessage{}
	if len(opts) > 0 {
		_ = json.Unmarshal(opts, &m) // a game's options are an object; the game refuses anything else
	}
	m[member], _ = json.Marshal(hex.EncodeToString(key[:]))
	b, _ := json.Marshal(m)
	return b
}

// formed answers a table the lobby formed: the seating is stored, then the table opens.
func (st *state) formed(tf *lobby.TableFormed) {
	game := gameOf(tf.Queue)
	g := st.r.games[game]
	// The match id is the protocol's "m_…": 16 random hex digits (64 bits: not guessable from
	// another match's), which the table's id shares; matches stored with the house's "T-<n>"
	// keep it.
	tag := newID()[:16]
	m := &match{seating: seating{Table: "br-" + game + "-" + tag, Game: game, Tier: tf.Tier, Ranked: tf.Ranked,
		At: tf.At, Made: st.now()}, sess: map[int]*session{}}
	var locks []cashier.Seat
	for i, ls := range tf.Seats {
		rec := seatRec{Seat: i + 1, Key: ls.Key, House: ls.House, Staff: ls.Staff}
		if ls.Staff {
			rec.Name = staffName
		}
		if s := st.sessions[gameKey(game, ls.Key)]; s != nil && !ls.House && !ls.Staff &&
			(s.status == sQueued || s.status == sJoining) {
			rec.Name, rec.Spoilers = s.name, s.spoilers
			if s.paid != nil {
				rec.Paid = s.paid.hash
				m.Stake, m.Tier = s.paid.stake, TierPaid
				locks = append(locks, cashier.Seat{Seat: i + 1, PaymentHash: s.paid.hash})
			}
			if s.conn != nil {
				rec.Token = tokenHash(s.conn.id)
			}
			s.status, s.m, s.seat = sSeating, m, i+1
			m.sess[i+1] = s
			st.bump(s)
		}
		m.Seats = append(m.Seats, rec)
	}
	// A house bot is named by its display name (its table name), so match_start, the ranking and
	// seated name it as the table does, not "" (the house's choice of name: counted for nothing).
	for i, n := range breakroom.DisplayNames(identities(m.Seats)) {
		if m.Seats[i].House {
			m.Seats[i].Name = n
		}
	}
	st.tables[m.Table] = m
	spec := actors.TableSpec{ID: m.Table, Game: g.ID, Format: g.Format, Kind: m.Tier, Pace: g.Pace, Options: g.Options,
		Round: MatchIDPrefix + tag}
	if g.DealKey != "" {
		spec.Options = DealKeyOptions(g.Options, g.DealKey)
	}
	if st.r.opts.Seed != nil {
		spec.Seed = st.r.opts.Seed(m.Table)
	}
	pause := max(st.r.opts.HousePause, 0)
	for _, rec := range m.Seats {
		seat := actors.SeatSpec{Seat: games.Seat{Seat: rec.Seat, Agent: rec.Key, Name: rec.Name}, Kind: "agent",
			Channel: ChannelSeat, Actor: ActorName}
		switch {
		case rec.House:
			seat.Kind, seat.Channel, seat.Actor, seat.Pause = "house", actors.ChannelHouse, "", pause
			seat.Seat.Options = json.RawMessage(`{"house":true}`)
		case rec.Staff:
			// The room plays the bartender (staff.go): it talks as well as plays.
			seat.Kind = "staff"
			seat.Seat.Options = json.RawMessage(`{"staff":true}`)
		}
		spec.Seats = append(spec.Seats, seat)
	}
	spec.Kind = m.Tier
	rec, _ := json.Marshal(m.seating)
	a, pid, cash := st.r.arena, st.r.pid, st.r.cash
	go func() {
		ctx, cancel := contextFor(st.r)
		defer cancel()
		var err error
		if len(locks) > 0 {
			// A paid table's stakes are in its pot (and their invoices settled) before its
			// seating is stored and anyone is seated.
			err = cash.Lock(ctx, spec.Round, game, locks)
		}
		// Write before you speak: the seating is durable before the table (and its prompts) exist.
		if err == nil {
			err = a.Store().PutBreakroomTable(spec.ID, rec)
		}
		round := ""
		if err == nil {
			round, err = a.OpenTable(ctx, spec)
		}
		a.System().Root.Send(pid, &tableOpened{table: spec.ID, round: round, err: err})
	}()
}

// opened answers tableOpened: the seats are told where they sit.
func (st *state) opened(o *tableOpened) {
	m := st.tables[o.table]
	if m == nil {
		return
	}
	if o.err != nil {
		st.r.log.Error("breakroom table did not open", "table", o.table, "err", o.err)
		for _, s := range m.sess {
			st.r.setPlaying(s.game, s.key, false)
			if s.m == m {
				s.m = nil
				st.put(s.conn, wire.ErrorOf("busy", "the table could not open; join again", ""))
				if s.paid != nil {
					s.status = sQueued
					st.r.paidLeave(s, s.queue(), s.paid, "no_table", "the table could not open: your stake is refunded in full; join again")
					continue
				}
				st.leave(s, wire.Left{Game: s.game, Reason: "no_table", Note: "the table could not open: join again"})
			}
		}
		delete(st.tables, o.table)
		return
	}
	st.open(m, o.round)
	// seated, then the lines logged meanwhile (match_start …), then the open move.
	for _, s := range m.sess {
		if s.m != m {
			continue
		}
		if s.conn == nil {
			st.setAway(s, true)
		}
		st.put(s.conn, st.seated(s))
	}
	early := m.early
	m.early = nil
	st.fanOut(m, early)
	for _, s := range m.sess {
		if s.m != m {
			continue
		}
		if s.open(st.now()) {
			st.put(s.conn, yourTurn(m.id, s.prompt, st.now()))
		}
		st.bump(s)
	}
}

// open makes a match's table live under its match id.
func (st *state) open(m *match, round string) {
	m.id, m.opened = round, true
	st.byID[round] = m
	st.r.live.bump() // the table is in the live figures from now (liveFigures)
	for _, s := range m.sess {
		if s.m == m && s.status == sSeating {
			s.status = sSeated
		}
	}
	m.players = st.players(m)
}

// identities are the seats as breakroom.DisplayNames sees them: a house bot's name is the
// house's (its table name, set at formed), so it counts as none and the bot is its table name.
func identities(seats []seatRec) []breakroom.Identity {
	ids := make([]breakroom.Identity, len(seats))
	for i, s := range seats {
		ids[i] = breakroom.Identity{Key: s.Key, Name: s.Name}
		if s.House {
			ids[i].Name = ""
		}
	}
	return ids
}

// players is the seated message's players: display names, reputations, handles, house and staff
// marks.
func (st *state) players(m *match) []wire.Player {
	names := breakroom.DisplayNames(identities(m.Seats))
	out := make([]wire.Player, len(m.Seats))
	for i, s := range m.Seats {
		p := wire.Player{Seat: i, Pubkey: s.Key, Name: s.Name, DisplayName: names[i], House: s.House, Staff: s.Staff}
		if !s.House && !s.Staff {
			p.Reputation, _ = st.r.Reputation(s.Key)
			p.Handle = st.r.Handle(s.Key)
		}
		out[i] = p
	}
	return out
}

// seated is a session's seated message.
func (st *state) seated(s *session) wire.Seated {
	m := s.m
	seated := wire.Seated{MatchID: m.id, Seat: s.seat - 1, TableSize: len(m.Seats), RulesVersion: st.r.games[m.Game].RulesVersion,
		RulesURL: st.r.opts.PublicURL + "/rules/" + m.Game, Tier: m.Tier, Players: m.players}
	if m.Stake > 0 && st.r.cash != nil {
		seated.StakeSats, seated.PotSats, seated.RakeBps = m.Stake, m.Stake*int64(len(m.Seats)), st.r.cash.RakeBps()
	}
	return seated
}

// reseated writes the state (and your_turn) of a reconnected socket that waited for its seat's
// presence to be taken (join): what came meanwhile follows, less a your_turn for the move the
// state's your_turn opens.
func (st *state) reseated(s *session) {
	c := s.reseat
	s.reseat = nil
	if c == nil || c != s.conn || c.closed != nil {
		return
	}
	pending := c.pending
	c.held, c.pending = false, nil
	var rest []wire.Outbound
	for _, p := range pending {
		if y, ok := p.(wire.YourTurn); ok && s.prompt != nil && s.open(st.now()) {
			if r, t := roundTurn(s.prompt.Move); y.Round == r && y.Turn == t {
				continue
			}
		}
		rest = append(rest, p)
	}
	st.sendState(c)
	for _, p := range rest {
		st.put(c, p)
	}
}

// sendState puts a reconnected socket's state message (and your_turn after it) in its mailbox:
// the table is asked for the seat's view off the actor, and the answer comes back as viewed.
func (st *state) sendState(c *conn) {
	s := c.s
	now := st.now()
	if s.open(now) {
		ys, _ := yourTurnState(s.m.id, s.prompt, now)
		st.put(c, ys)
		st.put(c, yourTurn(s.m.id, s.prompt, now))
		return
	}
	if s.m.ended && s.end != nil {
		st.put(c, wire.State{MatchID: s.m.id, Status: wire.StatusEnded, Round: s.lastRound, Turn: s.lastTurn, VisibleState: s.lastState, MatchEnd: s.end})
		return
	}
	c.held = true // until the view comes back (viewed): nothing may come before the state
	a, pid, table, seat := st.r.arena, st.r.pid, s.m.Table, s.seat
	ws := wire.State{MatchID: s.m.id, Status: wire.StatusWaiting, Round: s.lastRound, Turn: s.lastTurn, VisibleState: s.lastState,
		LegalActions: json.RawMessage("[]")}
	go func() {
		ctx, cancel := contextFor(st.r)
		defer cancel()
		if v, err := a.View(ctx, table, seat); err == nil && len(v.State) > 0 {
			ws.VisibleState = v.State
		}
		a.System().Root.Send(pid, &viewed{c: c, state: ws})
	}()
}

// prompt takes a move the table opened for an agent's seat.
func (st *state) prompt(d *actors.DeliverPrompt) {
	m := st.tables[d.Table]
	if m == nil {
		return
	}
	if i := d.Seat - 1; i >= 0 && i < len(m.Seats) && m.Seats[i].Staff {
		st.staffMove(m, d)
		return
	}
	s := m.sess[d.Seat]
	if s == nil || s.m != m {
		return
	}
	p := d.Prompt
	// The same move with the same deadline again (a presence's redelivery the room already
	// took from its reply, a table's restart): the seat has heard it.
	dup := s.prompt != nil && s.prompt.Move == p.Move && s.prompt.Deadline.Equal(p.Deadline) && s.moved != p.Move
	s.prompt = &p
	s.lastState = p.State.Bytes()
	s.lastRound, s.lastTurn = roundTurn(p.Move)
	if m.opened && s.open(st.now()) && !dup {
		st.put(s.conn, yourTurn(m.id, &p, st.now()))
	}
	st.bump(s)
}

// events fans a table's committed lines out to its seats.
func (st *state) events(e *tableEvents) {
	m := st.tables[e.table]
	if m == nil {
		return
	}
	if !m.opened {
		m.early = append(m.early, e.events...)
		return
	}
	st.fanOut(m, e.events)
}

// fanOut hands each seat the lines it may read as event messages. A line's seq there counts
// the lines that seat may read (0, 1, 2, …), as /r/{id}/live counts the public ones: the log's
// own seq would tell a seat how many lines it may not read were written between two it reads
// (a seer's result, a wolf's pack talk, a kill), so nothing sealed shows in the numbering.
func (st *state) fanOut(m *match, evs []games.Event) {
	m.gen += uint64(len(evs))
	if m.shown == nil {
		m.shown = map[int]int64{}
	}
	for _, ev := range evs {
		if ev.Visibility == games.Public {
			st.heard(m, ev)
		}
		for seat := 1; seat <= len(m.Seats); seat++ {
			if !ev.Visibility.Shows(seat, false) {
				continue
			}
			n := m.shown[seat]
			m.shown[seat] = n + 1
			s := m.sess[seat]
			if s == nil || s.m != m || s.conn == nil {
				continue
			}
			seen := ev
			seen.Seq = n + 1 // breakroom.Line writes Seq − 1
			line, err := breakroom.Line(seen)
			if err != nil {
				st.r.log.Error("breakroom log line", "table", m.Table, "seq", ev.Seq, "err", err)
				continue
			}
			st.put(s.conn, wire.Event{MatchID: m.id, Event: line})
		}
	}
}

// seatSeqs counts, per seat 1..seats, the lines of evs the seat may read before the end
// (match.shown after evs were fanned out).
func seatSeqs(evs []games.Event, seats int) map[int]int64 {
	shown := make(map[int]int64, seats)
	for _, ev := range evs {
		for seat := 1; seat <= seats; seat++ {
			if ev.Visibility.Shows(seat, false) {
				shown[seat]++
			}
		}
	}
	return shown
}

// roundEnded closes a match: reputations counted (ranked matches played out), then each seat's
// match_end.
func (st *state) roundEnded(re *actors.RoundEnded) {
	m := st.tables[re.Table]
	if m == nil {
		return
	}
	// Each seat's RoundEnded brings its final view: an ended state (HTTP, a reconnect) shows the
	// match over, not the last turn's stale "playing" view.
	if s := m.sess[re.Seat]; s != nil && s.m == m && len(re.View) > 0 {
		s.lastState = re.View
		st.bump(s)
	}
	if m.ended {
		return
	}
	m.ended = true
	st.r.live.bump() // the table has left the live figures (liveFigures)
	now := st.now()
	end, err := st.r.endOf(m, re.Result)
	if err != nil {
		st.r.log.Error("breakroom match end", "table", m.Table, "err", err)
	}
	if m.Stake > 0 && st.r.cash != nil {
		// Durable before announced: the pot is settled (payouts pending) before match_end says
		// so; the payouts go out in the background.
		ctx, cancel := contextFor(st.r)
		set, err := st.r.cash.Settle(ctx, m.id, re.Result)
		cancel()
		if err != nil {
			st.r.log.Error("breakroom paid match settlement", "match", m.id, "err", err)
		} else {
			ws := &wire.Settlement{PotSats: set.PotSats, RakeSats: set.RakeSats, Payouts: []wire.Payout{}}
			for _, p := range set.Payouts {
				ws.Payouts = append(ws.Payouts, wire.Payout{Seat: p.Seat - 1, Sats: p.Sats})
			}
			end.settlement = ws
		}
	}
	for _, s := range m.sess {
		if s.m != m {
			continue
		}
		st.r.setPlaying(s.game, s.key, false)
		me := st.r.matchEnd(m, s, end, now)
		s.end, s.endedAt, s.status, s.prompt = &me, now, sEnded, nil
		st.put(s.conn, me)
		st.bump(s)
	}
	// The match and its sessions are kept for feedback (24 h), then forgotten.
	pid, root := st.r.pid, st.r.arena.System().Root
	st.r.opts.Clock.AfterFunc(FeedbackOpen+time.Minute, func() { root.Send(pid, &forget{m: m}) })
}

// forget drops an ended match, its sessions (unless a new join replaced them) and their
// connections.
func (st *state) forget(m *match) {
	delete(st.tables, m.Table)
	delete(st.byID, m.id)
	for _, s := range m.sess {
		if s.m != m {
			continue
		}
		for _, id := range s.conns {
			if c := st.conns[id]; c != nil {
				st.close(c, ErrGone)
				delete(st.conns, id)
			}
		}
		if sk := gameKey(s.game, s.key); st.sessions[sk] == s {
			delete(st.sessions, sk)
		}
	}
}

// closeLost appends match_abandoned {reason "server_restart", ranking [], seed null} to the log
// of a match whose table cannot be restored (round: its round; "" when the table's record cannot
// be read, found then from the store's rounds), unless its log has ended already. Its agents are
// not playing it any more: a re-join queues for a new match. The standings cannot be computed
// without the match, so ranking is empty; the seed is lost with the record (seed null), so the
// log cannot be re-simulated (arena verify-log says so).
func (st *state) closeLost(table, round string, why error) {
	store := st.r.arena.Store()
	rounds := []string{round}
	if round == "" {
		var err error
		if rounds, err = store.TableRounds(table); err != nil {
			st.r.log.Error("breakroom: a lost match's rounds", "table", table, "err", err)
			return
		}
	}
	for _, rd := range rounds {
		evs, err := store.Events(rd)
		if err != nil || len(evs) == 0 {
			continue
		}
		last := evs[len(evs)-1]
		if ended(evs) {
			continue
		}
		payload, _ := canon.Marshal(map[string]any{"match_id": rd, "reason": ReasonRestart, "ranking": []any{}, "seed": nil})
		ev := games.Event{Seq: last.Seq + 1, Round: rd, Turn: last.Turn, At: st.now().UTC().Format("2006-01-02T15:04:05.000Z"),
			Type: "match_abandoned", Visibility: games.Public, Payload: payload}
		if err := store.CommitInputs(table, nil, nil, []games.Event{ev}); err != nil {
			st.r.log.Error("breakroom: close a lost match's log", "table", table, "round", rd, "err", err)
			continue
		}
		st.r.log.Warn("breakroom match could not be restored: abandoned", "table", table, "round", rd, "why", fmt.Sprint(why))
	}
}

// ended says a match's log has its end line (match_end, match_abandoned).
func ended(evs []games.Event) bool {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == "match_end" || evs[i].Type == "match_abandoned" {
			return true
		}
	}
	return false
}

// recoverTables rebuilds the room's running matches from the store (Product.BeforeRecover, before
// the actor runs): every seating whose table is live is a match whose agents are away until they
// join again.
func (st *state) recoverTables() error {
	a := st.r.arena
	return a.Store().BreakroomTables(func(id string, raw []byte) error {
		var se seating
		if err := json.Unmarshal(raw, &se); err != nil {
			st.r.log.Error("breakroom seating unreadable", "table", id, "err", err)
			return nil
		}
		t, err := a.Stored(id)
		switch {
		case errors.Is(err, actors.ErrNoTable):
			return nil
		case err != nil || t.Status == actors.StatusFailed:
			// The match cannot be restored (its record is damaged, or its table was parked as
			// failed): its log ends now (protocol "Match log": after a crash).
			st.closeLost(id, t.Round, err)
			return nil
		case t.Status != actors.StatusLive:
			return nil
		}
		if _, ok := st.r.games[se.Game]; !ok {
			return nil
		}
		m := &match{seating: se, sess: map[int]*session{}}
		if evs, err := a.Store().Events(t.Round); err == nil {
			m.shown = seatSeqs(evs, len(se.Seats))
		}
		st.tables[id] = m
		for _, rec := range se.Seats {
			if rec.House || rec.Staff {
				continue
			}
			s := &session{game: se.Game, key: rec.Key, name: rec.Name, spoilers: rec.Spoilers, status: sSeating, m: m, seat: rec.Seat}
			st.sessions[gameKey(se.Game, rec.Key)] = s
			m.sess[rec.Seat] = s
			st.r.setPlaying(se.Game, rec.Key, true)
		}
		st.open(m, t.Round)
		return nil
	})
}
