package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/breakroom/cashier"
	"arena/actors/lobby"
	"arena/games"
	"arena/games/breakroom/wire"
)

// Names and figures of the product (breakroom-protocol-v0.md).
const (
	// ChannelSeat is the channel of an agent's seat (actors.SeatSpec.Channel): the room actor,
	// which holds the seat's connection and mailbox.
	ChannelSeat = "breakroom"
	// ActorName is the room actor's name at the actor system's root.
	ActorName = "breakroom"
	// KindPresence is the out-of-turn input a Break Room engine honours for a seat's connection
	// state: body {"away": true} when its connection is gone, {"away": false} when it is back
	// (breakroom-games.md §1.5; the Dilemma's dilemma.KindPresence).
	KindPresence = "presence"
	// CodeUnchanged is an engine's refusal of a presence that changes nothing.
	CodeUnchanged = "unchanged"
	// HTTPSilence is how long a seated HTTP agent may go without a request before it is away
	// ("HTTP fallback": 90 s).
	HTTPSilence = 90 * time.Second
	// MaxWait caps a long poll ("wait is capped at 25 000 ms").
	MaxWait = 25 * time.Second
	// DefaultHousePause is the house bots' "short pause per move".
	DefaultHousePause = time.Second
	// FeedbackOpen is how long after match_end a player may send feedback ("Feedback": 24 h).
	FeedbackOpen = 24 * time.Hour
	// MailboxCap is how many messages a socket's mailbox holds unwritten before its connection is
	// dropped as a slow reader (ErrSlow); the seat is away until it comes back.
	MailboxCap = 512
	// MatchIDPrefix starts every match id the room gives ("m_" and 16 hex digits, protocol
	// "Match log"): the match's round at the house, so its log lines, messages and URLs
	// (/r/{id}.jsonl) name it so. Matches stored with the house's "T-<n>" keep theirs.
	MatchIDPrefix = "m_"
	// ReasonShutdown is match_abandoned's reason when an operator stops a match (ops stop:
	// the table abandons it, standings so far and the seed revealed; protocol "Match log").
	ReasonShutdown = "server_shutdown"
	// ReasonRestart is match_abandoned's reason, with seed null, for a match whose stored record
	// could not be restored at boot (protocol "Match log": "after a crash").
	ReasonRestart = "server_restart"
	// staffKey is the bartender's key: the house's own player, at every table it sits at.
	staffKey  = "house:bartender"
	staffName = "Bartender"
)

// Transports a connection comes through (JoinRequest.Via).
const (
	ViaWebSocket = "ws"
	ViaHTTP      = "http"
)

// Why a connection's Next ends for good.
var (
	// ErrReplaced: a newer join of the same key and game took the connection's place.
	ErrReplaced = errors.New("breakroom: another connection with the same key took this one's place")
	// ErrGone: the connection is closed (dropped, left the queue, its match long over) or was
	// never known.
	ErrGone = errors.New("breakroom: no such connection")
	// ErrSlow: the connection let MailboxCap messages pile up unwritten.
	ErrSlow = errors.New("breakroom: the connection is too slow to keep up")
	// ErrClosed: the server is shutting down.
	ErrClosed = errors.New("breakroom: shutting down")
)

// Game is one game Break Room plays: its engine's id in the Bracket, what /v0/games and seated
// say of it, and how its lobby opens tables (breakroom-games.md §1.1).
type Game struct {
	ID           string // the engine's games.Manifest ID and the protocol's game id ("dilemma")
	Name         string // "Dilemma"
	RulesVersion string // "dilemma-0.1"
	Summary      string // the /v0/games line (informative only)
	MaxPlayers   int    // the largest table the rules define (/v0/games max_players)
	Format       string // the engine's format ("" for its first)
	TableSize    int    // a table opens when this many agents are queued
	Min          int    // the fewest a table opens with; house bots fill up to it
	// Rules is the game's rules text (markdown): the bartender answers table talk from it.
	Rules string
	// Options and Pace are every match's Setup.Options and Setup.Pace (nil and zero: the
	// rules' defaults).
	Options json.RawMessage
	Pace    games.Pace
	// DealKey, when set, is the Setup.Options member each table's match gets a fresh secret of
	// 32 bytes in (64 lowercase hex digits), drawn from a CSPRNG when the table opens and kept
	// in the table's setup only, never in the match log: a deal the revealed seed must not
	// expose (Inference's deal_key, breakroom-games §2.2, J8; breakroom.GameInfo.DealKey).
	DealKey string
}

