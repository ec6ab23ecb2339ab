// Package live is Break Room's live reads (breakroom-protocol-v0.md "Public reads"): the live
// figures (GET /v0/live), the same figures as Server-Sent Events pushed on each change (GET
// /v0/live/stream, event "live"), and a running match's public log as Server-Sent Events (GET
// /r/{match_id}/live; ?narrate=1 for event "line" with the game's words).
//
// Every stream is push-fed: the figures' stream wakes on the product's change signal
// (Backend.LiveChanged), a match's stream reads the lines the table hands the product once they
// are stored (Backend.Follow), never a poll. A stalled reader never slows a table: the product
// drops a follower whose buffer (FollowBuffer lines) is full, and every write here has a
// deadline (WriteTimeout); a dropped stream is closed (the reader reconnects, with
// Last-Event-ID to resume). Only public lines go out: private lines never, not even those a
// replay shows once the match is over.
//
// Limits: MaxPerAddr open streams per client address (the 51st is 429 rate_limited), and
// MaxStreams open streams on the server (past it, 503 busy); both count /v0/live/stream and
// /r/{id}/live alike.
package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games"
	brgames "arena/games/breakroom"
	"arena/transport/door"
)

// Figures and bounds.
const (
	// MaxPerAddr is the most streams one client address keeps open (protocol: "429 rate_limited
	// past 50 open streams per address").
	MaxPerAddr = 50
	// DefaultMaxStreams is the server-wide stream cap ("503 busy when the server is full"): each
	// stream is one goroutine and one connection, a few KB each.
	DefaultMaxStreams = 2000
	// LiveTables is the most running tables /v0/live lists (newest first).
	LiveTables = 20
	// FollowBuffer is how many lines a match stream may have unwritten before it is dropped.
	FollowBuffer = 256
	// WriteTimeout bounds each write to a stream: a reader that takes longer is cut off.
	WriteTimeout = 10 * time.Second
	// Heartbeat is how often an idle stream sends an SSE comment, so proxies keep it open and a
	// vanished reader is noticed.
	Heartbeat = 15 * time.Second
	// DefaultCallTimeout bounds one call of the product.
	DefaultCallTimeout = 5 * time.Second
)

// Counts are live figures: agents Waiting in queues, agents Playing at running tables (house
// bots and the bartender not counted there but in House), running Tables.
type Counts struct {
	Waiting int `json:"waiting"`
	Playing int `json:"playing"`
	House   int `json:"house"`
	Tables  int `json:"tables"`
}

// Game is one game's live counts.
type Game struct {
	ID string `json:"id"`
	Counts
}

// Table is one running table (live_tables): Agents its agents' seats, House its house bots and
// the bartender.
type Table struct {
	MatchID   string    `json:"match_id"`
	Game      string    `json:"game"`
	Tier      string    `json:"tier"`
	Agents    int       `json:"agents"`
	House     int       `json:"house"`
	StartedAt time.Time `json:"-"`
}

// Figures is what the product says is live: each game's counts (in a stable order) and every
// running table. A Backend makes both from one state, so the counts are those of Tables (a
// snapshot never counts a table it does not list, nor lists one it does not count).
type Figures struct {
	Games  []Game
	Tables []Table
}

// Feed is a subscription to a running match's public lines (actors/breakroom's Follower):
// Backlog what is stored so far, then C each line stored after, closed after the end line, on
// Close or when the reader fell behind (Dropped).
type Feed struct {
	Backlog []games.Event
	C       <-chan games.Event
	Dropped func() bool
	Close   func()
}

// Backend is the product the live reads show (actors/breakroom's *Room, adapted in cmd/arena).
// Refusals are *games.Error with the protocol's code.
type Backend interface {
	// Live is the live figures.
	Live(ctx context.Context) (Figures, error)
	// LiveChanged is closed at the next change of the figures.
	LiveChanged() <-chan struct{}
	// Follow subscribes to running match id's public lines, at most buffer unread; unknown_match,
	// not_live once it is over.
	Follow(ctx context.Context, id string, buffer int) (Feed, error)
	// Narrator is game's words for its log lines (nil: each line is its type).
	Narrator(game string) games.Narrator
}

// Options configure the door. Backend is required.
type Options struct {
	Backend Backend
	// Forwarded: a proxy on this host appends X-Forwarded-For (door.ClientAddr).
	Forwarded bool
	// MaxStreams is the server-wide stream cap (zero: DefaultMaxStreams).
	MaxStreams int
	// FollowBuffer is a match stream's buffer (zero: FollowBuffer).
	FollowBuffer int
	// Drain, when closed, ends every stream (shutdown).
	Drain       <-chan struct{}
	CallTimeout time.Duration
}

