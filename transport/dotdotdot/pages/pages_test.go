package pages_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/transport/door"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/site"
)

// fakeSource is a pages.Source in memory: one round whose transcript a test extends.
type fakeSource struct {
	mu       sync.Mutex
	events   []games.Event
	revealed bool
	hosted   []dotdotdot.HostedTable
	reads    int // Transcript calls
}

func (f *fakeSource) ListHosted(context.Context) ([]dotdotdot.HostedTable, error) {
	return f.hosted, nil
}
func (f *fakeSource) HostedByCode(_ context.Context, code string) (dotdotdot.HostedTable, error) {
	for _, t := range f.hosted {
		if strings.EqualFold(t.Code, code) {
			return t, nil
		}
	}
	return dotdotdot.HostedTable{}, door.Refuse(door.CodeUnknownTable, "no such table")
}
func (f *fakeSource) Tables(context.Context) ([]actors.TableInfo, error) { return nil, nil }
func (f *fakeSource) Board(context.Context) (json.RawMessage, error) {
	return json.RawMessage(`{"week":"2026-W49","entry":200000000,"lines":[{"name":"<b>Bold</b>","rounds":2,"net":-1500000,"best":3000000}]}`), nil
}
func (f *fakeSource) Transcript(_ context.Context, round string) ([]games.Event, bool, error) {
	if round != "T-7" {
		return nil, false, door.Refuse(door.CodeUnknownRound, "no such round")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	return append([]games.Event(nil), f.events...), f.revealed, nil
}

func (f *fakeSource) add(typ, vis, payload string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, games.Event{Seq: int64(len(f.events) + 1), Round: "T-7", Turn: 1, Phase: "talk",
		Type: typ, Visibility: games.Visibility(vis), Payload: json.RawMessage(payload)})
}

func fakeServer(t *testing.T, f *fakeSource, o pages.Options) *httptest.Server {
	o.Source = f
	if o.Narrator == nil { // the game the pages show
		o.Narrator = blitz.NewEngine(blitz.DefaultFees())
	}
	if o.Poll == 0 {
		o.Poll = 20 * time.Millisecond
	}
	e, err := site.New(site.Options{Pages: &o})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv
}

