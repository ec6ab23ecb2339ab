package door

import (
	"fmt"
	"log/slog"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// HeaderWalkin carries the walk-in token (§4.4), and nothing else may.
const HeaderWalkin = "X-Walkin"

// tokenKeys are query names that can only mean a token; a query that uses one is refused.
var tokenKeys = []string{"token", "x-walkin", "walkin", "walkin_token", "access_token"}

// LooksLikeToken reports whether s has the shape of a walk-in token: "w_" followed by at least
// 16 characters of base64url or hex. Such a value is refused anywhere in a URL.
func LooksLikeToken(s string) bool {
	if len(s) < 18 || !strings.HasPrefix(s, "w_") {
		return false
	}
	for _, r := range s[2:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// TokenGuard refuses, before routing, any request whose URL carries a walk-in token (§4.4: the
// token travels only in x-walkin): a query member named token, x-walkin, walkin, walkin_token or
// access_token (any case), or any query value or path segment shaped like a token (w_…). The
// refusal is token_in_url (400); nothing runs. Such URLs end in logs, proxies and browser
// history, so the token in them must be treated as leaked; the message says so. A query
// parameter given more than once is refused too (bad_request, 400), before any route reads it.
func TokenGuard() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u := c.Request().URL
			q, err := url.ParseQuery(u.RawQuery)
			if err != nil {
				return Refuse(CodeBadRequest, "malformed query string")
			}
			for k, vs := range q {
				for _, t := range tokenKeys {
					if strings.EqualFold(k, t) {
						return tokenInURL()
					}
				}
				if LooksLikeToken(k) {
					return tokenInURL()
				}
				for _, v := range vs {
					if strings.Contains(v, "w_") && anyTokenIn(v) {
						return tokenInURL()
					}
				}
			}
			for _, seg := range strings.Split(u.Path, "/") {
				if anyTokenIn(seg) {
					return tokenInURL()
				}
			}
			// A parameter given twice is as ambiguous as a JSON member given twice, which every
			// door refuses: no route reads a parameter more than once, so none may be repeated.
			for k, vs := range q {
				if len(vs) > 1 {
					return Refuse(CodeBadRequest, "query parameter "+strconv.Quote(k)+" given more than once")
				}
			}
			return next(c)
		}
	}
}

// anyTokenIn reports whether s, or any piece of it between separators, looks like a token.
func anyTokenIn(s string) bool {
	if LooksLikeToken(s) {
		return true
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" ,;:=&/+.", r) }) {
		if LooksLikeToken(f) {
			return true
		}
	}
	return false
}

func tokenInURL() error {
	return Refuse(CodeTokenInURL, "a walk-in token is sent only in the x-walkin header, never in a URL; treat this token as exposed")
}

// WalkinToken returns the x-walkin header: no_token (401) when absent or empty, bad_request when
// given twice, unknown_token (401) when it is not shaped like a token (the desk answers
// unknown_token for a well-shaped token it does not know).
func WalkinToken(c echo.Context) (string, error) {
	vs := c.Request().Header.Values(HeaderWalkin)
	switch {
	case len(vs) == 0 || strings.TrimSpace(vs[0]) == "":
		return "", Refuse(CodeNoToken, "send the walk-in token in the x-walkin header (POST /v1/walkin makes one)")
	case len(vs) > 1:
		return "", Refuse(CodeBadRequest, "x-walkin given more than once")
	}
	t := strings.TrimSpace(vs[0])
	if !LooksLikeToken(t) || len(t) > 128 {
		return "", Refuse(CodeUnknownToken, "x-walkin is not a walk-in token")
	}
	return t, nil
}

// Recover turns a panic in a handler into an internal refusal (500) and logs it with its stack;
// the server and every other request carry on.
func Recover(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if p := recover(); p != nil {
					log.Error("handler panic", "route", c.Path(), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					err = &Refusal{Code: CodeInternal, Msg: "internal error"}
				}
			}()
			return next(c)
		}
	}
}

// AccessLog logs one line per request at debug level (at warn for 5xx): method, route pattern
// (never the raw URL, which could hold what a client should not have put there), status and
// duration in milliseconds.
func AccessLog(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			status := c.Response().Status
			lvl := slog.LevelDebug
			if status >= 500 {
				lvl = slog.LevelWarn
			}
			log.Log(c.Request().Context(), lvl, "http request", "method", c.Request().Method, "route", c.Path(),
				"status", status, "ms", time.Since(start).Milliseconds())
			return nil
		}
	}
}
