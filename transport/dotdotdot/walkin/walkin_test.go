package walkin

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

func TestLooksLikeToken(t *testing.T) {
	for s, want := range map[string]bool{
		"w_5sQTbktzqk_C2P46CMWxIVgIWVYthNtFdTC83glLZJ0": true,
		"w_0123456789abcdef":                            true,
		"w_0123456789abcde":                             false, // too short
		"w_alice":                                       false,
		"x_0123456789abcdef0123":                        false,
		"w_0123456789abcdef!":                           false,
		"":                                              false,
	} {
		if got := LooksLikeToken(s); got != want {
			t.Errorf("LooksLikeToken(%q) = %v, want %v", s, got, want)
		}
	}
}

const tok = "w_5sQTbktzqk_C2P46CMWxIVgIWVYthNtFdTC83glLZJ0"

// codeOf is the refusal code of err ("" for nil).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	r, _ := door.AsRefusal(err)
	return r.Code
}

// TestGuard: a token-named query member, a token-shaped member name, value or path segment (alone
// or among separators) is token_in_url and the handler never runs; a malformed query is
// bad_request; anything else passes, a repeated parameter included (door.UniqueQuery's).
func TestGuard(t *testing.T) {
	for target, want := range map[string]string{
		"/v1/walkin/next?wait=0":          "",
		"/v1/walkin/next?wait=0&wait=1":   "",
		"/t/ABC234?name=w_alice":          "",
		"/v1/walkin/next?token=abc":       "token_in_url",
		"/v1/walkin/next?X-Walkin=abc":    "token_in_url",
		"/v1/walkin/next?Access_Token=1":  "token_in_url",
		"/v1/walkin/next?" + tok + "=1":   "token_in_url",
		"/v1/walkin/next?q=" + tok:        "token_in_url",
		"/v1/walkin/next?q=a," + tok:      "token_in_url",
		"/v1/walkin/" + tok:               "token_in_url",
		"/v1/walkin/x." + tok + ".json":   "token_in_url",
		"/v1/walkin/next?a=%zz":           "bad_request",
		"/v1/walkin/next?q=w_0123456789a": "",
	} {
		ran := false
		h := Guard(nil)(func(echo.Context) error { ran = true; return nil })
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, target, nil), httptest.NewRecorder())
		if got := codeOf(h(c)); got != want || ran != (want == "") {
			t.Errorf("%s: refused %q, handler ran %v; want %q", target, got, ran, want)
		}
	}
}

// TestToken: the x-walkin header is the token; absent or empty is no_token, given twice
// bad_request, not token-shaped (or over 128 bytes) unknown_token.
func TestToken(t *testing.T) {
	for name, tt := range map[string]struct {
		values []string
		want   string
	}{
		"the token":    {[]string{" " + tok + " "}, ""},
		"absent":       {nil, "no_token"},
		"empty":        {[]string{"  "}, "no_token"},
		"twice":        {[]string{tok, tok}, "bad_request"},
		"not a token":  {[]string{"Bearer x"}, "unknown_token"},
		"too long":     {[]string{"w_" + longTail()}, "unknown_token"},
		"short prefix": {[]string{"w_0123"}, "unknown_token"},
	} {
		req := httptest.NewRequest(http.MethodGet, "/v1/walkin/next", nil)
		for _, v := range tt.values {
			req.Header.Add(Header, v)
		}
		got, err := Token(echo.New().NewContext(req, httptest.NewRecorder()))
		if codeOf(err) != tt.want || (tt.want == "" && got != tok) {
			t.Errorf("%s: %q, %v; want refusal %q", name, got, err, tt.want)
		}
	}
}

// longTail is 127 token characters: with "w_", a token-shaped value of 129 bytes.
func longTail() string {
	b := make([]byte, 127)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}
