package chatseat

import (
	"net/http"
	"strings"
	"testing"
)

// On a loopback connection the seat answers a Host that names this machine (localhost, a name
// under .localhost per RFC 6761 such as the DOTDOTDOT site's dotdotdot.localhost, a loopback
// IP) and refuses any other with 403 (DNS rebinding).
func TestLocalhostNames(t *testing.T) {
	srv := seat(t, &fakeDesk{}, Options{})
	for host, want := range map[string]int{
		"dotdotdot.localhost":              http.StatusOK,
		"dotdotdot.localhost:8080":         http.StatusOK,
		"DotDotDot.LOCALHOST.:8080":        http.StatusOK,
		"a.b.localhost":                    http.StatusOK,
		"localhost:8080":                   http.StatusOK,
		"127.0.0.1:8080":                   http.StatusOK,
		"[::1]:8080":                       http.StatusOK,
		"arena.example":                    http.StatusForbidden,
		"localhost.example":                http.StatusForbidden,
		"dotdotdot.localhost.evil.example": http.StatusForbidden,
		"xlocalhost":                       http.StatusForbidden,
		".localhost":                       http.StatusForbidden,
		"10.0.0.1":                         http.StatusForbidden,
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: status %d, want %d", host, resp.StatusCode, want)
		}
	}
}
