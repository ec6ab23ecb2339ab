package play

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games/breakroom/wire"
	"arena/transport/door"
)

// The HTTP fallback (breakroom-protocol-v0.md "HTTP fallback"): every row of its table. Bodies
// are read whole (MaxBody at most) and decoded by wire.DecodeHTTP, the socket's decoder, so a
// body is refused with the code and detail its frame would get; refusals are written by the
// site's error handler in the protocol's shape ({type:"error", v, code, detail}) with the site's
// status (a refused move: 400). Bearer tokens travel only in the Authorization header on the
// match routes; the join poll and leave carry theirs in the path, as the table has them.

// refuse is err as the site writes it: a *door.Refusal (unknown_game with its games), or err
// itself when it is internal (logged by the site's handler, not described).
func (d *Door) refuse(err error) error {
	if r, ok := refusalOf(err); ok {
		return r
	}
	return err
}

// reply writes m (a wire message) as the 200 answer.
func reply(c echo.Context, m wire.Outbound) error {
	b, err := wire.Encode(m)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSONBlob(http.StatusOK, b)
}

// challenge is GET /v0/challenge: {type:"challenge", v:0, nonce}, single use, 5 minutes.
func (d *Door) challenge(c echo.Context) error {
	nonce, err := d.o.Nonces.Issue(door.ClientAddr(c.Request(), d.o.Forwarded))
	if err != nil {
		return d.refuse(err)
	}
	return reply(c, wire.Challenge{Nonce: nonce})
}

// body reads the request body (door.ReadBody: JSON content type, at most MaxBody) and decodes it
// as kind with wire.DecodeHTTP.
func body(c echo.Context, kind wire.Kind, match string) (wire.Inbound, error) {
	raw, err := door.ReadBody(c, MaxBody)
	if err != nil {
		return nil, err
	}
	in, err := wire.DecodeHTTP(kind, match, raw)
	if err != nil {
		r, _ := door.AsRefusal(err)
		return nil, r
	}
	return in, nil
}

