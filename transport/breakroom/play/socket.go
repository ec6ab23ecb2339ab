package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/labstack/echo/v4"

	"arena/games/breakroom/wire"
	"arena/transport/door"
	"arena/transport/ws"
)

// play is GET /v0/play: the WebSocket door (breakroom-protocol-v0.md "Quick start", "Transport",
// "Reconnecting"). On open the socket gets a challenge; one signed join; then moves, state
// requests and feedback, each refusal an error frame that changes nothing.
func (d *Door) play(c echo.Context) error {
	nonce, err := d.o.Nonces.Issue(door.ClientAddr(c.Request(), d.o.Forwarded))
	if err != nil {
		return err // rate_limited: refused before the upgrade, as an HTTP 429
	}
	s := &socket{d: d, nonce: nonce, caller: door.ClientAddr(c.Request(), d.o.Forwarded)}
	conn, err := d.up.Upgrade(c, s)
	if err != nil {
		d.o.Nonces.Discard(nonce)
		return err
	}
	s.send(conn, wire.Challenge{Nonce: nonce})
	return nil
}

// socket is one WebSocket connection: the Handler of its Conn. Text and Closed run on the
// connection's reader goroutine, one at a time; once joined, a writer goroutine (pump) drains
// the product's mailbox for it onto the Conn.
type socket struct {
	d      *Door
	caller string

	mu     sync.Mutex
	nonce  string             // the challenge it was given, discarded if it closes before joining
	id     string             // the product's connection, set by a join it took
	cancel context.CancelFunc // stops the pump
	// paidJoin is the socket's paid join once answered payment_required: its paid message
	// queues it.
	paidJoin *PaidJoin
}

// Close codes of a socket the server ends (RFC 6455 §7.4.2: 4000–4999 are the application's).
const (
	// CloseReplaced: a newer join with the same key took the seat ("a second connection with
	// the same key takes the seat from the first").
	CloseReplaced = 4001
	// CloseSlow: the socket let its mailbox fill up unread; its seat is away until it joins again.
	CloseSlow = 4002
	// closeGoingAway and closeTryAgain are RFC 6455's 1001 (the server is going down) and
	// 1013 (try again later).
	closeGoingAway = 1001
	closeTryAgain  = 1013
)

// pump writes the product's mailbox for connection id onto c until the connection ends: each
// message encoded and queued on the Conn (which never blocks), then acknowledged to the product
// with the next Next. The product ending the connection closes the socket: replaced with
// CloseReplaced, too slow with CloseSlow, shutting down with 1001, closed by the product (left
// its queue) with 1000.
func (s *socket) pump(ctx context.Context, c *ws.Conn, id string) {
	var after uint64
	for {
		items, err := s.d.o.Backend.Next(ctx, id, after)
		if err != nil {
			switch {
			case ctx.Err() != nil:
			case errors.Is(err, ErrReplaced):
				c.CloseWith(CloseReplaced, "another connection joined with this key and took the seat")
			case errors.Is(err, ErrSlow):
				c.CloseWith(CloseSlow, "too slow to read the match; join again")
			case errors.Is(err, ErrClosed):
				c.CloseWith(closeGoingAway, "the server is shutting down; join again when it is back")
			case errors.Is(err, ErrGone):
				c.Close()
			default:
				// the product did not answer: the socket cannot be kept in step, so it ends
				// and the agent joins again (its seat is kept)
				s.d.log.Warn("breakroom socket: mailbox drain failed", "err", err)
				c.CloseWith(closeTryAgain, "the server could not keep up; join again")
			}
			return
		}
		for _, it := range items {
			s.send(c, it.Msg)
			after = it.Seq
		}
	}
}

// send encodes m and queues it on c; a message over the frame limit is a bug (the games cut
// their state to fit, J31), logged and answered with an internal error frame.
func (s *socket) send(c *ws.Conn, m wire.Outbound) {
	b, err := wire.Encode(m)
	if err != nil {
		s.d.log.Error("breakroom socket: message not sent", "type", m.Type(), "err", err)
		b, _ = wire.Encode(wire.ErrorOf(door.CodeInternal, "the server could not write its answer", ""))
	}
	_ = c.Send(b)
}

