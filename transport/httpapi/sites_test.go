package httpapi_test

// The four protocols' sites behind one Router: an external test package, so httpapi itself
// imports no protocol (the floors test), while this test wires them as cmd/arena does.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/games"
	"arena/transport/breakroom"
	"arena/transport/dotdotdot/desk/desktest"
	"arena/transport/dotdotdot/site"
	"arena/transport/httpapi"
	"arena/transport/market"
	"arena/transport/meta"
	"arena/transport/ops"
	"arena/transport/warden"
)

// sites is the four sites behind one Router on one listener, and the Break Room site alone on
// a listener of its own, over real HTTP.
type sites struct {
	t         *testing.T
	router    *httptest.Server // every site, chosen by Host
	breakroom *httptest.Server // the Break Room site's own listen address
	reg       *prometheus.Registry
}

var siteHosts = map[string][]string{
	"breakroom": {"breakroom.localhost"},
	"warden":    {"warden.localhost"},
	"market":    {"market.localhost", "gm.example"},
}

func newSites(t *testing.T) *sites {
	t.Helper()
	s := &sites{t: t, reg: prometheus.NewRegistry()}
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	m := meta.Options{
		Identity: meta.Identity{Agent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:abc", Name: "arena-test", Key: key.Public().(ed25519.PublicKey)},
		Gatherer: s.reg,
		Health:   func(ctx context.Context) error { return nil },
	}
	dot, err := site.New(site.Options{Desk: desktest.New(), Ops: &fakeOps{}, OpsOptions: ops.Options{Token: opToken}, Meta: m, Metrics: s.reg})
	if err != nil {
		t.Fatal(err)
	}
	g := httpapi.Global{Meta: m, Metrics: s.reg}
	br, err := httpapi.Build(breakroom.Site{}, g)
	if err != nil {
		t.Fatal(err)
	}
	// A route of Break Room's, as its door will add: a refused move is 400 in Break Room's shape.
	br.POST("/v0/matches/:id/move", func(c echo.Context) error { return games.Errorf("illegal_move", "raise above max") })
	wd, err := httpapi.Build(warden.Site{}, g)
	if err != nil {
		t.Fatal(err)
	}
	mk, err := httpapi.Build(market.Site{}, g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := httpapi.NewRouter(dot,
		httpapi.Routed{Name: "dotdotdot", Hosts: []string{"dotdotdot.localhost"}, Handler: dot},
		httpapi.Routed{Name: "breakroom", Hosts: siteHosts["breakroom"], Handler: br},
		httpapi.Routed{Name: "warden", Hosts: siteHosts["warden"], Handler: wd},
		httpapi.Routed{Name: "market", Hosts: siteHosts["market"], Handler: mk})
	if err != nil {
		t.Fatal(err)
	}
	s.router = httptest.NewServer(r)
	t.Cleanup(s.router.Close)
	s.breakroom = httptest.NewServer(br)
	t.Cleanup(s.breakroom.Close)
	return s
}

// do sends one request to srv with the Host header host ("" keeps the listener's address).
func (s *sites) do(srv *httptest.Server, host, method, path, body string, hdr ...string) reply {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(s.t.Context(), method, srv.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

// notFound asserts r is site's own not-found error.
func notFound(t *testing.T, site string, r reply) {
	t.Helper()
	if r.status != http.StatusNotFound {
		t.Fatalf("%s: status %d, want 404 (%s)", site, r.status, r.raw)
	}
	b := r.body
	var ok bool
	switch site {
	case "dotdotdot":
		ok = b["code"] == "not_found" && b["error"] != nil && b["retry"] == false
	case "breakroom":
		ok = b["type"] == "error" && b["v"] == float64(0) && b["code"] == "not_found" && b["detail"] != ""
	case "warden":
		ok = b["v"] == float64(1) && b["error"] == "not_found" && b["detail"] != ""
	case "market":
		e, _ := b["error"].(map[string]any)
		ok = b["protocolVersion"] == float64(2) && b["ok"] == false && e["code"] == "not_found" && e["message"] != ""
	}
	if !ok {
		t.Fatalf("%s: not its protocol's not-found shape: %s", site, r.raw)
	}
}

// Today's URLs keep working on any Host no site claims: the listener's own address, localhost,
// a public name, none of the site names.
func TestUnmatchedHostServesDotdotdot(t *testing.T) {
	s := newSites(t)
	for _, host := range []string{"", "localhost:8080", "arena.example", "DOTDOTDOT.localhost.", "[::1]:8080", "breakroom.localhost.example"} {
		r := s.do(s.router, host, "POST", "/v1/walkin", `{"name":"Ada"}`)
		if r.status != 201 || r.body["token"] == nil {
			t.Fatalf("host %q: POST /v1/walkin %d %s", host, r.status, r.raw)
		}
		if r := s.do(s.router, host, "GET", "/.well-known/agent.json", ""); r.status != 200 || r.body["kind"] != "arena" {
			t.Fatalf("host %q: agent card %d %s", host, r.status, r.raw)
		}
		if r := s.do(s.router, host, "GET", "/ops/tables", "", "Authorization", "Bearer "+opToken); r.status != 200 {
			t.Fatalf("host %q: ops %d %s", host, r.status, r.raw)
		}
		// DOTDOTDOT's token guard (§4.4) stands in front of its routes on any host it serves.
		refused(t, s.do(s.router, host, "GET", "/v1/walkin/next?token=x", ""), 400, "token_in_url")
		notFound(t, "dotdotdot", s.do(s.router, host, "GET", "/v0/games", ""))
	}
}

// Each site answers by its Host (port, case and a trailing dot ignored), and on its own listen
// address whatever the Host: the global routes, else its protocol's not-found error.
func TestSitesByHostAndListenAddress(t *testing.T) {
	s := newSites(t)
	type target struct {
		site string
		srv  *httptest.Server
		host string
	}
	targets := []target{
		{"breakroom", s.router, "breakroom.localhost"},
		{"breakroom", s.router, "BreakRoom.LOCALHOST.:8080"},
		{"breakroom", s.breakroom, ""},
		{"breakroom", s.breakroom, "warden.localhost"}, // its own listener: the Host does not matter
		{"warden", s.router, "warden.localhost:443"},
		{"market", s.router, "market.localhost"},
		{"market", s.router, "gm.example"},
		{"dotdotdot", s.router, "dotdotdot.localhost:8080"},
	}
	for _, tg := range targets {
		if r := s.do(tg.srv, tg.host, "GET", "/healthz", ""); r.status != 200 || r.body["status"] != "ok" {
			t.Fatalf("%s via %q: /healthz %d %s", tg.site, tg.host, r.status, r.raw)
		}
		if r := s.do(tg.srv, tg.host, "GET", "/metrics", ""); r.status != 200 || !strings.Contains(string(r.raw), "arena_http_requests_total") {
			t.Fatalf("%s via %q: /metrics %d", tg.site, tg.host, r.status)
		}
		if tg.site == "dotdotdot" {
			if r := s.do(tg.srv, tg.host, "POST", "/v1/walkin", `{"name":"Bo"}`); r.status != 201 {
				t.Fatalf("dotdotdot via %q: %d %s", tg.host, r.status, r.raw)
			}
			continue
		}
		// No DOTDOTDOT route leaks onto another site, and its token guard does not either: a
		// Break Room queue token sits in a path (/v0/join/{token}).
		for _, p := range []string{"/v1/walkin", "/.well-known/agent.json", "/ops/tables", "/", "/v0/join/w_0123456789abcdef0123", "/v1/warden/games"} {
			method := "GET"
			if p == "/v1/walkin" {
				method = "POST"
			}
			notFound(t, tg.site, s.do(tg.srv, tg.host, method, p, `{"name":"Cy"}`))
		}
	}
	// A site's refusals use its own table and shape.
	r := s.do(s.router, "breakroom.localhost", "POST", "/v0/matches/m_1/move", `{"round":1,"turn":1,"action":"raise"}`)
	if r.status != 400 || r.body["type"] != "error" || r.body["code"] != "illegal_move" || r.body["detail"] != "raise above max" {
		t.Fatalf("break room move refusal: %d %s", r.status, r.raw)
	}
	r = s.do(s.router, "warden.localhost", "POST", "/healthz", "")
	if r.status != 405 || r.body["error"] != "method_not_allowed" || r.body["v"] != float64(1) {
		t.Fatalf("warden 405: %d %s", r.status, r.raw)
	}
	// One request counter for every site.
	r = s.do(s.router, "", "GET", "/metrics", "")
	if !strings.Contains(string(r.raw), `arena_http_requests_total{code="200",route="/healthz"} 8`) {
		t.Fatalf("/metrics does not count every site's /healthz:\n%s", r.raw)
	}
}

// Each protocol's table gives its own status: DOTDOTDOT refuses a lever with 409, Break Room
// refuses a move with 400, the Warden a rule violation with 422, the market answers a refused
// command in its envelope (200).
func TestSiteStatusTables(t *testing.T) {
	tests := []struct {
		site string
		st   func(string) int
		want map[string]int
	}{
		{"dotdotdot", site.Site{}.Answer().Statuses.Status, map[string]int{"is_mole": 409, "lever_spent": 409, "not_now": 409, "bad_condition": 422, "no_token": 401, "not_found": 404, "busy": 503}},
		{"breakroom", breakroom.Answer.Statuses.Status, map[string]int{"illegal_move": 400, "not_your_turn": 400, "stale_turn": 400, "already_playing": 409,
			"payment_required": 402, "not_paid": 402, "not_live": 404, "rate_limited": 429, "busy": 503, "unauthorized": 401, "unknown_match": 404, "not_found": 404, "a_new_code": 400}},
		{"warden", warden.Answer.Statuses.Status, map[string]int{"illegal_action": 422, "ask_above_valuation": 422, "wrong_step": 409, "stale_round": 409,
			"unknown_match": 404, "unauthorized": 401, "forbidden": 403, "rate_limited": 429, "payment_required": 402, "bad_payment": 400,
			"facilitator_unavailable": 503, "bad_request": 400, "a_new_code": 400}},
		{"market", market.Answer.Statuses.Status, map[string]int{"not_enrolled": 200, "self_dealing": 200, "authentication_required": 401, "not_found": 404, "internal": 500}},
	}
	for _, tt := range tests {
		for code, want := range tt.want {
			if got := tt.st(code); got != want {
				t.Errorf("%s: Status(%q) = %d, want %d", tt.site, code, got, want)
			}
		}
	}
}

const opToken = "op_test_token_0123456789"

// fakeOps is one live table for the ops routes.
type fakeOps struct{}

func (fakeOps) Tables(ctx context.Context) ([]actors.TableInfo, error) {
	return []actors.TableInfo{{ID: "tbl-1", Game: "blitz", Round: "T-7", Phase: "talk", Status: "live", Seats: make([]actors.SeatInfo, 6)}}, nil
}
func (fakeOps) RestartTable(ctx context.Context, id string) error { return nil }
func (fakeOps) StopTable(ctx context.Context, id string) error    { return nil }

type reply struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// refused asserts r is a DOTDOTDOT refusal with status and code, a text and a JSON body.
func refused(t *testing.T, r reply, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d (body %s)", r.status, status, r.raw)
	}
	if r.body["code"] != code {
		t.Fatalf("code %v, want %q (body %s)", r.body["code"], code, r.raw)
	}
	if msg, _ := r.body["error"].(string); msg == "" {
		t.Fatalf("refusal without an error text: %s", r.raw)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("refusal Content-Type %q, want JSON", ct)
	}
}