// join is POST /v0/join: the socket's join over HTTP. The answer is the product's queued (with
// the bearer token) or, while the key's match runs, its seated message with a new token; the
// agent's earlier token, and any socket that held its seat, are replaced.
func (d *Door) join(c echo.Context) error {
	if err := noTokenInQuery(c); err != nil {
		return err
	}
	in, err := body(c, wire.KindJoin, "")
	if err != nil {
		return err
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	j := in.(*wire.Join)
	if err := d.preJoin(ctx, j); err != nil {
		return d.refuse(err)
	}
	jn, err := d.verifyJoin(j, ViaHTTP)
	if err != nil {
		return d.refuse(err)
	}
	joined, err := d.o.Backend.Join(ctx, jn)
	if err != nil {
		return d.refuse(err)
	}
	return d.joinedReply(c, joined)
}

// joinedReply writes a join's answer: queued or seated with the bearer token, or a paid join's
// payment_required with 402.
func (d *Door) joinedReply(c echo.Context, joined Joined) error {
	switch m := joined.First.(type) {
	case wire.Queued:
		m.Token = joined.Conn
		return reply(c, m)
	case wire.Seated:
		m.Token = joined.Conn
		return reply(c, m)
	case wire.PaymentRequired:
		b, err := wire.Encode(m)
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSONBlob(http.StatusPaymentRequired, b)
	}
	return reply(c, joined.First)
}

// paid is POST /v0/paid {payment_hash, payout_lnaddr, author_pubkey, nonce, sig} ("HTTP
// fallback"): the body is read as the socket's paid message is (bad_request, bad_version); the
// signature is checked without spending the nonce (auth.Nonces.Check); the product takes the
// stake (402 not_paid until the invoice is paid: send the same request again); the nonce is spent
// once the seat is claimed, and the answer is queued with the bearer token. Without paid tables,
// payments_disabled, nothing spent.
func (d *Door) paid(c echo.Context) error {
	if err := noTokenInQuery(c); err != nil {
		return err
	}
	in, err := body(c, wire.KindPaid, "")
	if err != nil {
		return err
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	joined, err := d.SignedPaid(ctx, in.(*wire.Paid), ViaHTTP)
	if err != nil {
		return d.refuse(err)
	}
	return d.joinedReply(c, joined)
}

// noTokenInQuery refuses a request whose URL carries a token: tokens travel in the
// Authorization header (or, for the join poll, the path), never in a query a log keeps.
func noTokenInQuery(c echo.Context) error {
	q := c.Request().URL.Query()
	for _, k := range []string{"token", "access_token", "bearer"} {
		if q.Has(k) {
			return door.Refuse(CodeBadRequest, "a token travels in the Authorization: Bearer header, never in the URL")
		}
	}
	return nil
}

// wait reads the wait query parameter: milliseconds, an integer ≥ 0, capped at MaxWait; absent
// is 0 (answer at once).
func wait(c echo.Context) (time.Duration, error) {
	vs := c.QueryParams()["wait"]
	switch len(vs) {
	case 0:
		return 0, nil
	case 1:
	default:
		return 0, door.Refuse(CodeBadRequest, "wait given more than once")
	}
	ms, err := strconv.ParseInt(vs[0], 10, 64)
	if err != nil || ms < 0 {
		return 0, door.Refuse(CodeBadRequest, "wait is a whole number of milliseconds, 0 to 25000")
	}
	return WaitOf(ms), nil
}

// WaitOf is a wait of ms milliseconds (≥ 0) capped at MaxWait, compared in milliseconds so that
// a count too large for a time.Duration is the cap, not a wrapped negative wait.
func WaitOf(ms int64) time.Duration {
	if ms >= int64(MaxWait/time.Millisecond) {
		return MaxWait
	}
	return time.Duration(ms) * time.Millisecond
}

// longPoll is a context for a long poll of up to w: it ends with the request, at w plus the
// call timeout, and when the server drains.
func (d *Door) longPoll(parent context.Context, w time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, w+d.o.CallTimeout)
	if d.o.Drain != nil {
		go func() {
			select {
			case <-d.o.Drain:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// token is the bearer token of a request: unauthorized when there is none (an unknown or
// replaced one is the product's unauthorized).
func token(tok string) (string, error) {
	if tok == "" {
		return "", door.Refuse(CodeUnauthorized, "send the token from POST /v0/join as Authorization: Bearer <token>")
	}
	return tok, nil
}

// bearer is the request's Authorization: Bearer token ("" when there is none).
func bearer(c echo.Context) (string, error) {
	if err := noTokenInQuery(c); err != nil {
		return "", err
	}
	h := c.Request().Header.Values("Authorization")
	if len(h) != 1 {
		return "", nil
	}
	scheme, tok, ok := strings.Cut(h[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", nil
	}
	return strings.TrimSpace(tok), nil
}

// poll is GET /v0/join/{token}?wait=ms: seated once a table opened, left once out of the queue,
// else queued with the position, after waiting up to wait for a change. It consumes nothing, so
// a client that drops mid-poll loses nothing: the next poll answers the same.
func (d *Door) poll(c echo.Context) error {
	if err := noTokenInQuery(c); err != nil {
		return err
	}
	w, err := wait(c)
	if err != nil {
		return err
	}
	tok, err := token(c.Param("token"))
	if err != nil {
		return err
	}
	ctx, cancel := d.longPoll(c.Request().Context(), w)
	defer cancel()
	ans, err := d.o.Backend.JoinStatus(ctx, tok, w)
	if err != nil {
		return d.refuse(err)
	}
	return reply(c, ans)
}

// leave is DELETE /v0/join/{token}: {type:"left", game, reason:"left"}; 409 already_playing
// once seated.
func (d *Door) leave(c echo.Context) error {
	if err := noTokenInQuery(c); err != nil {
		return err
	}
	tok, err := token(c.Param("token"))
	if err != nil {
		return err
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	left, err := d.o.Backend.Leave(ctx, tok)
	if err != nil {
		return d.refuse(err)
	}
	return reply(c, left)
}

// matchConn is a match route's connection: its bearer token.
func matchConn(c echo.Context) (string, error) {
	tok, err := bearer(c)
	if err != nil {
		return "", err
	}
	return token(tok)
}

// state is GET /v0/matches/{id}/state?wait=ms: the state message, long-polling while the
// status is waiting; when ended it carries match_end.
func (d *Door) state(c echo.Context) error {
	tok, err := matchConn(c)
	if err != nil {
		return err
	}
	w, err := wait(c)
	if err != nil {
		return err
	}
	ctx, cancel := d.longPoll(c.Request().Context(), w)
	defer cancel()
	st, err := d.o.Backend.State(ctx, tok, c.Param("id"), w)
	if err != nil {
		return d.refuse(err)
	}
	return reply(c, st)
}

// okReply is a taken move's answer.
type okReply struct {
	V  int  `json:"v"`
	OK bool `json:"ok"`
}

// move is POST /v0/matches/{id}/move: {ok:true} or an error (HTTP 400 for the move's refusals)
// naming the match; a refusal never consumes the turn.
func (d *Door) move(c echo.Context) error {
	tok, err := matchConn(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	in, err := body(c, wire.KindMove, id)
	if err != nil {
		return withMatch(err, id)
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	if err := d.o.Backend.Move(ctx, tok, in.(*wire.Move)); err != nil {
		return withMatch(d.refuse(err), id)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, okReply{V: wire.V, OK: true})
}

// withMatch adds match_id to a refusal (the error message's member), as the socket's error
// frame names the move's match.
func withMatch(err error, match string) error {
	r, ok := err.(*door.Refusal)
	if !ok {
		return err
	}
	cp := *r
	cp.Extra = map[string]any{"match_id": match}
	for k, v := range r.Extra {
		cp.Extra[k] = v
	}
	return &cp
}

// feedback is POST /v0/matches/{id}/feedback {text, rating?}: {type:"feedback_received"}.
func (d *Door) feedback(c echo.Context) error {
	tok, err := matchConn(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	in, err := body(c, wire.KindFeedback, id)
	if err != nil {
		return withMatch(err, id)
	}
	ctx, cancel := d.call(c.Request().Context())
	defer cancel()
	fr, err := d.o.Backend.Feedback(ctx, tok, in.(*wire.Feedback))
	if err != nil {
		return withMatch(d.refuse(err), id)
	}
	return reply(c, fr)
}