// refuse sends err as an error frame (naming match when the refused message named one).
func (s *socket) refuse(c *ws.Conn, err error, match string) {
	r, ok := refusalOf(err)
	if !ok {
		s.d.log.Error("breakroom socket: request failed", "err", err)
	}
	s.send(c, errorOf(r, match))
}

// errorOf is refusal r as the error message; match_id is r's own when it names one. The
// refusal's other extra members (an unknown_game's games, a rate_limited's retry_after) ride
// beside code and detail, as the HTTP site's Shape writes them.
func errorOf(r *door.Refusal, match string) wire.Outbound {
	if m, ok := r.Extra["match_id"].(string); ok && m != "" {
		match = m
	}
	e := wire.ErrorOf(r.Code, r.Msg, match)
	extra := map[string]any{}
	for k, v := range r.Extra {
		switch k {
		case "type", "v", "code", "detail", "match_id":
		default:
			extra[k] = v
		}
	}
	if len(extra) == 0 {
		return e
	}
	return errorFrame{Error: e, extra: extra}
}

// errorFrame is an error message with extra members after its own.
type errorFrame struct {
	wire.Error
	extra map[string]any
}

// MarshalJSON writes the error's members, then the extra ones in name order.
func (e errorFrame) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(e.Error)
	if err != nil {
		return nil, err
	}
	x, err := json.Marshal(e.extra) // a map marshals in name order
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	return append(out, x[1:]...), nil
}

// Text is one inbound frame: decoded by wire's strict reader, then handled by its kind.
func (s *socket) Text(c *ws.Conn, msg []byte) {
	in, err := wire.Decode(msg)
	if err != nil {
		s.refuse(c, err, "")
		return
	}
	ctx, cancel := s.d.call(context.Background())
	defer cancel()
	s.mu.Lock()
	id := s.id
	s.mu.Unlock()
	if j, ok := in.(*wire.Join); ok {
		s.join(ctx, c, j, id)
		return
	}
	if p, ok := in.(*wire.Paid); ok && id == "" {
		s.paid(ctx, c, p)
		return
	}
	if id == "" {
		s.send(c, wire.ErrorOf(CodeNotJoined, "send a signed join first (the challenge's nonce, signed with your key)", matchOf(in)))
		return
	}
	switch m := in.(type) {
	case *wire.Move:
		if err := s.d.o.Backend.Move(ctx, id, m); err != nil {
			s.refuse(c, err, m.MatchID)
		}
	case *wire.StateRequest:
		st, err := s.d.o.Backend.State(ctx, id, m.MatchID, 0)
		if err != nil {
			s.refuse(c, err, m.MatchID)
			return
		}
		s.send(c, st)
	case *wire.Feedback:
		fr, err := s.d.o.Backend.Feedback(ctx, id, m)
		if err != nil {
			s.refuse(c, err, m.MatchID)
			return
		}
		s.send(c, fr)
	case *wire.Paid:
		if s.d.payer() == nil {
			s.send(c, wire.ErrorOf(CodePaymentsDisabled, "paid tables are not open on this server", ""))
			return
		}
		s.send(c, wire.ErrorOf(CodeAlreadyJoined, "this socket is queued or seated already; a paid message answers a payment_required", ""))
	}
}

// paid handles the socket's paid message: the socket's paid join (its payment_required) is the
// identity; the product takes the stake and the socket is queued as a join's would be. Without a
// paid join first: not_joined; without paid tables: payments_disabled.
func (s *socket) paid(ctx context.Context, c *ws.Conn, m *wire.Paid) {
	s.mu.Lock()
	pj := s.paidJoin
	s.mu.Unlock()
	if pj == nil {
		s.send(c, wire.ErrorOf(CodeNotJoined, "send a signed join with stake_sats first: paid answers its payment_required", ""))
		return
	}
	p := s.d.payer()
	req := *pj
	req.PaymentHash, req.Lnaddr = m.PaymentHash, m.PayoutLnaddr
	joined, err := p.Paid(ctx, req)
	if err != nil {
		s.refuse(c, err, "")
		return
	}
	pctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.id, s.cancel = joined.Conn, cancel
	s.mu.Unlock()
	go s.pump(pctx, c, joined.Conn)
}

