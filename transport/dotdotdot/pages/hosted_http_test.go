package pages_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/site"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// stack is a real arena (the Blitz engine, storage on a temp dir, a fake clock) behind the HTTP
// doors and the pages, on an httptest server.
type stack struct {
	t     *testing.T
	a     *dotdotdot.Arena
	clock *actors.FakeClock
	srv   *httptest.Server
}

func newStack(t *testing.T) *stack {
	t.Helper()
	db, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	br, err := games.NewBracket(blitz.NewEngine(blitz.DefaultFees()))
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("pages test instance"))
	clock := actors.NewFakeClock(t0)
	a, err := dotdotdot.Start(actors.Options{DB: db, Bracket: br, Clock: clock, InstanceKey: ed25519.NewKeyFromSeed(seed[:]),
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:12802,0/7", AskTimeout: 5 * time.Second}, dotdotdot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ad := a
	e, err := site.New(site.Options{Desk: ad, Pages: &pages.Options{Source: ad, Narrator: blitz.NewEngine(blitz.DefaultFees()), Poll: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{t: t, a: a, clock: clock, srv: httptest.NewServer(e)}
	t.Cleanup(func() {
		s.srv.CloseClientConnections()
		s.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
		_ = db.Close()
	})
	return s
}

// do sends one request (token in x-walkin when given) and returns the status and body.
func (s *stack) do(method, path, token, body string) (int, []byte) {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.srv.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("x-walkin", token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// eventually calls cond until it holds, every 10 ms, and fails after limit. Only for state the
// HTTP doors give no signal of; a wait for a move is a long poll.
func (s *stack) eventually(limit time.Duration, cond func() bool) {
	s.t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			s.t.Fatalf("not reached in %v", limit)
		}
	}
}

// must sends a request that must answer want, decoding the body into v (if not nil).
func (s *stack) must(want int, method, path, token, body string, v any) {
	s.t.Helper()
	code, b := s.do(method, path, token, body)
	if code != want {
		s.t.Fatalf("%s %s: %d %s, want %d", method, path, code, b, want)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			s.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

func (s *stack) register(name string) string {
	var r struct{ Token string }
	s.must(201, "POST", "/v1/walkin", "", `{"name":"`+name+`"}`, &r)
	return r.Token
}

type table struct {
	Code    string   `json:"code"`
	Link    string   `json:"link"`
	Format  string   `json:"format"`
	Host    string   `json:"host"`
	Players []string `json:"players"`
	Seats   int      `json:"seats"`
	Status  string   `json:"status"`
	Round   string   `json:"round"`
	Watch   string   `json:"watch"`
}

type refused struct {
	Code string `json:"code"`
}

// TestHostedOverHTTP: three walk-ins at one table by its code; a non-host start is 403; the
// host starts it (house seats fill the other three); the code answers started with the round
// for two hours and is not drawn again meanwhile; the list never carries a token.
func TestHostedOverHTTP(t *testing.T) {
	s := newStack(t)
	ann, bo, cy, dee := s.register("Ann"), s.register("Bo"), s.register("Cy"), s.register("Dee")
	var h table
	s.must(201, "POST", "/v1/walkin/host", ann, "", &h)
	if h.Link != s.srv.URL+"/t/"+h.Code || h.Format != "blitz" || h.Seats != 6 || h.Status != "gathering" || h.Host != "Ann" {
		t.Fatalf("hosted %+v", h)
	}
	for _, tok := range []string{bo, cy} {
		var j struct{ Status, Kind string }
		s.must(200, "POST", "/v1/walkin/join", tok, `{"code":"`+strings.ToLower(h.Code)+`"}`, &j)
		if j.Status != "gathering" || j.Kind != "hosted" {
			t.Fatalf("join %+v", j)
		}
	}
	var r refused
	s.must(409, "POST", "/v1/walkin/join", bo, `{"table":"practice"}`, &r)
	if r.Code != "at_a_hosted_table" {
		t.Fatalf("second seat: %+v", r)
	}
	s.must(403, "POST", "/v1/walkin/start", bo, "", &r)
	if r.Code != "not_host" {
		t.Fatalf("non-host start: %+v", r)
	}
	s.must(409, "POST", "/v1/walkin/start", dee, "{}", &r) // waits at no table
	s.must(400, "POST", "/v1/walkin/host", dee, `{"format":"long"}`, &r)
	s.must(400, "POST", "/v1/walkin/host", dee, `{"Format":"short"}`, &r) // strict members
	s.must(401, "POST", "/v1/walkin/host", "", "", &r)
	s.must(404, "GET", "/v1/tables/hosted/ZZZZ", "", "", &r)
	// a seat taken and given back before the start: leave takes no body but an empty one
	var j struct{ Status string }
	s.must(200, "POST", "/v1/walkin/join", dee, `{"code":"`+h.Code+`"}`, &j)
	var left struct{ Status string }
	s.must(400, "POST", "/v1/walkin/leave", dee, `{"x":1}`, &r)
	s.must(200, "POST", "/v1/walkin/leave", dee, "{}", &left)
	if left.Status != "left" {
		t.Fatalf("leave %+v", left)
	}

	code, list := s.do("GET", "/v1/tables/hosted", "", "")
	if code != 200 || !bytes.Contains(list, []byte(`"`+h.Code+`"`)) || bytes.Contains(list, []byte("w_")) ||
		!bytes.Contains(list, []byte(`"players":["Ann","Bo","Cy"]`)) {
		t.Fatalf("list %d %s", code, list)
	}

	var st table
	s.must(200, "POST", "/v1/walkin/start", ann, "", &st)
	if st.Status != "started" || !strings.HasPrefix(st.Round, "T-") || st.Watch != s.srv.URL+"/r/"+st.Round {
		t.Fatalf("started %+v", st)
	}
	var got table
	s.must(200, "GET", "/v1/tables/hosted/"+h.Code, "", "", &got)
	if got.Status != "started" || got.Round != st.Round {
		t.Fatalf("by code %+v", got)
	}
	tables, _ := s.a.Tables(t.Context())
	seated := 0
	for _, tb := range tables {
		if tb.Round == st.Round {
			for _, seat := range tb.Seats {
				if seat.Kind == "walkin" {
					seated++
				}
			}
			if len(tb.Seats) != 6 {
				t.Fatalf("seats %+v", tb.Seats)
			}
		}
	}
	if seated != 3 {
		t.Fatalf("%d walk-ins seated, want 3", seated)
	}
	s.must(409, "POST", "/v1/walkin/join", dee, `{"code":"`+h.Code+`"}`, &r)
	if r.Code != "table_started" {
		t.Fatalf("join a started table: %+v", r)
	}

	// Not reused for two hours: many tables hosted meanwhile never get this code.
	for i := range 40 {
		tok := s.register("Guest" + string(rune('A'+i%26)) + string(rune('a'+i/26)))
		var g table
		s.must(201, "POST", "/v1/walkin/host", tok, `{"format":"short"}`, &g)
		if g.Code == h.Code {
			t.Fatalf("code %s drawn again while held", g.Code)
		}
	}
	s.clock.Advance(2*time.Hour - time.Minute)
	s.must(200, "GET", "/v1/tables/hosted/"+h.Code, "", "", &got)
	s.clock.Advance(time.Minute)
	s.must(404, "GET", "/v1/tables/hosted/"+h.Code, "", "", &r)
}

// TestHostedTenMinutesOverHTTP: a table nobody starts opens ten minutes after it was hosted
// (the fake clock), with the two walk-ins who came and house seats in the other four.
func TestHostedTenMinutesOverHTTP(t *testing.T) {
	s := newStack(t)
	ann, bo := s.register("Ann"), s.register("Bo")
	var h table
	s.must(201, "POST", "/v1/walkin/host", ann, `{"format":"blitz"}`, &h)
	s.must(200, "POST", "/v1/walkin/join", bo, `{"code":"`+h.Code+`"}`, nil)
	s.clock.Advance(10*time.Minute - time.Second)
	var got table
	s.must(200, "GET", "/v1/tables/hosted/"+h.Code, "", "", &got)
	if got.Status != "gathering" {
		t.Fatalf("before ten minutes: %+v", got)
	}
	s.clock.Advance(time.Second)
	// Bo's long poll waits at the hosted table until Bo is seated, which the desk does once it
	// has marked the table started: when it answers, the table's status is read once.
	var n struct{ Status, Round string }
	s.must(200, "GET", "/v1/walkin/next?wait=30", bo, "", &n)
	if n.Status == "gathering" || n.Status == "idle" {
		t.Fatalf("Bo after the start: %+v", n)
	}
	s.must(200, "GET", "/v1/tables/hosted/"+h.Code, "", "", &got)
	if got.Status != "started" {
		t.Fatalf("not started ten minutes on: %+v", got)
	}
	tables, _ := s.a.Tables(t.Context())
	for _, tb := range tables {
		if tb.Round == got.Round {
			if len(tb.Seats) != 6 || tb.Seats[0].Name != "Ann" || tb.Seats[1].Name != "Bo" || tb.Seats[2].Kind != "house" || tb.Kind != "hosted" {
				t.Fatalf("table %+v", tb)
			}
			return
		}
	}
	t.Fatalf("no table plays %s", got.Round)
}
