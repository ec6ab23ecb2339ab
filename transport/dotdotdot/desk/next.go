package desk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/dotdotdot/walkin"
)

// briefReply is the format=brief answer of §4.4: {round, turn, phase, exchange?, deadline,
// brief, answer}.
type briefReply struct {
	Round    string          `json:"round"`
	Turn     int             `json:"turn"`
	Phase    string          `json:"phase"`
	Exchange int             `json:"exchange,omitempty"`
	Deadline string          `json:"deadline"`
	Brief    string          `json:"brief"`
	Answer   json.RawMessage `json:"answer"`
}

// waitingReply is the answer when no move is open: {waiting: true, round, status[, brief]}.
type waitingReply struct {
	Waiting bool   `json:"waiting"`
	Round   string `json:"round"`
	Status  string `json:"status"`
	Brief   string `json:"brief,omitempty"`
}

// endedReply is the answer once the round is over: the result, and a brief with format=brief.
type endedReply struct {
	Waiting bool   `json:"waiting"`
	Round   string `json:"round"`
	Status  string `json:"status"`
	Result  any    `json:"result"`
	Brief   string `json:"brief,omitempty"`
}

// envelopeHead is what the brief form copies from the envelope itself, so its deadline and
// move are the envelope's to the byte.
type envelopeHead struct {
	Round    string          `json:"round"`
	Turn     int             `json:"turn"`
	Phase    string          `json:"phase"`
	Exchange int             `json:"exchange"`
	Deadline json.RawMessage `json:"deadline"`
}

// next is GET /v1/walkin/next?wait=N[&format=brief]. wait is whole seconds (default and cap
// Options.LongPoll, at most 30); format is "brief" or "envelope" (the default). The request's
// own context is passed down, so a client that drops its connection ends the wait; the desk
// never consumes a move on a poll, so nothing is lost if this answer is never read. No timeout
// middleware wraps this route: a late write must stay the JSON it is.
func (h *handlers) next(c echo.Context) error {
	if err := onlyQuery(c, "wait", "format"); err != nil {
		return err
	}
	tok, err := walkin.Token(c)
	if err != nil {
		return err
	}
	wait := h.opts.LongPoll
	if s := c.QueryParam("wait"); s != "" || c.QueryParams().Has("wait") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return door.Refuse(door.CodeBadRequest, "wait is whole seconds, 0 to 30")
		}
		if n < int(wait/time.Second) { // compared in seconds: n·1e9 could overflow
			wait = time.Duration(n) * time.Second
		}
	}
	brief := false
	switch c.QueryParam("format") {
	case "", "envelope":
	case "brief":
		brief = true
	default:
		return door.Refuse(door.CodeBadRequest, `format is "brief" or "envelope"`)
	}
	release, err := h.holdPoll(tok)
	if err != nil {
		return err
	}
	defer release()
	// The wait ends when the client goes (its request context) or the server drains.
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	if h.opts.Drain != nil {
		go func() {
			select {
			case <-h.opts.Drain:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	n, err := h.d.NextMove(ctx, tok, wait)
	if err != nil {
		if ctx.Err() != nil && c.Request().Context().Err() == nil {
			// Drained while the client is still there: tell it to poll again (elsewhere).
			r := waitingReply{Waiting: true, Status: "draining"}
			if brief {
				r.Brief = "The server is restarting. Poll again in a moment; your move is kept."
			}
			return sendJSON(c, http.StatusOK, r)
		}
		return err
	}
	switch {
	case n.Result != nil:
		r := endedReply{Round: n.Round, Status: n.Status, Result: resultOf(n.Result)}
		if r.Status == "" {
			r.Status = "revealed"
		}
		if brief {
			r.Brief = n.Brief
			if r.Brief == "" {
				r.Brief = fmt.Sprintf("Round %s is over and revealed. GET /v1/walkin/me for your record; join again to play another.", n.Round)
			}
		}
		return sendJSON(c, http.StatusOK, r)
	case n.Waiting || len(n.Envelope) == 0:
		r := waitingReply{Waiting: true, Round: n.Round, Status: n.Status}
		if brief {
			r.Brief = n.Brief
			if r.Brief == "" {
				r.Brief = "No move is open for your seat yet. Poll again."
			}
		}
		return sendJSON(c, http.StatusOK, r)
	case !brief:
		return rawJSON(c, http.StatusOK, n.Envelope)
	}
	var head envelopeHead
	if err := json.Unmarshal(n.Envelope, &head); err != nil {
		return fmt.Errorf("desk: envelope from the arena does not parse: %w", err)
	}
	r := briefReply{Round: head.Round, Turn: head.Turn, Phase: head.Phase, Exchange: head.Exchange, Brief: n.Brief, Answer: n.Answer}
	var dl string
	if json.Unmarshal(head.Deadline, &dl) == nil {
		r.Deadline = dl
	}
	if r.Brief == "" {
		r.Brief = fmt.Sprintf("Round %s, turn %d, %s phase: answer by %s.", r.Round, r.Turn, r.Phase, r.Deadline)
	}
	r.Answer = withEcho(r.Answer, head)
	return sendJSON(c, http.StatusOK, r)
}

// withEcho makes the brief's answer postable as is: the echo members of §4.4 (round, turn,
// phase, and exchange on talk) are set from the envelope when the game's answer lacks them.
// An answer that is not a JSON object is replaced by the bare echo.
func withEcho(answer json.RawMessage, head envelopeHead) json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(answer) > 0 && json.Unmarshal(answer, &m) != nil {
		m = map[string]json.RawMessage{}
	}
	set := func(k string, v any) {
		if _, ok := m[k]; !ok {
			m[k], _ = json.Marshal(v)
		}
	}
	set("round", head.Round)
	set("turn", head.Turn)
	set("phase", head.Phase)
	if head.Exchange > 0 {
		set("exchange", head.Exchange)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return answer
	}
	return out
}