// matchOf is the match an inbound message names ("" for none).
func matchOf(in wire.Inbound) string {
	switch m := in.(type) {
	case *wire.Move:
		return m.MatchID
	case *wire.StateRequest:
		return m.MatchID
	case *wire.Feedback:
		return m.MatchID
	}
	return ""
}

// join handles the socket's join: one per socket (already_joined after it). A join refused
// before its signature is checked (paid, unknown game) keeps the nonce, which is still good; one
// refused at or after the check (auth_failed, or by the product: already_playing, …) gets a fresh
// challenge after its error, the old nonce discarded, so the agent can sign again on the same
// socket.
func (s *socket) join(ctx context.Context, c *ws.Conn, j *wire.Join, id string) {
	if id != "" {
		s.send(c, wire.ErrorOf(CodeAlreadyJoined, "this socket has joined already; open a new socket for another join", ""))
		return
	}
	if err := s.d.preJoin(ctx, j); err != nil {
		s.refuse(c, err, "")
		return
	}
	jn, err := s.d.verifyJoin(j, ViaWebSocket)
	if err == nil {
		var joined Joined
		if joined, err = s.d.o.Backend.Join(ctx, jn); err == nil && joined.Conn == "" {
			// A paid join: payment_required, and the socket waits for its paid.
			s.mu.Lock()
			s.paidJoin = &PaidJoin{Key: jn.Key, Name: jn.Name, Spoilers: jn.Spoilers, Via: ViaWebSocket}
			s.mu.Unlock()
			s.send(c, joined.First)
			return
		}
		if err == nil {
			pctx, cancel := context.WithCancel(context.Background())
			s.mu.Lock()
			s.id, s.cancel = joined.Conn, cancel
			s.mu.Unlock()
			go s.pump(pctx, c, joined.Conn)
			return
		}
	}
	s.refuse(c, err, "")
	var r *door.Refusal
	if errors.As(err, &r) && r.Code == CodeBadRequest {
		return // a malformed key or signature: the nonce was not touched
	}
	s.rechallenge(c)
}

// CodeBadRequest is wire's bad_request.
const CodeBadRequest = wire.CodeBadRequest

// rechallenge discards the socket's nonce and sends a fresh challenge.
func (s *socket) rechallenge(c *ws.Conn) {
	s.mu.Lock()
	old := s.nonce
	s.mu.Unlock()
	s.d.o.Nonces.Discard(old)
	nonce, err := s.d.o.Nonces.Issue(s.caller)
	if err != nil {
		s.refuse(c, err, "")
		return
	}
	s.mu.Lock()
	s.nonce = nonce
	s.mu.Unlock()
	s.send(c, wire.Challenge{Nonce: nonce})
}

// Refused is a frame transport/ws refused: over the frame limit (too_large, the decoder's code
// and words), binary or not UTF-8 (bad_request).
func (s *socket) Refused(c *ws.Conn, err error) {
	var fe *ws.FrameError
	if errors.As(err, &fe) && errors.Is(err, ws.ErrTooLarge) {
		s.send(c, wire.ErrorOf(wire.CodeTooLarge, tooLargeDetail(fe.Size), ""))
		return
	}
	if errors.Is(err, ws.ErrBinary) {
		s.send(c, wire.ErrorOf(CodeBadRequest, "binary frames are refused; a message is one JSON text frame", ""))
		return
	}
	s.send(c, wire.ErrorOf(CodeBadRequest, "invalid UTF-8; a message is one JSON text frame", ""))
}

// tooLargeDetail is the decoder's too_large detail (wire.Decode's words) for a message of size
// bytes, so the socket and the HTTP body say the same.
func tooLargeDetail(size int) string {
	return fmt.Sprintf("message of %d bytes; frames over %d bytes are refused", size, wire.MaxFrame)
}

// Closed ends the socket: before a join its nonce is discarded (its caller's slot freed); after
// one the pump stops and the product hears Drop (a queued key leaves its queue, a seated one is
// away until it joins again; a replaced connection's Drop does nothing).
func (s *socket) Closed(c *ws.Conn, err error) {
	s.mu.Lock()
	id, nonce, cancel := s.id, s.nonce, s.cancel
	s.mu.Unlock()
	if id == "" {
		s.d.o.Nonces.Discard(nonce)
		return
	}
	cancel()
	s.d.o.Backend.Drop(id)
}
