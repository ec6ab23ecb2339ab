package pages

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/storage"
	"arena/transport/door"
)

// A showing of a recorded round (docs/protocol-notes.md "DOTDOTDOT recordings"): a revealed
// round's public events shown again at the showing's speed, on a page of its own with its own
// feed. The showing's actor paces it; the page and its feed only read what it has shown so far
// (ShowingSource), every Options.Poll, the way the live feed reads a round.
//
//	GET /r/{round}/showings/{seq}                 the showing's page (seq: the Unix second it started)
//	GET /v1/rounds/{round}/showings/{seq}/events  its feed as Server-Sent Events, as the live
//	                                              feed's (id: <seq>, event: ev; then event: end
//	                                              with reason "shown")

// ShowingSource is what the showing pages read when Source has it (*dotdotdot.Arena does): a
// showing with the public events it has shown so far; an unknown showing is unknown_round.
type ShowingSource interface {
	ShowingOf(ctx context.Context, round string, seq uint32) (dotdotdot.Showing, error)
}

// ReplaySource lists a round's showings (their replay anchors) when Source has it
// (*dotdotdot.Arena does): the round's page links each showing's page.
type ReplaySource interface {
	Replays(ctx context.Context, round string) ([]dotdotdot.Replay, error)
}

// ShowingsSource lists the latest showings of every round when Source has it (*dotdotdot.Arena
// does): the lobby lists them, running and shown, newest start first, at most n.
type ShowingsSource interface {
	RecentShowings(ctx context.Context, n int) ([]storage.Showing, error)
}

// LobbyShowing is a showing as the lobby lists it (HTML and JSON): its page, the recorded round,
// the speed (1 is the recorded pace), when it started (RFC 3339, UTC; Seq is that Unix second,
// the replay anchor's seq), whether it is still running, and its replay anchor (§5.5 kind
// replay): Anchor "registered" with its Register Data transaction Tx (hex), or "pending" while
// the chain actor has not answered.
type LobbyShowing struct {
	Page    string `json:"page"`
	Round   string `json:"round"`
	Seq     uint32 `json:"seq"`
	Speed   int    `json:"speed"`
	Started string `json:"started"`
	Running bool   `json:"running"`
	Hash    string `json:"hash"`
	Anchor  string `json:"anchor"`
	Tx      string `json:"tx,omitempty"`
}

// Replay anchor states as the lobby names them.
const (
	AnchorRegistered = "registered"
	AnchorPending    = "pending"
)

// lobbyShowing translates a stored showing for the lobby.
func lobbyShowing(sh storage.Showing) LobbyShowing {
	l := LobbyShowing{Page: dotdotdot.ShowingPath(sh.Round, sh.Seq), Round: sh.Round, Seq: sh.Seq, Speed: sh.Speed,
		Started: sh.Started.UTC().Format(time.RFC3339), Running: !sh.Ended, Hash: sh.Hash, Anchor: AnchorPending, Tx: sh.Tx}
	if sh.Tx != "" {
		l.Anchor = AnchorRegistered
	}
	return l
}

// EndShown is the end reason of a showing's feed once its last event has been shown.
const EndShown = "shown"

// showingParams reads {round} and {seq}; ok false when either is not of its shape.
func showingParams(c echo.Context) (string, uint32, bool) {
	round := c.Param("round")
	n, err := strconv.ParseUint(c.Param("seq"), 10, 32)
	if !roundShape.MatchString(round) || err != nil || n == 0 || strconv.FormatUint(n, 10) != c.Param("seq") {
		return "", 0, false
	}
	return round, uint32(n), true
}

// showingView is what the showing page renders.
type showingView struct {
	roundView
	Seq     uint32
	Speed   int
	Started string
	Tx      string
	Hash    string
	Shown   int
	Total   int
	Ended   bool
}