// Door is the live reads; Mount adds their routes.
type Door struct {
	o Options

	streams *door.Streams

	snapMu   sync.Mutex
	snapWhen <-chan struct{} // the change signal current when snap was made
	snap     []byte
}

// New checks o and fills in the defaults.
func New(o Options) (*Door, error) {
	if o.Backend == nil {
		return nil, errors.New("live: Backend is required")
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.FollowBuffer <= 0 {
		o.FollowBuffer = FollowBuffer
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	return &Door{o: o, streams: door.NewStreams(MaxPerAddr, o.MaxStreams, "streams")}, nil
}

// Mount adds the routes to e (the Break Room site's echo).
func (d *Door) Mount(e *echo.Echo) error {
	e.GET("/v0/live", d.liveJSON)
	e.GET("/v0/live/stream", d.liveStream)
	e.GET("/r/:file/live", d.matchStream)
	return nil
}

// Open is how many streams are open (tests, ops).
func (d *Door) Open() int { return d.streams.Open() }

// take counts a new stream of addr: rate_limited past MaxPerAddr, busy past MaxStreams.
func (d *Door) take(addr string) (release func(), err error) { return d.streams.Take(addr) }

// refuse is err as the site writes it.
func refuse(err error) error {
	if r, ok := door.AsRefusal(err); ok {
		return r
	}
	return err
}

// snapshot is GET /v0/live's body: {v, waiting, playing, house, tables, games:[{id, …}],
// live_tables:[…]} (totals, per game, the running tables newest first, at most LiveTables). One
// body is made per change and shared by every reader.
func (d *Door) snapshot(ctx context.Context) ([]byte, <-chan struct{}, error) {
	when := d.o.Backend.LiveChanged()
	d.snapMu.Lock()
	defer d.snapMu.Unlock()
	if d.snap != nil && d.snapWhen == when {
		return d.snap, when, nil
	}
	cctx, cancel := context.WithTimeout(ctx, d.o.CallTimeout)
	defer cancel()
	f, err := d.o.Backend.Live(cctx)
	if err != nil {
		return nil, nil, err
	}
	b := body(f)
	d.snap, d.snapWhen = b, when
	return b, when, nil
}

type tableJSON struct {
	Table
	StartedAt string `json:"started_at"`
}

// body is the figures as /v0/live writes them.
func body(f Figures) []byte {
	type out struct {
		V int `json:"v"`
		Counts
		Games      []Game      `json:"games"`
		LiveTables []tableJSON `json:"live_tables"`
	}
	o := out{Games: f.Games, LiveTables: []tableJSON{}}
	if o.Games == nil {
		o.Games = []Game{}
	}
	for _, g := range f.Games {
		o.Waiting += g.Waiting
		o.Playing += g.Playing
		o.House += g.House
		o.Tables += g.Tables
	}
	ts := slices.Clone(f.Tables)
	slices.SortStableFunc(ts, func(a, b Table) int {
		if c := b.StartedAt.Compare(a.StartedAt); c != 0 {
			return c
		}
		return strings.Compare(b.MatchID, a.MatchID)
	})
	for i, t := range ts {
		if i == LiveTables {
			break
		}
		o.LiveTables = append(o.LiveTables, tableJSON{Table: t, StartedAt: t.StartedAt.UTC().Format("2006-01-02T15:04:05.000Z")})
	}
	b, _ := json.Marshal(o) // ints and strings: cannot fail
	return b
}

// liveJSON is GET /v0/live.
func (d *Door) liveJSON(c echo.Context) error {
	b, _, err := d.snapshot(c.Request().Context())
	if err != nil {
		return refuse(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSONBlob(http.StatusOK, b)
}

// stream is one open Server-Sent Events response.
type stream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// begin counts the stream and writes the SSE headers; the refusals come before any byte.
func (d *Door) begin(c echo.Context) (*stream, func(), error) {
	release, err := d.take(door.ClientAddr(c.Request(), d.o.Forwarded))
	if err != nil {
		return nil, nil, err
	}
	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &stream{w: w, rc: http.NewResponseController(w.Writer)}
	return s, release, s.flush()
}

// write writes one SSE block and flushes it, within WriteTimeout.
func (s *stream) write(block []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(WriteTimeout))
	if _, err := s.w.Write(block); err != nil {
		return err
	}
	return s.flush()
}

func (s *stream) flush() error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(WriteTimeout))
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// liveStream is GET /v0/live/stream: event "live" with /v0/live's body now, then again each time
// it changes.
func (d *Door) liveStream(c echo.Context) error {
	ctx := c.Request().Context()
	b, when, err := d.snapshot(ctx)
	if err != nil {
		return refuse(err)
	}
	s, release, err := d.begin(c)
	if err != nil {
		return refuse(err)
	}
	defer release()
	if err := s.write(door.SSEEvent(-1, "live", b)); err != nil {
		return nil
	}
	beat := time.NewTicker(Heartbeat)
	defer beat.Stop()
	last := b
	for {
		select {
		case <-when:
			nb, nw, err := d.snapshot(ctx)
			if err != nil {
				// The product did not answer: look again at its next change or beat.
				when = d.o.Backend.LiveChanged()
				continue
			}
			when = nw
			if string(nb) == string(last) {
				continue
			}
			last = nb
			if err := s.write(door.SSEEvent(-1, "live", nb)); err != nil {
				return nil
			}
		case <-beat.C:
			if err := s.write([]byte(": beat\n\n")); err != nil {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-d.o.Drain:
			return nil
		}
	}
}

// matchStream is GET /r/{match_id}/live: the match's public lines so far, each as one data line
// (its seq renumbered over the public lines: 0, 1, 2, …; the SSE id is that seq), then each new
// one as it is stored, then event "end" after match_end or match_abandoned, and the stream
// closes. ?narrate=1: each line as event "line" with {"e": line, "n": [words]}. A
// Last-Event-ID (an EventSource reconnecting) resumes after that seq.
func (d *Door) matchStream(c echo.Context) error {
	id := c.Param("file")
	narrate := c.QueryParam("narrate") == "1"
	resume := int64(-1)
	if v := c.Request().Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			resume = n
		}
	}
	ctx := c.Request().Context()
	// The caps first: a refused stream subscribes to nothing.
	release, err := d.take(door.ClientAddr(c.Request(), d.o.Forwarded))
	if err != nil {
		return refuse(err)
	}
	defer release()
	cctx, cancel := context.WithTimeout(ctx, d.o.CallTimeout)
	feed, err := d.o.Backend.Follow(cctx, id, d.o.FollowBuffer)
	cancel()
	if err != nil {
		return refuse(err)
	}
	defer feed.Close()
	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &stream{w: w, rc: http.NewResponseController(w.Writer)}
	if s.flush() != nil {
		return nil
	}
	var nar *brgames.Narration
	seq := int64(0)
	// send writes one public line; done after the end line (event end written).
	send := func(ev games.Event) (done bool, err error) {
		if nar == nil {
			var n games.Narrator
			if narrate {
				n = d.o.Backend.Narrator(gameOf(ev))
			}
			nar = brgames.NewNarration(n)
		}
		words := nar.Words(ev) // every line, so the names are read from match_start
		n := seq
		seq++
		if n > resume {
			pub := ev
			pub.Seq = n + 1
			line, err := brgames.Line(pub)
			if err != nil {
				return false, err
			}
			block := door.SSEEvent(n, "", line)
			if narrate {
				data, _ := json.Marshal(struct {
					E json.RawMessage `json:"e"`
					N []string        `json:"n"`
				}{line, words})
				block = door.SSEEvent(n, "line", data)
			}
			if err := s.write(block); err != nil {
				return false, err
			}
		}
		if ev.Type != "match_end" && ev.Type != "match_abandoned" {
			return false, nil
		}
		end, _ := json.Marshal(struct {
			MatchID string `json:"match_id"`
			Type    string `json:"type"`
		}{id, ev.Type})
		return true, s.write(door.SSEEvent(-1, "end", end))
	}
	for _, ev := range feed.Backlog {
		if done, err := send(ev); done || err != nil {
			return nil
		}
	}
	beat := time.NewTicker(Heartbeat)
	defer beat.Stop()
	for {
		select {
		case ev, ok := <-feed.C:
			if !ok {
				// Dropped for falling behind (or the product closed): the stream closes; an
				// EventSource reconnects and resumes from its Last-Event-ID.
				return nil
			}
			if done, err := send(ev); done || err != nil {
				return nil
			}
		case <-beat.C:
			if err := s.write([]byte(": beat\n\n")); err != nil {
				return nil
			}
		case <-ctx.Done():
			return nil
		case <-d.o.Drain:
			return nil
		}
	}
}

// gameOf is the game a match_start line names ("" for another line).
func gameOf(ev games.Event) string {
	var p struct {
		Game string `json:"game"`
	}
	_ = json.Unmarshal(ev.Payload, &p)
	return p.Game
}
