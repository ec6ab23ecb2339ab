package walkin

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

// fakeExposer replaces the tokens it knows, once each.
type fakeExposer struct {
	live map[string]string // token → its replacement
	seen []string
}

func (f *fakeExposer) RevokeExposed(_ context.Context, token string) (string, error) {
	f.seen = append(f.seen, token)
	n, ok := f.live[token]
	if !ok {
		return "", errors.New("not a live token")
	}
	delete(f.live, token)
	return n, nil
}

// Each token-shaped string a URL carries is handed to the exposer; a live one's replacement comes
// back in the refusal ("token", and "tokens" when there are several), once.
func TestGuardRevokesExposedTokens(t *testing.T) {
	other := "w_" + strings.Repeat("b", 43)
	ex := &fakeExposer{live: map[string]string{tok: "w_NEW1" + strings.Repeat("x", 40), other: "w_NEW2" + strings.Repeat("y", 40)}}
	run := func(target string) *door.Refusal {
		h := Guard(ex)(func(echo.Context) error { t.Fatalf("%s: the handler ran", target); return nil })
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, target, nil), httptest.NewRecorder())
		r, _ := door.AsRefusal(h(c))
		return r
	}
	r := run("/v1/walkin/me?token=" + tok)
	if r.Code != "token_in_url" || r.Extra["token"] != "w_NEW1"+strings.Repeat("x", 40) {
		t.Fatalf("refusal %+v", r)
	}
	r = run("/v1/walkin/me?token=" + tok)
	if _, ok := r.Extra["token"]; ok || r.Code != "token_in_url" {
		t.Fatalf("a token replaced twice: %+v", r)
	}
	ex.live[tok] = "w_NEW3" + strings.Repeat("z", 40)
	r = run("/v1/walkin/" + tok + "?q=a," + other)
	if fresh, _ := r.Extra["tokens"].([]string); len(fresh) != 2 {
		t.Fatalf("two tokens in one URL: %+v", r)
	}
	if r := run("/v1/walkin/next?token=abc"); r.Code != "token_in_url" || r.Extra != nil {
		t.Fatalf("a token-named member with no token: %+v", r)
	}
}

// FuzzGuard: whatever the URL, the guard never panics, and a URL with a token-shaped path
// segment or query value never reaches the handler.
func FuzzGuard(f *testing.F) {
	for _, s := range []string{"/v1/walkin/me", "/v1/walkin/" + tok, "/a?b=" + tok, "/a?" + tok + "=1", "/a?q=x,w_", "/%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		u, err := url.Parse(target)
		if err != nil || !strings.HasPrefix(u.Path, "/") {
			return
		}
		ran := false
		h := Guard(&fakeExposer{live: map[string]string{}})(func(echo.Context) error { ran = true; return nil })
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL = u
		_ = h(echo.New().NewContext(req, httptest.NewRecorder()))
		if !ran {
			return
		}
		for _, seg := range strings.Split(u.Path, "/") {
			if LooksLikeToken(seg) {
				t.Fatalf("%q reached the handler with a token in its path", target)
			}
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				if LooksLikeToken(v) {
					t.Fatalf("%q reached the handler with a token in its query", target)
				}
			}
		}
	})
}