// Options wire a Room. Games is required.
type Options struct {
	Games []Game
	// PublicURL is the site's public origin, without a trailing slash ("https://breakroom.lol"):
	// rules_url, replay_url and nostr_post's links are under it.
	PublicURL string
	// HousePause is the house bots' pause per move (zero: DefaultHousePause; negative: none).
	HousePause time.Duration
	// LobbyWait and HouseAfter are the lobby timer (30 s) and the house fill (60 s alone); zero:
	// the lobby's defaults.
	LobbyWait, HouseAfter time.Duration
	// Clock runs the room's own timers (nil: the arena's): the lobby timer, the house fill and
	// the HTTP silence. Tests hold them on a fake clock while the tables play on the wall clock.
	Clock actors.Clock
	// LobbySeed, when set, keys every queue's seat shuffle (tests); nil draws one per queue.
	LobbySeed *[32]byte
	// Seed, when set, gives every match its seed (tests that compare runs); nil draws one.
	Seed func(table string) []byte
	// Payments opens the paid tables (paid.go): the cashier's options, its Ledger left nil (the
	// runtime's is used). Nil: a paid join is payments_disabled.
	Payments *cashier.Options
	// NoTableAfter and PaidIdle are the paid queue's refund clocks (zero: DefaultNoTableAfter,
	// DefaultPaidIdle).
	NoTableAfter, PaidIdle time.Duration
	Logger                 *slog.Logger // nil: the arena's
}

// Room is the Break Room product. Make it with New, put Product() in actors.Options.Products;
// its methods work once the runtime has started (Ready).
type Room struct {
	opts  Options
	games map[string]Game
	ids   []string

	arena *actors.Arena
	lobby *lobby.Lobby
	pid   *actor.PID
	log   *slog.Logger
	ready chan struct{}

	mu      sync.Mutex
	playing map[string]bool // gameKey: a key in an active match of a game (the lobby's Playing)
	nPlay   map[string]int  // by game: how many keys playing holds (Counts, on every join)
	// paidQueues are the paid queues opened in the lobby ("<game>.<stake>").
	paidQueues map[string]bool
	cash       *cashier.Cashier // the paid tables' money (nil: none); made by start
	bootRow    uint64           // the ledger's last row at start (cashier.Resume)

	over overCache // the public reads' records of matches that are over (reads.go)

	follow followHub // the spectators of running matches (follow.go)
	live   liveWatch // says when the live figures change (livewatch.go)
}

// New makes the product; it runs once the runtime starts it (Product().BeforeRecover).
func New(opts Options) (*Room, error) {
	r := &Room{opts: opts, games: map[string]Game{}, playing: map[string]bool{}, nPlay: map[string]int{}, ready: make(chan struct{}),
		paidQueues: map[string]bool{}}
	for _, g := range opts.Games {
		switch {
		case g.ID == "" || r.games[g.ID].ID != "":
			return nil, fmt.Errorf("breakroom: game %q: an id of its own is required", g.ID)
		case g.Min < 1 || g.TableSize < g.Min:
			return nil, fmt.Errorf("breakroom: game %s: table size %d, minimum %d", g.ID, g.TableSize, g.Min)
		}
		r.games[g.ID] = g
		r.ids = append(r.ids, g.ID)
	}
	if len(r.ids) == 0 {
		return nil, errors.New("breakroom: no game")
	}
	slices.Sort(r.ids)
	r.opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	if r.opts.HousePause == 0 {
		r.opts.HousePause = DefaultHousePause
	}
	return r, nil
}

