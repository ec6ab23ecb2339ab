package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	"arena/games/breakroom/wire"
	"arena/transport/breakroom/auth"
	"arena/transport/door"
	"arena/transport/ws"
)

// Defaults of Options.
const (
	// MaxWait caps an HTTP long poll's wait ("HTTP fallback": "wait is capped at 25 000 ms").
	MaxWait = 25 * time.Second
	// DefaultCallTimeout bounds one call of the product that is not a long poll.
	DefaultCallTimeout = 5 * time.Second
	// MaxBody is the HTTP body the doors read before the frame check: a body over wire.MaxFrame
	// and at most MaxBody is refused by the decoder with the socket's too_large and detail; a
	// larger one by the body cap, with the same code.
	MaxBody = 8 * wire.MaxFrame
)

// Options configure the doors. Backend and Nonces are required.
type Options struct {
	Backend Backend
	Nonces  *auth.Nonces
	// Socket configures the WebSocket connections (zero: transport/ws's defaults, which are
	// the protocol's: 8 KB frames, a ping every 15 s).
	Socket ws.Options
	// Now is the clock of /v0/games's hourly rotation (time.Now when nil).
	Now func() time.Time
	// CallTimeout bounds each product call that is not a long poll (DefaultCallTimeout when
	// zero).
	CallTimeout time.Duration
	// PublicURL is the site's origin as clients reach it ("https://breakroom.example"), named in
	// GET /v0/games's join member; "" leaves join out.
	PublicURL string
	// Forwarded: a proxy on this host appends X-Forwarded-For (door.ClientAddr), for the
	// nonces' per-caller bound.
	Forwarded bool
	// Drain, when closed, ends every long poll at once with what it has (shutdown).
	Drain <-chan struct{}
	// Logger receives the doors' internal errors; nil discards.
	Logger *slog.Logger
	// Page answers GET /r/{file} for every file but {match_id}.jsonl: the match's page
	// (transport/breakroom/public's ReplayPage, which reads c.Param("file") as the match id);
	// nil: those paths are not_found.
	Page echo.HandlerFunc
	// OnGames is called once for each GET /v0/games (the usage counters' way in "games"); nil:
	// not counted.
	OnGames func()
	// Payments opens the paid-table doors (a join with stake_sats, paid, POST /v0/paid) on a
	// Backend that is a Payer, with these terms in GET /v0/games; nil answers them
	// payments_disabled before any signature.
	Payments *Terms
}

// Terms are the paid tables' terms GET /v0/games states (payments, each game's stakes).
type Terms struct {
	RakeBps  int
	Stakes   []int64 // sats
	TestSats bool    // the development wallet: payments.test_sats and a note say so
}

// Door is the two doors and /v0/games; Mount adds their routes to the Break Room site.
type Door struct {
	o   Options
	up  *ws.Upgrader
	log *slog.Logger
}

// New checks o and fills in the defaults.
func New(o Options) (*Door, error) {
	if o.Backend == nil || o.Nonces == nil {
		return nil, errors.New("play: Backend and Nonces are required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.Socket.MaxFrame == 0 {
		o.Socket.MaxFrame = wire.MaxFrame
	}
	up, err := ws.NewUpgrader(o.Socket)
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Door{o: o, up: up, log: log}, nil
}

// Mount adds the doors' routes to e (the Break Room site's echo, whose error handler writes
// refusals in the protocol's shape).
func (d *Door) Mount(e *echo.Echo) error {
	e.GET("/v0/games", d.games)
	e.GET("/v0/play", d.play)
	e.GET("/v0/challenge", d.challenge)
	e.POST("/v0/join", d.join)
	e.POST("/v0/paid", d.paid)
	e.GET("/v0/join/:token", d.poll)
	e.DELETE("/v0/join/:token", d.leave)
	e.GET("/v0/matches/:id/state", d.state)
	e.POST("/v0/matches/:id/move", d.move)
	e.POST("/v0/matches/:id/feedback", d.feedback)
	e.GET("/r/:file", d.replayLog)
	return nil
}

// call is a context for one product call that is not a long poll.
func (d *Door) call(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d.o.CallTimeout)
}

// preJoin is both doors' checks of a join before its signature, which keep its nonce good
// (auth.VerifyJoin): a paid join without paid tables is payments_disabled, an unknown game is
// unknown_game naming the open games.
func (d *Door) preJoin(ctx context.Context, j *wire.Join) error {
	if j.StakeSats != nil && d.payer() == nil {
		return games.Errorf(CodePaymentsDisabled, "paid tables are not open on this server; join without stake_sats")
	}
	return d.knownGame(ctx, j.Game)
}

// Payer is the Backend's paid tables, nil when they are closed (Options.Payments unset or a
// Backend that is not a Payer).
func (d *Door) Payer() Payer { return d.payer() }

// payer is the Backend's paid tables, nil when they are closed.
func (d *Door) payer() Payer {
	if d.o.Payments == nil {
		return nil
	}
	p, _ := d.o.Backend.(Payer)
	return p
}

// verifyJoin checks a join's key, nonce and signature (bad_request, auth_failed), spending the
// nonce; the door runs preJoin first.
func (d *Door) verifyJoin(j *wire.Join, via string) (Join, error) {
	key, err := d.o.Nonces.VerifyJoin(j.AuthorPubkey, j.Nonce, j.Sig)
	if err != nil {
		return Join{}, err
	}
	return Join{Game: j.Game, Key: key.String(), Name: j.AgentName, Spoilers: j.Spoilers, Via: via, StakeSats: j.StakeSats}, nil
}

// knownGame is nil when game is open, else unknown_game with the ids of the open games in its
// detail and its "games" member.
func (d *Door) knownGame(ctx context.Context, game string) error {
	cctx, cancel := d.call(ctx)
	defer cancel()
	list, err := d.o.Backend.Games(cctx)
	if err != nil {
		return err
	}
	ids := make([]string, len(list))
	for i, g := range list {
		ids[i] = g.ID
	}
	if slices.Contains(ids, game) {
		return nil
	}
	return &unknownGame{ids: ids, game: game}
}

// Codes the doors give beside wire's and auth's (breakroom-protocol-v0.md "Error codes").
const (
	CodeUnknownGame      = "unknown_game"
	CodeAlreadyJoined    = "already_joined"
	CodeNotJoined        = "not_joined"
	CodePaymentsDisabled = "payments_disabled"
	CodeUnauthorized     = "unauthorized"
)

// unknownGame is the unknown_game refusal: its detail names the open games and Details adds
// them as "games" (the same on both doors).
type unknownGame struct {
	ids  []string
	game string
}

func (e *unknownGame) Error() string { return CodeUnknownGame + ": " + e.msg() }

func (e *unknownGame) msg() string {
	return fmt.Sprintf("no open game %q; the games are %s", clipID(e.game), strings.Join(e.ids, ", "))
}

// refusal is e as the doors write it.
func (e *unknownGame) refusal() *door.Refusal {
	return &door.Refusal{Code: CodeUnknownGame, Msg: e.msg(), Extra: map[string]any{"games": e.ids}}
}

// clipID is an agent's id cut to 40 bytes for a detail.
func clipID(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// refusalOf is err as the doors write it (door.AsRefusal, unknown_game with its games); ok is
// false for an internal error, which is logged and not described.
func refusalOf(err error) (*door.Refusal, bool) {
	var ug *unknownGame
	if errors.As(err, &ug) {
		return ug.refusal(), true
	}
	return door.AsRefusal(err)
}