func (p *pages) showing(c echo.Context) error {
	src, ok := p.o.Source.(ShowingSource)
	round, seq, shaped := showingParams(c)
	if !ok || !shaped {
		return p.notFound(c, "There is no showing by that name; showings are at /r/T-<n>/showings/<start>.")
	}
	ctx, cancel := p.ctx(c)
	defer cancel()
	sh, err := src.ShowingOf(ctx, round, seq)
	if code := codeOf(err); code == door.CodeUnknownRound {
		return p.notFound(c, "There is no showing of "+round+" that started then.")
	}
	if err != nil {
		return err
	}
	rv := newRoundView(p.o.Narrator, round, publicOnly(sh.Events))
	v := showingView{roundView: rv, Seq: seq, Speed: sh.Speed, Started: sh.Started.UTC().Format(time.RFC3339), Tx: sh.Tx, Hash: sh.Hash,
		Shown: len(rv.Lines), Total: sh.Total, Ended: sh.Ended}
	return p.render(c, http.StatusOK, "showing.html", map[string]any{"S": v, "R": v.roundView, "Site": p.site(c)})
}

// showingFeed serves GET /v1/rounds/{round}/showings/{seq}/events.
func (p *pages) showingFeed(c echo.Context) error {
	src, ok := p.o.Source.(ShowingSource)
	round, seq, shaped := showingParams(c)
	if !ok {
		return door.Refuse(door.CodeNotFound, "this arena shows no recordings")
	}
	if !shaped {
		return door.Refuse(door.CodeBadRequest, "round must be T-<n> and the showing its start, a Unix second")
	}
	for k := range c.QueryParams() {
		if k != "after" {
			return door.Refuse(door.CodeBadRequest, "unknown query parameter "+strconv.Quote(k))
		}
	}
	var after int64
	if s := c.Request().Header.Get("Last-Event-ID"); s != "" {
		after, _ = strconv.ParseInt(s, 10, 64)
	} else if s := c.QueryParam("after"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return door.Refuse(door.CodeBadRequest, "after must be a seq (an integer ≥ 0)")
		}
		after = n
	}
	read := func() (dotdotdot.Showing, error) {
		ctx, cancel := p.ctx(c)
		defer cancel()
		return src.ShowingOf(ctx, round, seq)
	}
	sh, err := read()
	if err != nil {
		return err // unknown_round (404) and the rest, as JSON, before the stream starts
	}
	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	write := func(s string) error {
		_ = rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if _, err := w.Write([]byte(s)); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := write("retry: 2000\n\n"); err != nil {
		return nil
	}
	reqCtx := c.Request().Context()
	poll := time.NewTicker(p.o.Poll)
	defer poll.Stop()
	beat := time.NewTicker(p.o.Heartbeat)
	defer beat.Stop()
	end := time.NewTimer(p.o.MaxFeed)
	defer end.Stop()
	for {
		evs := publicOnly(sh.Events)
		names := p.o.Narrator.Names(evs)
		for _, e := range evs {
			if e.Seq <= after {
				continue
			}
			b, _ := json.Marshal(lineOf(p.o.Narrator, e, names)) // strings and ints: cannot fail
			if err := write("id: " + strconv.FormatInt(e.Seq, 10) + "\nevent: ev\ndata: " + string(b) + "\n\n"); err != nil {
				return nil
			}
			after = e.Seq
		}
		if sh.Ended {
			_ = write("event: end\ndata: {\"reason\":\"" + EndShown + "\"}\n\n")
			return nil
		}
		select {
		case <-reqCtx.Done():
			return nil
		case <-p.o.Drain:
			_ = write("event: end\ndata: {\"reason\":\"later\"}\n\n")
			return nil
		case <-end.C:
			_ = write("event: end\ndata: {\"reason\":\"later\"}\n\n")
			return nil
		case <-beat.C:
			if err := write(": beat\n\n"); err != nil {
				return nil
			}
		case <-poll.C:
			next, err := read()
			if err != nil {
				p.o.Logger.Warn("showing feed: unreadable", "round", round, "seq", seq, "err", err)
				continue
			}
			sh = next
		}
	}
}