// Product is the room as the runtime hosts it: its games' tables, its seats' channel, their
// events, its actors spawned before boot recovery (so recovered tables' prompts find them), and
// an ops stop that abandons the match (ReasonShutdown).
func (r *Room) Product() actors.Product {
	return actors.Product{Name: "breakroom", Games: slices.Clone(r.ids),
		Channels: map[string]string{ChannelSeat: ActorName}, OnEvents: r.onEvents, BeforeRecover: r.start,
		AbandonOnStop: ReasonShutdown}
}

// Games are the ids of the games the room plays, sorted.
func (r *Room) Games() []string { return slices.Clone(r.ids) }

// Ready is closed once the room runs (its actor, its lobby, its recovered matches).
func (r *Room) Ready() <-chan struct{} { return r.ready }

func gameKey(game, key string) string { return game + "\x00" + key }

// isPlaying is the lobby's Playing for game: the key has an active match of it.
func (r *Room) isPlaying(game string) func(string) bool {
	return func(key string) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.playing[gameKey(game, key)]
	}
}

func (r *Room) setPlaying(game, key string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := gameKey(game, key)
	switch {
	case on && !r.playing[k]:
		r.playing[k] = true
		r.nPlay[game]++
	case !on && r.playing[k]:
		delete(r.playing, k)
		r.nPlay[game]--
	}
	r.live.bump()
}

// start is the product's BeforeRecover: the room actor (with the matches the store says are
// live), then the lobby's queues.
func (r *Room) start(a *actors.Arena) error {
	r.arena = a
	r.log = r.opts.Logger
	if r.log == nil {
		r.log = a.Logger()
	}
	r.log = r.log.With("product", "breakroom")
	if r.opts.Payments != nil {
		o := *r.opts.Payments
		o.Ledger = a.Ledger()
		if o.Logger == nil {
			o.Logger = r.log
		}
		c, err := cashier.New(o)
		if err != nil {
			return fmt.Errorf("breakroom: %w", err)
		}
		r.cash = c
		st, err := a.Ledger().State(context.Background())
		if err != nil {
			return fmt.Errorf("breakroom: the ledger: %w", err)
		}
		r.bootRow = st.Last
	}
	st := newState(r)
	if err := st.recoverTables(); err != nil {
		return err
	}
	pid, err := a.System().Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return st }), ActorName)
	if err != nil {
		return fmt.Errorf("breakroom: spawn room: %w", err)
	}
	r.pid = pid
	var queues []lobby.Config
	for _, id := range r.ids {
		g := r.games[id]
		c := lobby.Config{ID: id, TableSize: g.TableSize, Min: g.Min, Wait: r.opts.LobbyWait, HouseAfter: r.opts.HouseAfter,
			Playing: r.isPlaying(id), Completed: r.completed,
			House: func(table uint64, i int) lobby.Entrant {
				return lobby.Entrant{Key: fmt.Sprintf("house:%s-%d-%d", id, table, i+1)}
			},
			Staff:     func(uint64) lobby.Entrant { return lobby.Entrant{Key: staffKey} },
			OnTable:   func(tf *lobby.TableFormed) { r.onTable(tf) },
			OnDropped: func(q string, es []lobby.Entrant) { r.send(&queueDropped{game: q, entrants: es}); r.live.bump() },
		}
		if r.opts.LobbySeed != nil {
			c.Seed = *r.opts.LobbySeed
		}
		queues = append(queues, c)
	}
	if r.opts.Clock == nil {
		r.opts.Clock = a.Clock()
	}
	l, err := lobby.Start(a.System(), lobby.Options{Name: "breakroom-lobby", Clock: r.opts.Clock, AskTimeout: a.AskTimeout(),
		Logger: r.log}, queues...)
	if err != nil {
		return fmt.Errorf("breakroom: lobby: %w", err)
	}
	r.lobby = l
	close(r.ready)
	// Once boot recovery has run, every recovered seat is away until its agent comes back.
	go func() {
		<-a.Ready()
		r.send(&recovered{})
		if r.cash != nil {
			// Queues are memory: stakes queued before a restart come back in full; payouts
			// resume (cashier.Resume).
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if n, err := r.cash.Resume(ctx, r.bootRow); err != nil || len(n) > 0 {
				r.log.Info("breakroom paid tables resumed", "refunded", len(n), "err", err)
			}
		}
	}()
	return nil
}

