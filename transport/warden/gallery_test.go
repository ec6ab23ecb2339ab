package warden

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"arena/games/warden/feed"
	"arena/storage"
)

// galleryRig is a store, the Gallery on the Warden site's error answer, and a server.
type galleryRig struct {
	t     *testing.T
	store *storage.Store
	g     *Gallery
	srv   *httptest.Server
}

func newGalleryRig(t *testing.T, g *Gallery) *galleryRig {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	g.Store = s
	drain := make(chan struct{})
	g.Drain = drain
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	doors := &Doors{Store: s, Games: []string{"warden.claims", "warden.dilemma"}, Now: time.Now, NoRail: "no rail in the Gallery's tests"}
	Site{Doors: doors, Reads: &Reads{Store: s}, Gallery: g}.Mount(e)
	r := &galleryRig{t: t, store: s, g: g, srv: httptest.NewServer(e)}
	t.Cleanup(func() {
		close(drain)
		r.srv.CloseClientConnections()
		r.srv.Close()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

// append writes evs in one WardenUpdate, with a match record for each match named.
func (r *galleryRig) append(evs ...feed.Event) {
	r.t.Helper()
	if err := r.store.WardenUpdate(func(tx storage.WardenTx) error {
		for _, ev := range evs {
			if err := tx.Put("match/"+ev.MatchID(), map[string]string{"id": ev.MatchID(), "status": StatusLive}); err != nil {
				return err
			}
			if _, err := tx.AppendFeed(ev); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
}

// sseMsg is one message of an event stream: its id (-1: none), event name and data, or a comment.
type sseMsg struct {
	ID      int64
	Event   string
	Data    string
	Comment string
}

// stream is an open event stream read message by message.
type stream struct {
	t    *testing.T
	resp *http.Response
	rd   *bufio.Reader
}

// open GETs path with Last-Event-ID last ("" for none); the response must be 200 text/event-stream.
func (r *galleryRig) open(path, last string) *stream {
	r.t.Helper()
	resp := r.get(path, last)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		r.t.Fatalf("GET %s: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &stream{t: r.t, resp: resp, rd: bufio.NewReader(resp.Body)}
	r.t.Cleanup(func() { resp.Body.Close() })
	if m, err := s.next(); err != nil || m.Comment != "warden gallery" {
		r.t.Fatalf("first message %+v %v", m, err)
	}
	return s
}

func (r *galleryRig) get(path, last string) *http.Response {
	r.t.Helper()
	req, _ := http.NewRequest("GET", r.srv.URL+path, nil)
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	return resp
}

// next reads one message (a comment counts as one); io.EOF once the server closed the stream.
func (s *stream) next() (sseMsg, error) {
	m := sseMsg{ID: -1}
	seen := false
	for {
		line, err := s.rd.ReadString('\n')
		if err != nil {
			return m, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && seen:
			return m, nil
		case line == "":
		case strings.HasPrefix(line, ": "):
			m.Comment, seen = line[2:], true
		case strings.HasPrefix(line, "id: "):
			fmt.Sscan(line[4:], &m.ID)
			seen = true
		case strings.HasPrefix(line, "event: "):
			m.Event, seen = line[7:], true
		case strings.HasPrefix(line, "data: "):
			m.Data, seen = line[6:], true
		default:
			s.t.Fatalf("stray line %q", line)
		}
	}
}

// event reads up to the next warden or end event, skipping comments.
func (s *stream) event() sseMsg {
	s.t.Helper()
	for {
		m, err := s.next()
		if err != nil {
			s.t.Fatalf("stream: %v", err)
		}
		if m.Comment == "" {
			return m
		}
	}
}

func envOf(t *testing.T, m sseMsg) feed.Envelope {
	t.Helper()
	var e feed.Envelope
	if m.Event != "warden" || json.Unmarshal([]byte(m.Data), &e) != nil {
		t.Fatalf("not a warden event: %+v", m)
	}
	return e
}

var gt0 = time.Date(2026, 11, 30, 3, 10, 0, 0, time.UTC)

func gh(match string) feed.Head {
	return feed.Head{At: gt0, MatchID: match, Game: "warden.claims"}
}

func stepOpened(match string, round int) feed.Event {
	return feed.StepOpened{Round: round, Step: feed.StepMessage, Deadline: gt0.Add(20 * time.Second)}.Event(gh(match))
}

func settledEv(match string) feed.Event {
	return feed.MatchSettled{LedgerRows: [2]uint64{1, 2}, LedgerHead: feed.LedgerHead{Seq: 2, RowHash: "sha256:" + strings.Repeat("ab", 32)},
		StandingAfter: feed.Pair[feed.Standing]{A: feed.Standing{Tier: "ELITE", Matches: 1, WinRateBps: 10000, NetTotal: 4750},
			B: feed.Standing{Tier: "UNDERWATER", Matches: 1, NetTotal: -275000}}}.Event(gh(match))
}

// A match feed sends what is stored, then each event as it commits, ids = the match's seq from
// 0 with each envelope's seq the same; a reader that reconnects with Last-Event-ID gets exactly
// the events after it, no gap and no duplicate; after match_settled (and what was stored with it)
// the stream says end and closes.
func TestGalleryMatchFeedResumesWithoutGapOrDuplicate(t *testing.T) {
	r := newGalleryRig(t, &Gallery{})
	const m = "wm_00000000000000a1"
	r.append(stepOpened("wm_00000000000000ff", 1)) // another match's event first: global seq 1
	for i := 1; i <= 3; i++ {
		r.append(stepOpened(m, i))
	}
	s := r.open("/v1/warden/matches/"+m+"/feed", "")
	for want := int64(0); want < 3; want++ {
		msg := s.event()
		e := envOf(t, msg)
		if msg.ID != want || e.Seq != uint64(want) || e.MatchID != m || e.Round != int(want)+1 {
			t.Fatalf("stored event %d: id %d %+v", want, msg.ID, e)
		}
	}
	r.append(stepOpened(m, 4), stepOpened(m, 5)) // live: the commit wakes the stream
	for want := int64(3); want < 5; want++ {
		if msg := s.event(); msg.ID != want || envOf(t, msg).Round != int(want)+1 {
			t.Fatalf("live event %d: %+v", want, msg)
		}
	}
	s.resp.Body.Close()
	r.append(stepOpened(m, 6))
	s2 := r.open("/v1/warden/matches/"+m+"/feed", "3")
	for want := int64(4); want < 6; want++ {
		if msg := s2.event(); msg.ID != want || envOf(t, msg).Round != int(want)+1 {
			t.Fatalf("resumed after 3: want %d, got %+v", want, msg)
		}
	}
	r.append(settledEv(m))
	if msg := s2.event(); msg.ID != 6 || envOf(t, msg).Type != feed.TypeMatchSettled {
		t.Fatalf("settled: %+v", msg)
	}
	end := s2.event()
	if end.Event != "end" || end.ID != -1 || end.Data != `{"match_id":"`+m+`","type":"match_settled"}` {
		t.Fatalf("end: %+v", end)
	}
	if _, err := s2.next(); err != io.EOF {
		t.Fatalf("after end: %v, want EOF", err)
	}
	// A settled match's feed, opened afresh, sends everything and ends.
	s3 := r.open("/v1/warden/matches/"+m+"/feed", "5")
	if msg := s3.event(); msg.ID != 6 {
		t.Fatalf("after 5: %+v", msg)
	}
	if msg := s3.event(); msg.Event != "end" {
		t.Fatalf("after 5 then: %+v", msg)
	}
}

// The global feed carries the global types under the global seq; ?events=all every event; both
// resume from Last-Event-ID.
func TestGalleryGlobalFeed(t *testing.T) {
	r := newGalleryRig(t, &Gallery{LobbyEvery: -1})
	const m = "wm_00000000000000b2"
	started := feed.MatchStarted{RulesVersion: "warden.claims/1", SeedHash: "sha256:" + strings.Repeat("cd", 32),
		Params: feed.Params{Rounds: 5, RakeBps: 500}}.Event(gh(m))
	r.append(started, stepOpened(m, 1), stepOpened(m, 2), settledEv(m))
	g := r.open("/v1/warden/feed", "")
	if msg := g.event(); msg.ID != 1 || envOf(t, msg).Type != feed.TypeMatchStarted {
		t.Fatalf("global first: %+v", msg)
	}
	if msg := g.event(); msg.ID != 4 || envOf(t, msg).Type != feed.TypeMatchSettled || envOf(t, msg).Seq != 4 {
		t.Fatalf("global second: %+v", msg)
	}
	all := r.open("/v1/warden/feed?events=all", "1")
	for want := int64(2); want <= 4; want++ {
		if msg := all.event(); msg.ID != want {
			t.Fatalf("all after 1: want %d, got %+v", want, msg)
		}
	}
	r.append(stepOpened(m, 3))
	if msg := all.event(); msg.ID != 5 {
		t.Fatalf("all live: %+v", msg)
	}
}

// Refusals come before any byte, in the Warden's error body: a Last-Event-ID that is not a seq, an
// events value other than all, an unknown match; a client past MaxPerClient open feeds is
// rate_limited until one closes.
func TestGalleryRefusals(t *testing.T) {
	r := newGalleryRig(t, &Gallery{MaxPerClient: 2, LobbyEvery: -1})
	refused := func(path, last string, status int, code string) {
		t.Helper()
		resp := r.get(path, last)
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != status || body["error"] != code || body["v"] != 1.0 {
			t.Fatalf("GET %s (Last-Event-ID %q): %d %v %v, want %d %s", path, last, resp.StatusCode, body, err, status, code)
		}
	}
	refused("/v1/warden/feed", "x1", 400, "bad_request")
	refused("/v1/warden/feed", "-1", 400, "bad_request")
	refused("/v1/warden/feed?events=some", "", 400, "bad_request")
	refused("/v1/warden/matches/wm_0000000000000000/feed", "", 404, "unknown_match")
	a := r.open("/v1/warden/feed", "")
	r.open("/v1/warden/feed?events=all", "")
	refused("/v1/warden/feed", "", 429, "rate_limited")
	a.resp.Body.Close()
	for i := 0; ; i++ { // the server notices the close when it next reads the connection
		resp := r.get("/v1/warden/feed", "")
		if resp.StatusCode == 200 {
			resp.Body.Close()
			break
		}
		resp.Body.Close()
		if i == 500 {
			t.Fatal("a closed feed still counts against its client")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An idle stream gets keep-alive comments; the global feed's lobby, without an id, counts the
// queues' waiting entries and the LIVE matches.
func TestGalleryKeepAliveAndLobby(t *testing.T) {
	r := newGalleryRig(t, &Gallery{KeepAlive: time.Millisecond, LobbyEvery: 2 * time.Millisecond, Now: func() time.Time { return gt0 }})
	if err := r.store.WardenUpdate(func(tx storage.WardenTx) error {
		if err := tx.Put(queueKey("warden.claims", 1000000, 1, "wq_1"), map[string]string{"wallet": "0xa"}); err != nil {
			return err
		}
		if err := tx.Put(queueKey("warden.claims", 1000000, 2, "wq_2"), map[string]string{"wallet": "0xb"}); err != nil {
			return err
		}
		if err := tx.Put("match/wm_00000000000000c3", Match{ID: "wm_00000000000000c3", Status: StatusLive}); err != nil {
			return err
		}
		return tx.Put("match/wm_00000000000000c4", Match{ID: "wm_00000000000000c4", Status: StatusStaking})
	}); err != nil {
		t.Fatal(err)
	}
	s := r.open("/v1/warden/feed", "")
	var sawBeat, sawLobby bool
	for !sawBeat || !sawLobby {
		m, err := s.next()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Comment == "keep-alive":
			sawBeat = true
		case m.Event == "warden":
			e := envOf(t, m)
			want := `{"live_matches":1,"queues":[{"game":"warden.claims","stake":1000000,"waiting":2}]}`
			if m.ID != -1 || e.Type != feed.TypeLobby || string(e.Data) != want || e.MatchID != "" || e.T != "2026-11-30T03:10:00.000Z" {
				t.Fatalf("lobby %+v %+v", m, e)
			}
			sawLobby = true
		default:
			t.Fatalf("unexpected %+v", m)
		}
	}
}