func get(t *testing.T, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

const hostile = `<img src=x onerror=alert(1)>`

// TestPagesEscapeAndShape: names are escaped everywhere (html/template); unknown codes and
// rounds are 404 pages; the protocol is the embedded text (markdown, or HTML for a browser);
// skill.md is markdown with the site's routes, not HTML-escaped.
func TestPagesEscapeAndShape(t *testing.T) {
	f := &fakeSource{hosted: []dotdotdot.HostedTable{{Code: "AB2C", Format: "short", Host: hostile, Players: []string{hostile, "Bo"}, Seats: 3, Status: "gathering"}}}
	f.add("seat.taken", "public", `{"seat":1,"name":"`+strings.ReplaceAll(hostile, `"`, `\"`)+`","kind":"walkin"}`)
	f.add("message.public", "public", `{"from":1,"text":"</script><script>alert(2)</script>","tone":"neutral"}`)
	srv := fakeServer(t, f, pages.Options{Site: "https://arena.example"})

	for _, path := range []string{"/", "/t/ab2c", "/r/T-7"} {
		res, body := get(t, srv.URL+path, nil)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if strings.Contains(body, "<img src=x") || strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>Bold</b>") {
			t.Fatalf("%s: unescaped name or line in the page", path)
		}
		if path != "/r/T-7" && !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Fatalf("%s: the hostile name is not shown escaped", path)
		}
	}
	_, body := get(t, srv.URL+"/t/AB2C", nil)
	for _, want := range []string{"https://arena.example/mcp", "claude mcp add --transport http arena https://arena.example/mcp",
		"https://arena.example/v1/walkin/join", "AB2C", "1 open"} {
		if !strings.Contains(body, want) {
			t.Fatalf("/t/AB2C lacks %q", want)
		}
	}
	res, body := get(t, srv.URL+"/t/ab2c", map[string]string{"Accept": "application/json"})
	var tj struct {
		Table struct{ Code, Link string }
		Join  struct {
			ClaudeCode string `json:"claude_code"`
			HTTP       []string
		}
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &tj) != nil || tj.Table.Code != "AB2C" || tj.Table.Link != "https://arena.example/t/AB2C" ||
		tj.Join.ClaudeCode != "claude mcp add --transport http arena https://arena.example/mcp" || len(tj.Join.HTTP) != 4 {
		t.Fatalf("/t/ as JSON: %d %s", res.StatusCode, body)
	}
	_, body = get(t, srv.URL+"/", nil)
	if !strings.Contains(body, "-1.5") || !strings.Contains(body, "2026-W49") {
		t.Fatal("the board is not on the lobby (net -1.5 CCD)")
	}
	for _, path := range []string{"/t/ZZZZ", "/t/too-long", "/r/T-8", "/r/nope"} {
		if res, body := get(t, srv.URL+path, nil); res.StatusCode != 404 || !strings.Contains(body, "Not found") {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
	}

	res, md := get(t, srv.URL+"/protocol/v1", nil)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/markdown") || md != string(pages.ProtocolText()) ||
		!strings.Contains(md, "### 4.5 The chat seat (MCP) and hosted tables") {
		t.Fatalf("/protocol/v1 markdown: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	res, html := get(t, srv.URL+"/protocol/v1", map[string]string{"Accept": "text/html"})
	if res.StatusCode != 200 || !strings.Contains(html, "### 4.5 The chat seat (MCP) and hosted tables") || !strings.Contains(html, "&lt;!--") {
		t.Fatal("/protocol/v1 HTML")
	}
	res, skill := get(t, srv.URL+"/skill.md", nil)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/markdown") ||
		!strings.Contains(skill, "https://arena.example/protocol/v1") || !strings.Contains(skill, `{"code": "ABCD"}`) || strings.Contains(skill, "&#34;") {
		t.Fatalf("/skill.md: %s", skill)
	}
}

type sse struct {
	id, event, data string
}

// readSSE reads events until n are read or the stream ends.
func readSSE(t *testing.T, r *bufio.Reader, n int) []sse {
	t.Helper()
	var out []sse
	var cur sse
	for len(out) < n {
		line, err := r.ReadString('\n')
		if err != nil {
			return out
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if cur.event != "" || cur.data != "" {
				out = append(out, cur)
			}
			cur = sse{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		}
	}
	return out
}

// TestFeedPublicOnly: the SSE feed sends public events only (sealed and private ones stay out,
// even once the round is revealed and the transcript holds them all), new events as they are
// committed, resumes after Last-Event-ID, and ends after round.revealed.
func TestFeedPublicOnly(t *testing.T) {
	f := &fakeSource{}
	f.add("seat.taken", "public", `{"seat":1,"name":"Ann","kind":"walkin"}`)
	f.add("role.assigned", "private:1", `{"role":"mole","task":{"kind":"TASK-SECRET"}}`)
	f.add("message.private", "sealed", `{"from":1,"to":2,"text":"PRIVATE-SECRET"}`)
	srv := fakeServer(t, f, pages.Options{})

	if res, body := get(t, srv.URL+"/v1/rounds/T-8/events", nil); res.StatusCode != 404 || !strings.Contains(body, `"unknown_round"`) {
		t.Fatalf("unknown round: %d %s", res.StatusCode, body)
	}
	if res, _ := get(t, srv.URL+"/v1/rounds/T-7/events?after=x", nil); res.StatusCode != 400 {
		t.Fatalf("bad after: %d", res.StatusCode)
	}

	res, err := http.Get(srv.URL + "/v1/rounds/T-7/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	r := bufio.NewReader(res.Body)
	got := readSSE(t, r, 1)
	if len(got) != 1 || got[0].id != "1" || got[0].event != "ev" || !strings.Contains(got[0].data, "Ann took seat 1") {
		t.Fatalf("first: %+v", got)
	}
	// Committed later: it arrives on the open stream.
	f.add("message.public", "public", `{"from":1,"text":"hi all","tone":"neutral"}`)
	f.add("commitment.sealed", "sealed", `{"amount":4321000,"id":"c1"}`)
	f.add("commitment.sealed", "public", `{"payer":1,"payee":2,"due":1,"id":"c1"}`)
	got = readSSE(t, r, 2)
	if len(got) != 2 || got[0].id != "4" || !strings.Contains(got[0].data, `seat 1 (Ann) says: hi all`) ||
		got[1].id != "6" || !strings.Contains(got[1].data, "sealed a promise to seat 2, due turn 1") {
		t.Fatalf("later: %+v", got)
	}
	// The reveal: every event is in the transcript now; still only the public ones are sent.
	f.mu.Lock()
	f.revealed = true
	f.mu.Unlock()
	f.add("round.revealed", "public", `{"mole":1,"task":{"kind":"broker","category":"influence","named":[]},"rungs":[1]}`)
	got = readSSE(t, r, 3)
	if len(got) != 2 || got[0].id != "7" || got[1].event != "end" || !strings.Contains(got[1].data, "revealed") {
		t.Fatalf("reveal: %+v", got)
	}

	// A reconnect with Last-Event-ID resumes after it, and never sends a sealed event.
	res2, body := get(t, srv.URL+"/v1/rounds/T-7/events", map[string]string{"Last-Event-ID": "4"})
	if res2.StatusCode != 200 || strings.Contains(body, "id: 4\n") || !strings.Contains(body, "id: 6\n") || !strings.Contains(body, "id: 7\n") {
		t.Fatalf("resume: %s", body)
	}
	for _, bad := range []string{"SECRET", "4321000", "amount", "role.assigned", "message.private"} {
		if strings.Contains(body, bad) {
			t.Fatalf("the feed sent %q", bad)
		}
	}
	// The round page of a revealed round shows the reveal and no sealed value.
	_, page := get(t, srv.URL+"/r/T-7", nil)
	if !strings.Contains(page, `id="reveal"`) || !strings.Contains(page, "broker") || strings.Contains(page, "SECRET") || strings.Contains(page, "4321000") ||
		strings.Contains(page, "EventSource") {
		t.Fatal("the revealed round page")
	}
}

// TestFeedSharedReads: twenty viewers of one round share its transcript reads: about one per
// poll interval in all, not one per viewer.
func TestFeedSharedReads(t *testing.T) {
	f := &fakeSource{}
	f.add("seat.taken", "public", `{"seat":1,"name":"Ann","kind":"walkin"}`)
	srv := fakeServer(t, f, pages.Options{Poll: 50 * time.Millisecond})
	const viewers = 20
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(t.Context(), 600*time.Millisecond)
	defer cancel()
	for range viewers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v1/rounds/T-7/events", nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}()
	}
	wg.Wait()
	f.mu.Lock()
	reads := f.reads
	f.mu.Unlock()
	// 600 ms / 50 ms = 12 intervals; unshared it would be about viewers × 12 = 240.
	t.Logf("%d viewers for 600 ms at a 50 ms poll: %d transcript reads", viewers, reads)
	if reads > 30 {
		t.Fatalf("%d transcript reads for %d viewers: not shared", reads, viewers)
	}
}