// onTable is the lobby's OnTable: every real key is playing before it returns (the lobby's
// rule), and the room opens the match.
func (r *Room) onTable(tf *lobby.TableFormed) {
	for _, s := range tf.Seats {
		if !s.House && !s.Staff {
			r.setPlaying(gameOf(tf.Queue), s.Key, true)
		}
	}
	r.send(&tableFormed{tf: tf})
	r.live.bump()
}

// onEvents is the product's OnEvents (the lines are stored): the room fans them out to the
// seats, and the public ones to the match's spectators (Follow).
func (r *Room) onEvents(table, round string, events []games.Event) {
	r.send(&tableEvents{table: table, round: round, events: events})
	r.follow.publish(round, events)
}

func (r *Room) send(msg any) {
	if r.pid != nil {
		r.arena.System().Root.Send(r.pid, msg)
	}
}

// tell hands op to the room actor without waiting for its answer.
func (r *Room) tell(op any) { r.send(&request{op: op, ch: make(chan result, 1)}) }

// call hands op to the room actor and waits for its answer: ctx's deadline, capped by the
// arena's ask timeout (busy when it passes).
func (r *Room) call(ctx context.Context, op any) (any, error) {
	if r.pid == nil {
		return nil, games.Errorf("busy", "Break Room is starting")
	}
	ch := make(chan result, 1)
	r.arena.System().Root.Send(r.pid, &request{op: op, ch: ch})
	t := time.NewTimer(r.arena.Wait(ctx))
	defer t.Stop()
	select {
	case res := <-ch:
		return res.v, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, &games.Error{Code: "busy", Msg: "Break Room did not answer in time", Retry: true}
	}
}

// request is a façade call on the room actor; ch has room for its one answer.
type request struct {
	op any
	ch chan result
}

type result struct {
	v   any
	err error
}

func (q *request) answer(v any, err error) {
	select {
	case q.ch <- result{v, err}:
	default:
	}
}

// JoinRequest is a join the door has checked (signature, nonce): Key is the author_pubkey, Name
// the agent_name ("" for none), Via the transport (ViaWebSocket, ViaHTTP).
type JoinRequest struct {
	Game      string
	Key       string
	Name      string
	Spoilers  bool
	Via       string
	StakeSats *int64
	paid      *paidStake // set by Paid: the stake in escrow this join queues with
}

// Joined is a join's answer: Conn names the new connection (over HTTP, the bearer token), First
// the message the door writes at once (wire.Queued, or wire.Seated on a reconnect; over HTTP
// carrying Conn as its token). On a socket, First and everything after it are also in the
// connection's mailbox (Next): the writer writes from there.
type Joined struct {
	Conn  string
	First wire.Outbound
}

// Join takes a checked join (see the package doc). Refusals: unknown_game naming the open games,
// bad_request for a bad Via, busy. A join with StakeSats makes no session: it answers
// payment_required (paid.go), or payments_disabled, bad_stake, escrow_full, wallet_error.
func (r *Room) Join(ctx context.Context, j JoinRequest) (Joined, error) {
	if _, ok := r.games[j.Game]; !ok {
		return Joined{}, games.Errorf("unknown_game", "unknown game %q; the games are %s", j.Game, strings.Join(r.ids, ", "))
	}
	if j.Via != ViaWebSocket && j.Via != ViaHTTP {
		return Joined{}, games.Errorf(games.CodeBadRequest, "transport %q", j.Via)
	}
	if j.Key == "" || strings.HasPrefix(j.Key, "house:") {
		return Joined{}, games.Errorf("auth_failed", "no key")
	}
	if j.StakeSats != nil {
		return r.invoice(ctx, j)
	}
	j.paid = nil
	return r.join(ctx, j)
}

