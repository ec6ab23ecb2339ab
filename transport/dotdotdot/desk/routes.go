package desk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/lever"
	"arena/transport/dotdotdot/walkin"
)

// Options are the door's limits. The zero value works.
type Options struct {
	// MaxBody caps request bodies in bytes; 0 selects door.DefaultMaxBody (64 KiB).
	MaxBody int64
	// LongPoll caps ?wait= and is the wait when none is given; 0 or more than 30 s selects 30 s
	// (§4.4).
	LongPoll time.Duration
	// CallTimeout bounds every desk call but the long poll; 0 selects 10 s. A call that runs out
	// is answered busy (503, retry).
	CallTimeout time.Duration
	// Drain, when closed (the server is shutting down), ends every long poll at once with a
	// waiting answer, so a SIGTERM does not wait out 30-second polls. Nil never drains.
	Drain <-chan struct{}
	// PollsPerToken caps the long polls one token may hold open at once; one more is refused
	// with too_many_polls (429, retry). 0 selects 4.
	PollsPerToken int
	// Site is the public origin ("https://arena.example") the hosted-table links (link,
	// watch) are written against. Empty: the request's scheme and Host, which a client can
	// forge; `arena serve` always sets it (ARENA_PUBLIC_URL, else its listen address).
	Site string
	// Registrations limits POST /v1/walkin per caller address (door.ClientAddr), Tables the
	// tables a caller opens (a Practice join, POST /v1/walkin/host): past either, rate_limited
	// (429, Retry-After). The chat seat's register, play_practice and host_table share the same
	// limiters in `arena serve`, so one address has one budget on both doors. Nil: no limit.
	Registrations, Tables *door.Limiter
	// Forwarded reads the caller's address from X-Forwarded-For (a proxy on this host sets
	// it; door.ClientAddr).
	Forwarded bool
}

const maxLongPoll = 30 * time.Second

type handlers struct {
	d     Desk
	opts  Options
	polls struct {
		sync.Mutex
		open map[string]int // token → long polls in flight; guarded by the mutex
	}
}

// holdPoll counts one more long poll for token, refusing past the cap; release undoes it.
func (h *handlers) holdPoll(token string) (release func(), err error) {
	h.polls.Lock()
	defer h.polls.Unlock()
	if h.polls.open[token] >= h.opts.PollsPerToken {
		return nil, &door.Refusal{Code: codes.TooManyPolls, Retry: true,
			Msg: fmt.Sprintf("at most %d long polls at once per walk-in; a poll never consumes a move, so one is enough", h.opts.PollsPerToken)}
	}
	h.polls.open[token]++
	return func() {
		h.polls.Lock()
		defer h.polls.Unlock()
		if h.polls.open[token]--; h.polls.open[token] <= 0 {
			delete(h.polls.open, token)
		}
	}, nil
}

// Mount adds the desk's routes (see the package doc) to e.
func Mount(e *echo.Echo, d Desk, opts Options) {
	if opts.LongPoll <= 0 || opts.LongPoll > maxLongPoll {
		opts.LongPoll = maxLongPoll
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 10 * time.Second
	}
	if opts.PollsPerToken <= 0 {
		opts.PollsPerToken = 4
	}
	h := &handlers{d: d, opts: opts}
	h.polls.open = map[string]int{}
	e.POST("/v1/walkin", h.register)
	e.POST("/v1/walkin/join", h.join)
	e.GET("/v1/walkin/next", h.next)
	e.POST("/v1/walkin/answer", h.answer)
	e.GET("/v1/walkin/me", h.me)
	e.GET("/v1/walkin/board", h.board)
	e.GET("/v1/walkin/name/:name", h.page)
	e.POST("/v1/rounds/:round/call", h.lever("call"))
	e.POST("/v1/rounds/:round/veto", h.lever("veto"))
	e.POST("/v1/rounds/:round/accuse", h.lever("accuse"))
	e.GET("/v1/rounds/:round/transcript", h.transcript)
	mountHosted(e, h) // hosted.go: when d also implements Hosted (§4.5)
	mountKinds(e, h)  // kinds.go: when d also implements Kinds (the lobby's kinds, the ratings)
}

func (h *handlers) call(c echo.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.Request().Context(), h.opts.CallTimeout)
}

// onlyQuery refuses query members other than those allowed (bad_request): a misspelt
// parameter must not be silently ignored.
// walkinRequest is the prelude of every walk-in route with no query parameters: nothing in the
// query (a token there is refused by the guard; anything else is unknown), then the x-walkin token.
func walkinRequest(c echo.Context) (string, error) {
	if err := onlyQuery(c); err != nil {
		return "", err
	}
	return walkin.Token(c)
}

func onlyQuery(c echo.Context, allowed ...string) error {
	for k := range c.QueryParams() {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			return door.Refuse(door.CodeBadRequest, "unknown query parameter "+strconv.Quote(k))
		}
	}
	return nil
}

func rawJSON(c echo.Context, status int, b []byte) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(status, echo.MIMEApplicationJSON, b)
}

func sendJSON(c echo.Context, status int, v any) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, v)
}

// registerBody is POST /v1/walkin.
type registerBody struct {
	Name  string `json:"name"`
	Model string `json:"model,omitempty"`
}

