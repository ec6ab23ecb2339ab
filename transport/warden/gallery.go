package warden

import (
	_ "embed"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games/warden/feed"
	"arena/storage"
	"arena/transport/door"
)

// Gallery is the Warden's public Gallery (warden-games §15): the SSE feeds and the spectator
// dashboard page that reads them.
//
//	GET /v1/warden/feed              the global feed (§15.3's global types and the lobby)
//	GET /v1/warden/feed?events=all   every public event of every match, under the global seq
//	GET /v1/warden/matches/{id}/feed one match's events, seq from 0, ending with event "end"
//	GET /gallery (and /)             the dashboard page (gallery.html)
//
// A feed sends what is stored after the reader's Last-Event-ID (none: from the first), then each
// event as it is appended: the store wakes the feed only once the event's transaction has
// committed (storage.WardenFeedWake), so nothing is sent that a crash could take back. Each
// message is "id: <seq>", "event: warden", "data: <envelope>"; a comment line keeps an idle stream
// open; the lobby is sent without an id, so a reconnect's Last-Event-ID never skips an event.
// Streams are counted per client address and in all: past MaxPerClient the site's rate_limited
// (429), past MaxStreams busy (503), before any byte is written.
type Gallery struct {
	Store *storage.Store
	// KeepAlive is the interval of the keep-alive comment on an idle stream (zero: 15 s).
	KeepAlive time.Duration
	// LobbyEvery is the interval of the global feed's lobby event (zero: 10 s; negative: none).
	LobbyEvery time.Duration
	// MaxPerClient bounds the streams one client address holds open (zero: 4).
	MaxPerClient int
	// MaxStreams bounds the streams open in all (zero: 1000).
	MaxStreams int
	// Forwarded: a proxy on this host appends X-Forwarded-For (door.ClientAddr).
	Forwarded bool
	// Drain, when closed, ends every stream (server shutdown).
	Drain <-chan struct{}
	// Now is the lobby's clock (nil: time.Now).
	Now func() time.Time

	streamsOnce sync.Once
	streams     *door.Streams
}

// feedPage bounds one read of the store while a stream catches up.
const feedPage = 256

// writeTimeout bounds each write to a stream: a reader that takes longer is cut off.
const writeTimeout = 10 * time.Second

//go:embed gallery.html
var galleryPage []byte

func (g *Gallery) mount(e *echo.Echo) {
	e.GET("/v1/warden/feed", g.global)
	e.GET("/v1/warden/matches/:id/feed", g.match)
	e.GET("/gallery", g.page)
	e.GET("/", g.page)
}

func (g *Gallery) page(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:")
	return c.Blob(http.StatusOK, "text/html; charset=utf-8", galleryPage)
}

// take counts one stream of addr, or refuses it: rate_limited past MaxPerClient, busy past
// MaxStreams.
func (g *Gallery) take(addr string) (release func(), err error) {
	g.streamsOnce.Do(func() {
		perClient, total := g.MaxPerClient, g.MaxStreams
		if perClient <= 0 {
			perClient = 4
		}
		if total <= 0 {
			total = 1000
		}
		g.streams = door.NewStreams(perClient, total, "Gallery feeds")
	})
	return g.streams.Take(addr)
}

// lastEventID reads Last-Event-ID: ok false when there is none; a value that is not a seq is
// bad_request.
func lastEventID(c echo.Context) (n uint64, ok bool, err error) {
	v := c.Request().Header.Get("Last-Event-ID")
	if v == "" {
		return 0, false, nil
	}
	n, err = strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, false, refuse("bad_request", "Last-Event-ID "+strconv.Quote(v)+" is not a sequence number")
	}
	return n, true, nil
}

// sse is one open event stream.
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (s *sse) write(block []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := s.w.Write(block); err != nil {
		return err
	}
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// begin counts the stream and writes the SSE headers; refusals come before any byte.
func (g *Gallery) begin(c echo.Context) (*sse, func(), error) {
	release, err := g.take(door.ClientAddr(c.Request(), g.Forwarded))
	if err != nil {
		return nil, nil, err
	}
	w := c.Response()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, rc: http.NewResponseController(w.Writer)}
	if err := s.write([]byte(": warden gallery\n\n")); err != nil {
		release()
		return nil, nil, nil
	}
	return s, release, nil
}

// global is GET /v1/warden/feed: ?events=all for every public event, else the global types.
func (g *Gallery) global(c echo.Context) error {
	all := false
	switch v := c.QueryParam("events"); v {
	case "":
	case "all":
		all = true
	default:
		return refuse("bad_request", "events "+strconv.Quote(v)+": the only value is all")
	}
	after, _, err := lastEventID(c)
	if err != nil {
		return err
	}
	s, release, err := g.begin(c)
	if s == nil || err != nil {
		return err
	}
	defer release()
	read := func() ([]feed.Envelope, error) { return g.Store.WardenFeed(after, feedPage) }
	keep := func(e feed.Envelope) bool { return all || feed.Global(e.Type) }
	g.serve(c, s, read, keep, func(e feed.Envelope) { after = e.Seq }, true, "")
	return nil
}