// join is Join's session: a new one queued in its lobby queue (a paid one's for j.paid), or a
// reconnect.
func (r *Room) join(ctx context.Context, j JoinRequest) (Joined, error) {
	queue := j.Game
	if j.paid != nil {
		queue = paidQueue(j.Game, j.paid.stake)
	}
	v, err := r.call(ctx, &opJoin{j: j})
	if err != nil {
		return Joined{}, err
	}
	jr := v.(*joinStep)
	if jr.joined != nil {
		return *jr.joined, nil
	}
	// A new entry or one taken over: the lobby places it, outside the room actor.
	var q lobby.Queued
	if jr.rejoin {
		q, err = r.lobby.Rejoin(ctx, queue, lobby.Entrant{Key: j.Key})
	} else {
		q, err = r.lobby.Join(ctx, queue, lobby.Entrant{Key: j.Key})
	}
	switch {
	case errors.Is(err, lobby.ErrAlreadyPlaying) && jr.rejoin:
		// The entry taken over was seated meanwhile: the connection hears seated next.
		q, err = lobby.Queued{Position: 1}, nil
	case err != nil:
		r.tell(&opAbandonJoin{conn: jr.conn})
		return Joined{}, lobbyRefusal(err)
	}
	r.live.bump()
	v, err = r.call(ctx, &opQueued{conn: jr.conn, q: q})
	if err != nil {
		return Joined{}, err
	}
	return *v.(*Joined), nil
}

// lobbyRefusal is the protocol's refusal of a lobby error.
func lobbyRefusal(err error) error {
	switch {
	case errors.Is(err, lobby.ErrAlreadyPlaying):
		return games.Errorf("already_playing", "this key has a match of this game that can no longer be found")
	case errors.Is(err, lobby.ErrAlreadyQueued):
		return games.Errorf("already_queued", "this key is queued for this game")
	case errors.Is(err, lobby.ErrUnknownQueue):
		return games.Errorf("unknown_game", "no queue for this game")
	}
	return &games.Error{Code: "busy", Msg: "the lobby did not answer; join again", Retry: true}
}

// Item is one message of a socket's mailbox, numbered from 1 in the order it is to be written.
type Item struct {
	Seq uint64
	Msg wire.Outbound
}

