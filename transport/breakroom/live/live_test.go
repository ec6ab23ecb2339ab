package live_test

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

	"arena/games"
	brsite "arena/transport/breakroom"
	"arena/transport/breakroom/live"
	"arena/transport/breakroom/openapi/openapitest"
	"arena/transport/httpapi"
)

// fakeRoom is a product with one running match, "m_live", whose feed the test drives.
type fakeRoom struct {
	mu      sync.Mutex
	backlog []games.Event
	ch      chan games.Event
	dropped bool
	changed chan struct{}
	figures live.Figures
}

func (f *fakeRoom) Live(context.Context) (live.Figures, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.figures, nil
}

func (f *fakeRoom) LiveChanged() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}

// change sets the figures and signals it.
func (f *fakeRoom) change(fig live.Figures) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.figures = fig
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeRoom) Follow(_ context.Context, id string, _ int) (live.Feed, error) {
	switch id {
	case "m_live":
	case "m_over":
		return live.Feed{}, games.Errorf("not_live", "over")
	default:
		return live.Feed{}, games.Errorf("unknown_match", "no match")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return live.Feed{Backlog: f.backlog, C: f.ch, Dropped: func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.dropped },
		Close: func() {}}, nil
}

func (f *fakeRoom) Narrator(string) games.Narrator { return nil }

func line(seq int64, typ, payload string) games.Event {
	return games.Event{Seq: seq, At: "2026-10-02T08:00:00.000Z", Type: typ, Visibility: games.Public, Payload: json.RawMessage(payload)}
}

func site(t *testing.T, f *fakeRoom, o live.Options) (*httptest.Server, *live.Door) {
	t.Helper()
	o.Backend = f
	d, err := live.New(o)
	if err != nil {
		t.Fatal(err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: d}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, d
}

// get opens path; a refusal's status and code, or the open response.
func get(t *testing.T, srv *httptest.Server, path string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode == 200 {
		t.Cleanup(func() { resp.Body.Close() })
		return resp, ""
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	openapitest.Check(t, req, resp.StatusCode, resp.Header, raw)
	var m struct{ Code string }
	_ = json.Unmarshal(raw, &m)
	return resp, m.Code
}

// blocks reads a stream's SSE blocks (comments left out) until it closes.
func blocks(r io.Reader) []string {
	var out []string
	var cur strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "":
			if cur.Len() > 0 {
				out = append(out, strings.TrimSuffix(cur.String(), "\n"))
				cur.Reset()
			}
		case strings.HasPrefix(l, ":"):
		default:
			cur.WriteString(l + "\n")
		}
	}
	return out
}

// A reconnecting EventSource (Last-Event-ID) gets the public lines after that seq only, renumbered
// over the public lines, then event end; a feed cut off for falling behind closes the stream with
// no end event; not_live and unknown_match are 404 with their codes.
func TestLiveStreamResumesAndCloses(t *testing.T) {
	f := &fakeRoom{changed: make(chan struct{}), ch: make(chan games.Event, 4)}
	f.backlog = []games.Event{line(1, "match_start", `{"game":"dilemma"}`), line(3, "round_start", `{"round":1}`)}
	srv, _ := site(t, f, live.Options{})
	f.ch <- line(5, "message", `{"text":"hi"}`)
	f.ch <- line(6, "match_end", `{"ranking":[]}`)
	resp, code := get(t, srv, "/r/m_live/live", "Last-Event-ID", "0")
	if code != "" {
		t.Fatal(code)
	}
	got := blocks(resp.Body)
	want := []string{
		`id: 1` + "\n" + `data: {"seq":1,"t":"2026-10-02T08:00:00.000Z","type":"round_start","round":1}`,
		`id: 2` + "\n" + `data: {"seq":2,"t":"2026-10-02T08:00:00.000Z","type":"message","text":"hi"}`,
		`id: 3` + "\n" + `data: {"seq":3,"t":"2026-10-02T08:00:00.000Z","type":"match_end","ranking":[]}`,
		"event: end\n" + `data: {"match_id":"m_live","type":"match_end"}`,
	}
	if strings.Join(got, "\n\n") != strings.Join(want, "\n\n") {
		t.Fatalf("the resumed stream:\n%s\nwant:\n%s", strings.Join(got, "\n\n"), strings.Join(want, "\n\n"))
	}

	// Cut off: the feed's channel closes before the end.
	f2 := &fakeRoom{changed: make(chan struct{}), ch: make(chan games.Event, 1), backlog: f.backlog[:1]}
	srv2, d2 := site(t, f2, live.Options{})
	resp, _ = get(t, srv2, "/r/m_live/live?narrate=1")
	f2.mu.Lock()
	f2.dropped = true
	close(f2.ch)
	f2.mu.Unlock()
	got = blocks(resp.Body)
	if len(got) != 1 || !strings.HasPrefix(got[0], "id: 0\nevent: line\ndata: {\"e\":{\"seq\":0,") || !strings.HasSuffix(got[0], `"n":[]}`) {
		t.Fatalf("the cut-off stream: %q", got)
	}
	for d2.Open() != 0 {
		time.Sleep(5 * time.Millisecond)
	}

	for path, want := range map[string]string{"/r/m_over/live": "not_live", "/r/m_nope/live": "unknown_match"} {
		if resp, code := get(t, srv, path); resp.StatusCode != 404 || code != want {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, code)
		}
	}
}

