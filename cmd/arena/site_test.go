package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestPublicSite(t *testing.T) {
	lo := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	any4 := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	any6 := &net.TCPAddr{IP: net.IPv6unspecified, Port: 9}
	v6 := &net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 443}
	for _, c := range []struct {
		pub    string
		listen net.Addr
		want   string
		warn   bool
	}{
		{"https://arena.example", lo, "https://arena.example", false},
		{"https://arena.example/", any4, "https://arena.example", false},
		{"https://arena.example:8443/play/", lo, "https://arena.example:8443/play", false},
		{"", lo, "http://127.0.0.1:8080", false},
		{"", any4, "http://localhost:8080", true},
		{"", any6, "http://localhost:9", true},
		{"", v6, "http://[2001:db8::1]:443", false},
	} {
		got, warn, err := publicSite(c.pub, c.listen)
		if err != nil || got != c.want || warn != c.warn {
			t.Errorf("publicSite(%q, %v) = %q, %v, %v; want %q, %v", c.pub, c.listen, got, warn, err, c.want, c.warn)
		}
	}
	for _, bad := range []string{"arena.example", "ftp://arena.example", "https://", "https://u:p@arena.example",
		"https://arena.example/?x=1", "https://arena.example/#top", "javascript:alert(1)", "https://arena.example/?"} {
		if got, _, err := publicSite(bad, lo); err == nil {
			t.Errorf("publicSite(%q) = %q, want an error", bad, got)
		}
	}
}

// startSites runs the binary like startServer with extra flags and returns the server and the
// listen address of each site that has one of its own (from its "arena: NAME site listening
// on" line).
func startSites(t *testing.T, bin, data string, own int, extra ...string) (*server, map[string]string) {
	t.Helper()
	s := &server{t: t, data: data, logs: &syncBuf{}}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--log-format", "json"}, extra...)...)
	s.cmd.Stderr = s.logs
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	})
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	sites := map[string]string{}
	for want := 2 + own; want > 0; want-- {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended; logs:\n%s", s.logs)
			}
			if u, ok := strings.CutPrefix(l, "arena: listening on "); ok {
				s.url = u
			} else if c, ok := strings.CutPrefix(l, "arena: chain node "); ok {
				s.chain = c
			} else if name, u, ok := strings.Cut(strings.TrimPrefix(l, "arena: "), " site listening on "); ok {
				sites[name] = u
			} else {
				t.Fatalf("unexpected line %q", l)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("serve did not print its listen lines in 30s; logs:\n%s", s.logs)
		}
	}
	go func() {
		for range lines {
		}
	}()
	if s.url == "" || len(sites) != own {
		t.Fatalf("listen %q, sites %v; logs:\n%s", s.url, sites, s.logs)
	}
	return s, sites
}

