package httpapi_test

import (
	"bytes"
	"strings"
	"testing"
)

// /healthz and /metrics answer alike on every Host: a site's own Pre guards (DOTDOTDOT's
// token-in-URL and one-value-per-parameter guards, §4.4) stand in front of its routes only,
// and HEAD answers as GET does, without a body.
func TestGlobalRoutesAlikeOnEverySite(t *testing.T) {
	s := newSites(t)
	hosts := []string{"dotdotdot.localhost", "breakroom.localhost", "warden.localhost", "market.localhost", ""}
	var first []byte
	for _, host := range hosts {
		for _, q := range []string{"", "?x=1&x=2", "?token=abc", "?token=abc&token=def"} {
			r := s.do(s.router, host, "GET", "/healthz"+q, "")
			if r.status != 200 || r.body["status"] != "ok" || r.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("host %q: GET /healthz%s: %d %s", host, q, r.status, r.raw)
			}
			if first == nil {
				first = r.raw
			} else if !bytes.Equal(r.raw, first) {
				t.Fatalf("host %q: GET /healthz%s body %s, another site's %s", host, q, r.raw, first)
			}
			h := s.do(s.router, host, "HEAD", "/healthz"+q, "")
			if h.status != 200 || len(h.raw) != 0 || h.header.Get("Content-Type") != r.header.Get("Content-Type") ||
				h.header.Get("Cache-Control") != "no-store" {
				t.Fatalf("host %q: HEAD /healthz%s: %d %q %v", host, q, h.status, h.raw, h.header)
			}
			m := s.do(s.router, host, "GET", "/metrics"+q, "")
			if m.status != 200 || !strings.Contains(string(m.raw), "arena_http_requests_total") {
				t.Fatalf("host %q: GET /metrics%s: %d %s", host, q, m.status, m.raw)
			}
			if h := s.do(s.router, host, "HEAD", "/metrics"+q, ""); h.status != 200 || len(h.raw) != 0 {
				t.Fatalf("host %q: HEAD /metrics%s: %d %q", host, q, h.status, h.raw)
			}
		}
	}
	// The guards still stand in front of DOTDOTDOT's own routes, wherever it is reached.
	for _, host := range []string{"dotdotdot.localhost", ""} {
		refused(t, s.do(s.router, host, "GET", "/v1/walkin/next?token=x", ""), 400, "token_in_url")
	}
	// A method the global routes do not serve is refused in the site's own shape.
	r := s.do(s.router, "dotdotdot.localhost", "POST", "/healthz?token=abc", "")
	refused(t, r, 405, "method_not_allowed")
	r = s.do(s.router, "breakroom.localhost", "DELETE", "/metrics", "")
	if r.status != 405 || r.body["type"] != "error" || r.body["code"] != "method_not_allowed" {
		t.Fatalf("break room DELETE /metrics: %d %s", r.status, r.raw)
	}
	// The request counter sees the global routes on every site (5 hosts x 4 queries each).
	r = s.do(s.router, "", "GET", "/metrics", "")
	for _, line := range []string{`arena_http_requests_total{code="200",route="/healthz"} 40`, `arena_http_requests_total{code="200",route="/metrics"} 40`} {
		if !strings.Contains(string(r.raw), line) {
			t.Fatalf("/metrics lacks %s:\n%s", line, r.raw)
		}
	}
}