// The server-wide cap: past MaxStreams open streams a new one is 503 busy; one closing makes
// room. The figures' stream sends the figures at once and again on a change only (a signal that
// changes nothing sends nothing); live_tables is newest first, at most 20.
func TestLiveStreamCapAndFigures(t *testing.T) {
	f := &fakeRoom{changed: make(chan struct{}), ch: make(chan games.Event)}
	f.figures = live.Figures{Games: []live.Game{{ID: "dilemma"}}}
	srv, d := site(t, f, live.Options{MaxStreams: 1})
	resp, code := get(t, srv, "/v0/live/stream")
	if code != "" {
		t.Fatal(code)
	}
	if r, code := get(t, srv, "/r/m_live/live"); r.StatusCode != 503 || code != "busy" {
		t.Fatalf("past the cap: %d %s", r.StatusCode, code)
	}
	rd := bufio.NewReader(resp.Body)
	next := func() string {
		t.Helper()
		var b strings.Builder
		for {
			l, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("stream: %v", err)
			}
			if l == "\n" {
				if b.Len() > 0 {
					return b.String()
				}
				continue
			}
			if !strings.HasPrefix(l, ":") {
				b.WriteString(l)
			}
		}
	}
	first := next()
	if first != "event: live\n"+`data: {"v":0,"waiting":0,"playing":0,"house":0,"tables":0,"games":[{"id":"dilemma","waiting":0,"playing":0,"house":0,"tables":0}],"live_tables":[]}`+"\n" {
		t.Fatalf("first snapshot %q", first)
	}
	f.change(f.figures) // nothing changed: nothing sent
	fig := live.Figures{Games: []live.Game{{ID: "dilemma", Counts: live.Counts{Playing: 50, House: 25, Tables: 25}}}}
	start := time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)
	for i := range 25 {
		fig.Tables = append(fig.Tables, live.Table{MatchID: "m_" + string(rune('a'+i)), Game: "dilemma", Tier: "open", Agents: 2, House: 1,
			StartedAt: start.Add(time.Duration(i) * time.Minute)})
	}
	f.change(fig)
	var body struct {
		V, Playing, House, Tables int
		LiveTables                []struct {
			MatchID   string `json:"match_id"`
			StartedAt string `json:"started_at"`
			Agents    int
			House     int
		} `json:"live_tables"`
	}
	got := next()
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(got), "event: live\ndata: ")), &body); err != nil {
		t.Fatalf("%q: %v", got, err)
	}
	lt := body.LiveTables
	if body.Playing != 50 || body.House != 25 || body.Tables != 25 || len(lt) != live.LiveTables || lt[0].MatchID != "m_y" ||
		lt[0].StartedAt != "2026-10-02T08:24:00.000Z" || lt[19].MatchID != "m_f" || lt[0].Agents != 2 || lt[0].House != 1 {
		t.Fatalf("the pushed snapshot: %s", got)
	}
	resp.Body.Close()
	for d.Open() != 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if r, code := get(t, srv, "/v0/live"); r.StatusCode != 200 || code != "" {
		t.Fatalf("/v0/live: %d %s", r.StatusCode, code)
	}
}