// TestServeSites runs `arena serve` with its default sites plus the Break Room on a listen
// address of its own and the market under a configured Host, and drives real HTTP requests:
// today's URLs keep working on the main listener under any Host no site claims, each site
// answers /healthz and its own protocol's not_found under its Host, and the Break Room's own
// listener serves the Break Room whatever the Host, its links naming that listener. The Warden,
// with no stake rail configured, serves its challenge and refuses a money door with
// facilitator_unavailable.
func TestServeSites(t *testing.T) {
	bin := buildArena(t)
	s, own := startSites(t, bin, t.TempDir(), 1, "--breakroom-addr", "127.0.0.1:0", "--market-hosts", "gm.test,market.localhost")
	defer s.stop()
	main := s.url
	do := func(base, host, method, path, body string) (int, map[string]any, string) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(t.Context(), method, base+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		raw, _ := io.ReadAll(r.Body)
		var b map[string]any
		json.Unmarshal(raw, &b)
		return r.StatusCode, b, string(raw)
	}
	port := main[strings.LastIndex(main, ":"):]
	for i, host := range []string{"", "localhost" + port, "dotdotdot.localhost" + port, "arena.example"} {
		if st, b, raw := do(main, host, "POST", "/v1/walkin", fmt.Sprintf(`{"name":"Ada%d"}`, i)); st != 201 || b["token"] == nil {
			t.Fatalf("host %q: POST /v1/walkin %d %s", host, st, raw)
		}
		if st, b, raw := do(main, host, "GET", "/.well-known/agent.json", ""); st != 200 || b["kind"] != "arena" {
			t.Fatalf("host %q: agent card %d %s", host, st, raw)
		}
		if st, _, raw := do(main, host, "GET", "/", ""); st != 200 || !strings.Contains(raw, "<html") {
			t.Fatalf("host %q: lobby page %d", host, st)
		}
	}
	type want struct {
		base, host, site string
	}
	for _, w := range []want{
		{main, "breakroom.localhost" + port, "breakroom"},
		{own["breakroom"], "", "breakroom"},
		{own["breakroom"], "market.localhost", "breakroom"},
		{main, "warden.localhost" + port, "warden"},
		{main, "gm.test", "market"},
		{main, "Market.Localhost.", "market"},
	} {
		if st, b, raw := do(w.base, w.host, "GET", "/healthz", ""); st != 200 || b["status"] != "ok" {
			t.Fatalf("%s via %s %q: /healthz %d %s", w.site, w.base, w.host, st, raw)
		}
		if st, _, _ := do(w.base, w.host, "GET", "/metrics", ""); st != 200 {
			t.Fatalf("%s via %q: /metrics %d", w.site, w.host, st)
		}
		st, b, raw := do(w.base, w.host, "POST", "/v1/walkin", `{"name":"Bo"}`)
		ok := st == 404
		switch w.site {
		case "breakroom":
			ok = ok && b["type"] == "error" && b["code"] == "not_found"
		case "warden":
			ok = ok && b["v"] == float64(1) && b["error"] == "not_found"
		case "market":
			e, _ := b["error"].(map[string]any)
			ok = ok && b["ok"] == false && e["code"] == "not_found"
		}
		if !ok {
			t.Fatalf("%s via %s %q: POST /v1/walkin %d %s, want its not_found", w.site, w.base, w.host, st, raw)
		}
	}
	// The Warden's doors with no stake rail configured: registration's challenge serves, a money
	// door answers facilitator_unavailable (503) naming the setting.
	if st, b, raw := do(main, "warden.localhost"+port, "GET", "/v1/warden/challenge", ""); st != 200 || b["challenge"] == nil {
		t.Fatalf("warden challenge: %d %s", st, raw)
	}
	if st, b, raw := do(main, "warden.localhost"+port, "POST", "/v1/warden/matches", `{"game":"warden.dilemma","stake":1000000}`); st != 503 ||
		b["error"] != "facilitator_unavailable" || !strings.Contains(raw, "warden.evm.rpc_url") {
		t.Fatalf("warden open with no rail: %d %s", st, raw)
	}
	// The Warden's Gallery: its page at /gallery and /, reading the feed; a match it has no
	// record of has no feed.
	for _, path := range []string{"/gallery", "/"} {
		if st, _, raw := do(main, "warden.localhost"+port, "GET", path, ""); st != 200 || !strings.Contains(raw, "<title>The Gallery") ||
			!strings.Contains(raw, `new EventSource("/v1/warden/feed?events=all")`) {
			t.Fatalf("warden %s: %d %.200s", path, st, raw)
		}
	}
	if st, b, raw := do(main, "warden.localhost"+port, "GET", "/v1/warden/matches/wm_0000000000000000/feed", ""); st != 404 || b["error"] != "unknown_match" {
		t.Fatalf("warden feed of an unknown match: %d %s", st, raw)
	}
	// With an address of its own, the Break Room's links name that address, whatever the Host
	// asked: a client that cannot send a Host header follows them.
	ownWS := "ws" + strings.TrimPrefix(own["breakroom"], "http") + "/v0/play"
	for _, base := range []string{main, own["breakroom"]} {
		st, b, raw := do(base, "breakroom.localhost"+port, "GET", "/v0/games", "")
		join, _ := b["join"].(map[string]any)
		if st != 200 || join["websocket"] != ownWS || join["http"] != own["breakroom"]+"/v0/join" {
			t.Fatalf("GET /v0/games via %s: %d %s; want its join links at %s", base, st, raw, own["breakroom"])
		}
	}
}

// A site whose own listen address cannot be bound stops serve before it says it listens.
func TestServeRefusesASiteAddressInUse(t *testing.T) {
	bin := buildArena(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--warden-addr", taken.Addr().String())
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("serve with a taken warden address: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "for the warden site") || strings.Contains(string(out), "arena: listening on") {
		t.Fatalf("output does not name the warden site's address, or serve said it listens:\n%s", out)
	}
}