// Next is the socket writer's drain (see the package doc): the messages numbered above after,
// in order, once there is one. Messages up to after are taken as written and forgotten.
func (r *Room) Next(ctx context.Context, conn string, after uint64) ([]Item, error) {
	ch := make(chan result, 1)
	if r.pid == nil {
		return nil, ErrClosed
	}
	r.arena.System().Root.Send(r.pid, &request{op: &opNext{conn: conn, after: after, done: ctx.Done()}, ch: ch})
	select {
	case res := <-ch:
		if res.err != nil {
			return nil, res.err
		}
		return res.v.([]Item), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Drop says a socket connection is gone (see the package doc). Dropping a connection that was
// replaced or never known does nothing.
func (r *Room) Drop(conn string) {
	r.tell(&opDrop{conn: conn})
	r.live.bump()
}

// Move plays a move's envelope and body for the connection's seat (see the package doc).
func (r *Room) Move(ctx context.Context, conn string, m *wire.Move) error {
	v, err := r.call(ctx, &opResolve{conn: conn, matchID: m.MatchID, present: true})
	if err != nil {
		return err
	}
	at := v.(*seatRef)
	if at.ended {
		return games.Errorf("match_over", "match %s is over", m.MatchID)
	}
	rep, err := r.arena.Submit(ctx, actors.SubmitAnswer{Table: at.table, Round: at.round, At: r.arena.Clock().Now(),
		Input: games.Input{Seat: at.seat, Kind: "answer", Move: moveOf(m.Round, m.Turn), Body: m.Body}})
	if err != nil {
		if errors.Is(err, actors.ErrTableDown) {
			return games.Errorf("match_over", "match %s is not running", m.MatchID)
		}
		return &games.Error{Code: "busy", Msg: "the table did not answer; send the move again", Retry: true}
	}
	switch rep.Code {
	case "":
		r.tell(&opMoved{conn: conn, move: moveOf(m.Round, m.Turn)})
		return nil
	case games.CodeRoundOver:
		return games.Errorf("match_over", "match %s is over", m.MatchID)
	case "unavailable":
		return &games.Error{Code: "busy", Msg: rep.Msg, Retry: true}
	}
	return &games.Error{Code: rep.Code, Msg: rep.Msg, Retry: rep.Retry}
}

// State is the seat's state message (see the package doc); wait > 0 long-polls while waiting.
func (r *Room) State(ctx context.Context, conn, matchID string, wait time.Duration) (wire.State, error) {
	wait = min(wait, MaxWait)
	var until time.Time
	if wait > 0 {
		until = time.Now().Add(wait)
	}
	for {
		v, err := r.call(ctx, &opResolve{conn: conn, matchID: matchID, present: true})
		if err != nil {
			return wire.State{}, err
		}
		at := v.(*seatRef)
		if at.end != nil {
			return wire.State{MatchID: matchID, Status: wire.StatusEnded, Round: at.lastRound, Turn: at.lastTurn,
				VisibleState: at.lastState, MatchEnd: at.end}, nil
		}
		if at.prompt != nil {
			return yourTurnState(matchID, at.prompt, r.arena.Clock().Now())
		}
		if wait <= 0 || !time.Now().Before(until) {
			return r.waitingState(ctx, matchID, at)
		}
		// Wait for this seat's next prompt or the end, then look again.
		wctx, cancel := context.WithDeadline(ctx, until)
		_, err = r.waitSeat(wctx, conn, at.version)
		cancel()
		if err != nil && ctx.Err() != nil {
			return wire.State{}, ctx.Err()
		}
	}
}

// waitingState is the state of a seat with no open move: the table's view of it.
func (r *Room) waitingState(ctx context.Context, matchID string, at *seatRef) (wire.State, error) {
	st := wire.State{MatchID: matchID, Status: wire.StatusWaiting, Round: at.lastRound, Turn: at.lastTurn, VisibleState: at.lastState,
		LegalActions: json.RawMessage("[]")}
	if v, err := r.arena.View(ctx, at.table, at.seat); err == nil && len(v.State) > 0 {
		st.VisibleState = v.State
	}
	return st, nil
}

// waitSeat blocks until the seat's state moves past version (a prompt, the end), ctx ends or
// the connection closes.
func (r *Room) waitSeat(ctx context.Context, conn string, version uint64) (uint64, error) {
	ch := make(chan result, 1)
	r.arena.System().Root.Send(r.pid, &request{op: &opWaitSeat{conn: conn, version: version, done: ctx.Done()}, ch: ch})
	select {
	case res := <-ch:
		if res.err != nil {
			return 0, res.err
		}
		return res.v.(uint64), nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// JoinStatus is GET /v0/join/{token}: the seated message once the connection's key is seated
// (its token beside it), else its place in the queue, long-polled up to wait (capped at
// MaxWait) until it is seated; left once it is out of the queue.
func (r *Room) JoinStatus(ctx context.Context, conn string, wait time.Duration) (wire.Outbound, error) {
	wait = min(wait, MaxWait)
	until := time.Now().Add(wait)
	for {
		v, err := r.call(ctx, &opJoinStatus{conn: conn})
		if err != nil {
			return nil, err
		}
		js := v.(*joinStatus)
		if js.msg != nil {
			return js.msg, nil
		}
		if wait <= 0 || !time.Now().Before(until) {
			q, err := r.lobby.Position(ctx, js.queue, js.key)
			if err != nil {
				if errors.Is(err, lobby.ErrAlreadyPlaying) {
					continue // seated meanwhile: the next look has the seated message
				}
				return wire.Left{Game: js.game, Reason: "left"}, nil
			}
			return r.queuedMsg(js.game, js.paid, q), nil
		}
		wctx, cancel := context.WithDeadline(ctx, until)
		_, err = r.waitSeat(wctx, conn, js.version)
		cancel()
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// Leave takes the connection's key out of its queue: left with reason "left"; already_playing
// once it is seated ("DELETE /v0/join/{token}").
func (r *Room) Leave(ctx context.Context, conn string) (wire.Left, error) {
	v, err := r.call(ctx, &opJoinStatus{conn: conn})
	if err != nil {
		return wire.Left{}, err
	}
	js := v.(*joinStatus)
	if js.seated {
		return wire.Left{}, games.Errorf("already_playing", "seated at a match: play it out (leaving is for the queue)")
	}
	if _, err := r.lobby.Leave(ctx, js.queue, js.key); err != nil {
		if errors.Is(err, lobby.ErrAlreadyPlaying) {
			return wire.Left{}, games.Errorf("already_playing", "seated at a match: play it out (leaving is for the queue)")
		}
		return wire.Left{}, lobbyRefusal(err)
	}
	left := wire.Left{Game: js.game, Reason: "left"}
	if js.paid != nil {
		// Durable before announced: the refund row is written before left says so.
		n, err := r.refundStake(ctx, js.paid, "left")
		if err != nil {
			return wire.Left{}, err
		}
		left.RefundedSats = &n
	}
	r.tell(&opLeft{conn: conn, left: left})
	r.live.bump()
	return left, nil
}

// Feedback keeps the connection's player's note on its finished match (see the package doc).
func (r *Room) Feedback(ctx context.Context, conn string, f *wire.Feedback) (wire.FeedbackReceived, error) {
	v, err := r.call(ctx, &opResolve{conn: conn, matchID: f.MatchID})
	var key string
	var ended bool
	var endedAt time.Time
	switch {
	case err == nil:
		at := v.(*seatRef)
		key, ended, endedAt = at.key, at.end != nil, at.endedAt
	case refusalCode(err) == "not_seated" || refusalCode(err) == "unknown_match":
		key, ended, endedAt, err = r.storedSeat(ctx, conn, f.MatchID, err)
		if err != nil {
			return wire.FeedbackReceived{}, err
		}
	case refusalCode(err) == "unauthorized":
		key, ended, endedAt, err = r.tokenSeat(ctx, conn, f.MatchID, err)
		if err != nil {
			return wire.FeedbackReceived{}, err
		}
	default:
		return wire.FeedbackReceived{}, err
	}
	now := r.arena.Clock().Now()
	switch {
	case !ended:
		return wire.FeedbackReceived{}, games.Errorf("match_running", "match %s has not ended: send feedback after match_end", f.MatchID)
	case now.After(endedAt.Add(FeedbackOpen)):
		return wire.FeedbackReceived{}, games.Errorf("feedback_closed", "feedback on match %s closed 24 h after its end", f.MatchID)
	}
	note, _ := json.Marshal(struct {
		At     time.Time `json:"at"`
		Text   string    `json:"text"`
		Rating int       `json:"rating,omitempty"`
	}{now, f.Text, f.Rating})
	if err := r.arena.Store().PutBreakroomFeedback(f.MatchID, key, note); err != nil {
		return wire.FeedbackReceived{}, &games.Error{Code: "busy", Msg: "the note could not be kept; send it again", Retry: true}
	}
	return wire.FeedbackReceived{MatchID: f.MatchID}, nil
}

// refusalCode is err's protocol code ("" for an error that is not a games.Error).
func refusalCode(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return ""
}

// storedSeat finds the connection's key in the stored seating of matchID when the connection
// is not at that match any more (a signed join after the room forgot the match's sessions, past
// the feedback window or at a restart): a player of a match is a key of its seating, not a
// token. It answers whether the match is over and when it ended; refused (the connection's
// not_seated or unknown_match) when the key did not play matchID or was a house seat.
func (r *Room) storedSeat(ctx context.Context, conn, matchID string, refused error) (key string, ended bool, endedAt time.Time, err error) {
	v, err := r.call(ctx, &opJoinStatus{conn: conn})
	if err != nil {
		return "", false, time.Time{}, err
	}
	key = v.(*joinStatus).key
	mi, err := r.Match(ctx, matchID)
	if err != nil {
		if refusalCode(err) == "unknown_match" {
			return "", false, time.Time{}, refused
		}
		return "", false, time.Time{}, err
	}
	for _, p := range mi.Players {
		if p.Pubkey == key && !p.House && !p.Staff {
			return key, mi.Status != MatchRunning, mi.Ended, nil
		}
	}
	return "", false, time.Time{}, refused
}

// tokenSeat finds a token the room does not know (any more) in the stored seating of matchID:
// the token a seat's agent held when the table formed (seatRec.Token), so that a player whose
// session the room forgot (past the feedback window, or at a restart) is still known by it. It
// answers the seat's key, whether the match is over and when it ended; refused (unauthorized)
// when no seat of matchID held the token.
func (r *Room) tokenSeat(ctx context.Context, token, matchID string, refused error) (key string, ended bool, endedAt time.Time, err error) {
	if token == "" {
		return "", false, time.Time{}, refused
	}
	table, err := r.arena.Store().RoundTable(matchID)
	if err != nil || !strings.HasPrefix(table, "br-") {
		return "", false, time.Time{}, refused
	}
	seatings, err := r.seatings()
	if err != nil {
		return "", false, time.Time{}, err
	}
	want := tokenHash(token)
	for _, st := range seatings {
		if st.id != table {
			continue
		}
		var se seating
		if json.Unmarshal(st.raw, &se) != nil {
			break
		}
		for _, s := range se.Seats {
			if s.Token != "" && s.Token == want && !s.House && !s.Staff {
				key = s.Key
			}
		}
	}
	if key == "" {
		return "", false, time.Time{}, refused
	}
	mi, err := r.Match(ctx, matchID)
	if err != nil {
		return "", false, time.Time{}, refused
	}
	return key, mi.Status != MatchRunning, mi.Ended, nil
}

// Live is one game's live counts (GET /v0/games, /v0/live): agents Waiting in its queue, agents
// Playing at its running tables (house bots and the bartender counted apart, in House), its
// running Tables, and those tables themselves (Running, in no set order). Playing, House, Tables
// and Running are made from one read of the room actor's matches, so they always agree:
// Tables == len(Running), Playing and House the sums of its Agents and House.
type Live struct {
	Game    Game
	Waiting int
	// WaitingPaid counts the agents waiting at each of the game's open paid queues, by stake in
	// sats (none: nil).
	WaitingPaid map[int64]int
	Playing     int
	House       int
	Tables      int
	Running     []LiveTable
}

// LiveTable is one running table (GET /v0/live's live_tables): a match the room has opened and
// not yet seen end. Agents counts its agents' seats, House its house bots and the bartender;
// Started is when the lobby formed the table.
type LiveTable struct {
	MatchID string
	Tier    string
	Agents  int
	House   int
	Started time.Time
}

// Live is every game's live counts and running tables, in Games' order.
func (r *Room) Live(ctx context.Context) ([]Live, error) {
	v, err := r.call(ctx, &opLive{})
	if err != nil {
		return nil, err
	}
	counts := v.(map[string]Live)
	out := make([]Live, 0, len(r.ids))
	for _, id := range r.ids {
		l := counts[id]
		l.Game = r.games[id]
		if info, err := r.lobby.Info(ctx, id); err == nil {
			l.Waiting = info.Waiting
		}
		for _, stake := range r.openPaid(id) {
			if info, err := r.lobby.Info(ctx, paidQueue(id, stake)); err == nil && info.Waiting > 0 {
				if l.WaitingPaid == nil {
					l.WaitingPaid = map[int64]int{}
				}
				l.WaitingPaid[stake] = info.Waiting
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// openPaid is the stakes of game's paid queues opened so far, ascending.
func (r *Room) openPaid(game string) []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int64
	for id := range r.paidQueues {
		g, st, ok := strings.Cut(id, ".")
		if !ok || g != game {
			continue
		}
		if n, err := strconv.ParseInt(st, 10, 64); err == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// queuedMsg is a queued message: at a paid queue with the stake, waiting_here (the lobby's
// count, the key included), min_players and, while short of a table, a note.
func (r *Room) queuedMsg(game string, p *paidStake, q lobby.Queued) wire.Queued {
	m := wire.Queued{Game: game, Position: max(q.Position, 1)}
	if p == nil {
		return m
	}
	g := r.games[game]
	m.StakeSats, m.WaitingHere, m.MinPlayers = p.stake, max(q.Waiting, 1), g.Min
	if q.Seated {
		// The join completed a table: everyone at it waited here.
		m.WaitingHere = max(m.WaitingHere, g.Min)
	}
	if m.WaitingHere < g.Min {
		m.Note = fmt.Sprintf("a paid table needs %d agents at %d sats (no house bots); with none in 10 minutes your stake comes back in full", g.Min, p.stake)
	}
	return m
}
