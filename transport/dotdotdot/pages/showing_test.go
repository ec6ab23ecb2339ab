package pages_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/transport/door"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/site"
)

// showingSource is a pages.Source with one showing of T-7 (started at Unix second 1788962400,
// speed 4) whose shown count the test moves on, as the showing's actor would.
type showingSource struct {
	fakeSource
	mu    sync.Mutex
	shown int
	tx    string
}

const showSeq = 1788962400

func (s *showingSource) ShowingOf(_ context.Context, round string, seq uint32) (dotdotdot.Showing, error) {
	if round != "T-7" || seq != showSeq {
		return dotdotdot.Showing{}, door.Refuse(door.CodeUnknownRound, "no such showing")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fakeSource.mu.Lock()
	all := append([]games.Event(nil), s.events...)
	s.fakeSource.mu.Unlock()
	public := 0
	for _, e := range all {
		if e.Visibility == games.Public {
			public++
		}
	}
	return dotdotdot.Showing{Showing: storage.Showing{Round: round, Seq: seq, Speed: 4, Started: time.Unix(showSeq, 0), Tx: s.tx,
		Ended: s.shown == len(all)}, Events: all[:s.shown], Total: public}, nil
}

func showingServer(t *testing.T, s *showingSource) *httptest.Server {
	e, err := site.New(site.Options{Pages: &pages.Options{Source: s, Narrator: blitz.NewEngine(blitz.DefaultFees()), Poll: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv
}

func (s *showingSource) Replays(_ context.Context, round string) ([]dotdotdot.Replay, error) {
	return []dotdotdot.Replay{{Showing: dotdotdot.ShowingPath(round, showSeq), Round: round, Seq: showSeq, Tx: s.tx, Speed: 4, Started: "2026-09-09T14:00:00Z"}}, nil
}

func (s *showingSource) show(n int) {
	s.mu.Lock()
	s.shown = n
	s.mu.Unlock()
}

// A showing's page shows the events shown so far (of how many), its speed and its replay
// anchor's transaction; its feed sends every public event once, in order, as the showing shows
// it (never a sealed one), resumes after Last-Event-ID, and ends with reason "shown" after the
// last. An unknown showing is a 404 page, and a malformed one a 404 page or bad_request.
func TestShowingPageAndFeed(t *testing.T) {
	s := &showingSource{tx: strings.Repeat("ab", 32)}
	s.add("round.created", "public", `{"game":"blitz"}`)
	s.add("message.public", "public", `{"from":1,"text":"first line","tone":"neutral"}`)
	s.add("message.private", "sealed", `{"from":1,"to":2,"text":"a sealed line"}`)
	s.add("message.public", "public", `{"from":2,"text":"second line","tone":"neutral"}`)
	s.add("message.public", "public", `{"from":3,"text":"third line","tone":"neutral"}`)
	s.show(2)
	srv := showingServer(t, s)

	res, body := get(t, srv.URL+"/r/T-7/showings/1788962400", nil)
	if res.StatusCode != 200 || !strings.Contains(body, "(2 of 4 events)") || !strings.Contains(body, "at 4× the recorded pace") ||
		!strings.Contains(body, s.tx) || !strings.Contains(body, "first line") || strings.Contains(body, "second line") {
		t.Fatalf("the showing's page: %d\n%s", res.StatusCode, body)
	}
	for _, path := range []string{"/r/T-7/showings/1788962401", "/r/T-7/showings/0", "/r/T-7/showings/x", "/r/T-7/showings/01788962400"} {
		if res, body := get(t, srv.URL+path, nil); res.StatusCode != 404 || !strings.Contains(body, "Not found") {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
	if res, body := get(t, srv.URL+"/v1/rounds/T-7/showings/x/events", nil); res.StatusCode != 400 || !strings.Contains(body, "bad_request") {
		t.Fatalf("malformed showing feed: %d %s", res.StatusCode, body)
	}

	req, _ := http.NewRequest("GET", srv.URL+"/v1/rounds/T-7/showings/1788962400/events", nil)
	feed, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer feed.Body.Close()
	r := bufio.NewReader(feed.Body)
	first := readSSE(t, r, 2)
	if len(first) != 2 || first[0].id != "1" || first[1].id != "2" || !strings.Contains(first[1].data, "first line") {
		t.Fatalf("the feed's first events: %+v", first)
	}
	s.show(4) // the sealed line and the second public one
	next := readSSE(t, r, 1)
	if len(next) != 1 || next[0].id != "4" || !strings.Contains(next[0].data, "second line") {
		t.Fatalf("the feed after the showing moved on: %+v (a sealed line must never be sent)", next)
	}
	s.show(5)
	last := readSSE(t, r, 3)
	if len(last) != 2 || last[0].id != "5" || last[1].event != "end" || last[1].data != `{"reason":"shown"}` {
		t.Fatalf("the feed's end: %+v", last)
	}

	req, _ = http.NewRequest("GET", srv.URL+"/v1/rounds/T-7/showings/1788962400/events", nil)
	req.Header.Set("Last-Event-ID", "4")
	again, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Body.Close()
	got := readSSE(t, bufio.NewReader(again.Body), 3)
	var l struct{ Seq int64 }
	if len(got) != 2 || json.Unmarshal([]byte(got[0].data), &l) != nil || l.Seq != 5 || got[1].event != "end" {
		t.Fatalf("resumed after 4: %+v", got)
	}
	// The round's page, once revealed, links its showings.
	s.add("round.revealed", "public", `{}`)
	s.fakeSource.mu.Lock()
	s.revealed = true
	s.fakeSource.mu.Unlock()
	s.show(6)
	if res, body := get(t, srv.URL+"/r/T-7", nil); res.StatusCode != 200 || !strings.Contains(body, `<a href="/r/T-7/showings/1788962400">from 2026-09-09T14:00:00Z at 4×</a>`) {
		t.Fatalf("the round's page does not link its showing: %d\n%s", res.StatusCode, body)
	}
	res, body = get(t, srv.URL+"/r/T-7/showings/1788962400", nil)
	if res.StatusCode != 200 || !strings.Contains(body, "(5 of 5 events)") || !strings.Contains(body, ">shown<") || strings.Contains(body, "a sealed line") {
		t.Fatalf("the ended showing's page: %d\n%s", res.StatusCode, body)
	}
}