// match is GET /v1/warden/matches/{id}/feed: unknown_match for a match the Warden has no record
// or event of.
func (g *Gallery) match(c echo.Context) error {
	id := c.Param("id")
	last, resume, err := lastEventID(c)
	if err != nil {
		return err
	}
	from := uint64(0)
	if resume {
		from = last + 1
	}
	known := false
	if err := g.Store.WardenView(func(tx storage.WardenTx) error {
		var rec json.RawMessage
		found, err := tx.Get("match/"+id, &rec)
		known = found
		return err
	}); err != nil {
		return err
	}
	if !known {
		evs, err := g.Store.WardenMatchFeed(id, 0, 1)
		if err != nil && !errors.Is(err, storage.ErrBadKey) {
			return err
		}
		if len(evs) == 0 {
			return refuse("unknown_match", "no match "+strconv.Quote(id))
		}
	}
	s, release, err := g.begin(c)
	if s == nil || err != nil {
		return err
	}
	defer release()
	read := func() ([]feed.Envelope, error) { return g.Store.WardenMatchFeed(id, from, feedPage) }
	g.serve(c, s, read, func(feed.Envelope) bool { return true }, func(e feed.Envelope) { from = e.Seq + 1 }, false, id)
	return nil
}

// terminal are the types after which a match's feed ends (once what was stored with them is sent).
var terminal = []string{feed.TypeMatchSettled, feed.TypeMatchCanceled, feed.TypeMatchVoided}

// serve runs one stream: read what is stored after the cursor, send what keep takes, advance the
// cursor; when caught up, end a match feed that sent its terminal event, else wait for the next
// commit, a keep-alive or a lobby beat (lobby: the global feed), the reader leaving or a drain.
func (g *Gallery) serve(c echo.Context, s *sse, read func() ([]feed.Envelope, error), keep func(feed.Envelope) bool,
	advance func(feed.Envelope), lobby bool, match string) {
	ctx := c.Request().Context()
	ka := g.KeepAlive
	if ka <= 0 {
		ka = 15 * time.Second
	}
	beat := time.NewTicker(ka)
	defer beat.Stop()
	var lobbyC <-chan time.Time
	if every := g.LobbyEvery; lobby && every >= 0 {
		if every == 0 {
			every = 10 * time.Second
		}
		t := time.NewTicker(every)
		defer t.Stop()
		lobbyC = t.C
	}
	var lastSeq uint64
	ended := ""
	for {
		wake := g.Store.WardenFeedWake() // before the read: a commit after it closes this channel
		evs, err := read()
		if err != nil {
			return // the reader reconnects with its Last-Event-ID
		}
		for _, e := range evs {
			advance(e)
			lastSeq = e.Seq
			if !keep(e) {
				continue
			}
			data, err := json.Marshal(e)
			if err != nil {
				return
			}
			if s.write(door.SSEEvent(int64(e.Seq), "warden", data)) != nil {
				return
			}
			if slices.Contains(terminal, e.Type) {
				ended = e.Type
			}
		}
		if len(evs) == feedPage {
			continue
		}
		if match != "" && ended != "" {
			end, _ := json.Marshal(map[string]string{"match_id": match, "type": ended})
			_ = s.write(door.SSEEvent(-1, "end", end))
			return
		}
		select {
		case <-wake:
		case <-beat.C:
			if s.write([]byte(": keep-alive\n\n")) != nil {
				return
			}
		case <-lobbyC:
			ev, err := g.lobby()
			if err != nil {
				continue
			}
			env, err := ev.Envelope(lastSeq)
			if err != nil {
				continue
			}
			data, _ := json.Marshal(env)
			if s.write(door.SSEEvent(-1, "warden", data)) != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-g.Drain:
			return
		}
	}
}

// lobby is the lobby event now: each queue's waiting entries and the matches LIVE, from
// warden_state (§15.3).
func (g *Gallery) lobby() (feed.Event, error) {
	now := time.Now
	if g.Now != nil {
		now = g.Now
	}
	waiting := map[[2]string]int{}
	var order [][2]string
	live := 0
	err := g.Store.WardenKeys("queue/", func(key string, _ []byte) error {
		parts := strings.Split(key, "/") // queue/<game>/<stake>/<at>/<ticket>
		if len(parts) < 3 {
			return nil
		}
		k := [2]string{parts[1], parts[2]}
		if waiting[k] == 0 {
			order = append(order, k)
		}
		waiting[k]++
		return nil
	})
	if err != nil {
		return feed.Event{}, err
	}
	err = g.Store.WardenKeys("match/", func(_ string, v []byte) error {
		var m struct {
			Status string `json:"status"`
		}
		if json.Unmarshal(v, &m) == nil && m.Status == StatusLive {
			live++
		}
		return nil
	})
	if err != nil {
		return feed.Event{}, err
	}
	d := feed.Lobby{LiveMatches: live}
	for _, k := range order {
		stake, err := strconv.ParseInt(k[1], 10, 64)
		if err != nil {
			continue
		}
		d.Queues = append(d.Queues, feed.Queue{Game: k[0], Stake: stake, Waiting: waiting[k]})
	}
	return d.Event(now()), nil
}