func (h *handlers) register(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	var b registerBody
	if err := door.Decode(c, h.opts.MaxBody, &b); err != nil {
		return err
	}
	if b.Name == "" {
		return door.Refuse(door.CodeBadRequest, "name is required")
	}
	if err := walkin.CheckName(b.Name); err != nil {
		return err
	}
	if err := h.opts.Registrations.Allow(door.ClientAddr(c.Request(), h.opts.Forwarded)); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	tok, err := h.d.RegisterWalkin(ctx, b.Name, b.Model)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, map[string]string{"token": tok, "name": b.Name})
}

func (h *handlers) join(c echo.Context) error {
	tok, err := walkinRequest(c)
	if err != nil {
		return err
	}
	var b dotdotdot.JoinRequest
	if err := door.Decode(c, h.opts.MaxBody, &b); err != nil {
		return err
	}
	if b.Table == "" && b.Code == "" {
		return door.Refuse(door.CodeBadRequest, `table is required: "practice", "solo", "walkin" or "free"`)
	}
	if b.Code == "" && (b.Table == "practice" || b.Table == "solo") { // a Practice or Solo join opens a table
		if err := h.opts.Tables.Allow(door.ClientAddr(c.Request(), h.opts.Forwarded)); err != nil {
			return err
		}
	}
	ctx, cancel := h.call(c)
	defer cancel()
	r, err := h.d.JoinWalkin(ctx, tok, b)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, r)
}

func (h *handlers) answer(c echo.Context) error {
	tok, err := walkinRequest(c)
	if err != nil {
		return err
	}
	raw, err := door.ReadBody(c, h.opts.MaxBody)
	if err != nil {
		return err
	}
	if _, err := DecodeAnswer(raw); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	reply, err := h.d.AnswerMove(ctx, tok, raw)
	if err != nil {
		return err
	}
	if len(reply) == 0 {
		reply = json.RawMessage(`{"dropped":[]}`)
	}
	return rawJSON(c, http.StatusOK, reply)
}

func (h *handlers) me(c echo.Context) error {
	tok, err := walkinRequest(c)
	if err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	rec, err := h.d.WalkinRecord(ctx, tok)
	if err != nil {
		return err
	}
	return rawJSON(c, http.StatusOK, rec)
}

func (h *handlers) board(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	b, err := h.d.Board(ctx)
	if err != nil {
		return err
	}
	return rawJSON(c, http.StatusOK, b)
}

func (h *handlers) page(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	// The name from the decoded path, not the route parameter: echo leaves the parameter
	// escaped when the path holds an escaped slash, and decoded otherwise.
	name := strings.TrimPrefix(c.Request().URL.Path, "/v1/walkin/name/")
	if name == "" || len(name) > 200 {
		return door.Refuse(codes.UnknownName, "no walk-in by that name")
	}
	ctx, cancel := h.call(c)
	defer cancel()
	p, err := h.d.WalkinPage(ctx, name)
	if err != nil {
		return err
	}
	return rawJSON(c, http.StatusOK, p)
}

// roundID is the shape of a round id, T-<n> (§3).
var roundID = regexp.MustCompile(`^T-[0-9]{1,19}$`)

func roundParam(c echo.Context) (string, error) {
	r := c.Param("round")
	if !roundID.MatchString(r) {
		return "", door.Refuse(door.CodeBadRequest, "round must be T-<n>")
	}
	return r, nil
}

// lever is POST /v1/rounds/{round}/{kind} over x-walkin: the body read by lever.Check (§12; the
// one parser the join door's session levers use too), then handed to the desk as sent.
func (h *handlers) lever(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := onlyQuery(c); err != nil {
			return err
		}
		round, err := roundParam(c)
		if err != nil {
			return err
		}
		tok, err := walkin.Token(c)
		if err != nil {
			return err
		}
		raw, err := door.ReadBody(c, h.opts.MaxBody)
		if err != nil {
			return err
		}
		if err := lever.Check(kind, raw); err != nil {
			return err
		}
		ctx, cancel := h.call(c)
		defer cancel()
		reply, err := h.d.Lever(ctx, tok, round, kind, raw)
		if err != nil {
			return err
		}
		if len(reply) == 0 {
			reply = json.RawMessage(`{"ok":true}`)
		}
		return rawJSON(c, http.StatusOK, reply)
	}
}

// transcriptReply is GET /v1/rounds/{round}/transcript.
type transcriptReply struct {
	Round  string `json:"round"`
	Events any    `json:"events"`
	// Replays are the round's showings' replay anchors (§5.5 kind replay), beside the events
	// and never among them: a showing does not change the transcript it shows. Left out when
	// the round has none, or the desk shows no recordings.
	Replays []dotdotdot.Replay `json:"replays,omitempty"`
}

// Replayer lists a round's showings' replay anchors for its transcript (*dotdotdot.Arena does).
type Replayer interface {
	Replays(ctx context.Context, round string) ([]dotdotdot.Replay, error)
}

func (h *handlers) transcript(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	round, err := roundParam(c)
	if err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	evs, revealed, err := h.d.Transcript(ctx, round)
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		return door.Refuse(door.CodeUnknownRound, "no round "+round)
	}
	if !revealed {
		return &door.Refusal{Code: codes.NotRevealed, Msg: "the transcript is public after the reveal (§11.4)", Retry: true}
	}
	reply := transcriptReply{Round: round, Events: evs}
	if r, ok := h.d.(Replayer); ok {
		if reply.Replays, err = r.Replays(ctx, round); err != nil {
			return err
		}
	}
	return sendJSON(c, http.StatusOK, reply)
}
