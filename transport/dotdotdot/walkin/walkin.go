// Package walkin is the walk-in token at the DOTDOTDOT doors (dotdotdot-protocol-v1.md §4.4): the
// token travels only in the x-walkin header, so the guard in front of the DOTDOTDOT site refuses
// it anywhere in a URL (token_in_url), and Token reads the header for the desk's routes. The
// generic door helpers (transport/door) know nothing of walk-ins.
package walkin

import (
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/dotdotdot/codes"
)

// Header carries the walk-in token (§4.4), and nothing else may.
const Header = "X-Walkin"

// tokenKeys are query names that can only mean a token; a query that uses one is refused.
var tokenKeys = []string{"token", "x-walkin", "walkin", "walkin_token", "access_token"}

// CheckName refuses a display name shaped like a walk-in token (bad_request): the name's public
// page (/v1/walkin/name/{name}) would be a token in a URL, refused by the guard. Every door that
// registers walk-ins (POST /v1/walkin, the chat seat's register) refuses with it, so they refuse
// the same names the same way.
func CheckName(name string) error {
	if LooksLikeToken(strings.TrimSpace(name)) {
		return door.Refuse(door.CodeBadRequest, "a name must not look like a walk-in token (w_…)")
	}
	return nil
}

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

// Guard refuses, before routing, any request whose URL carries a walk-in token (§4.4: the
// token travels only in x-walkin): a query member named token, x-walkin, walkin, walkin_token or
// access_token (any case), or any query value or path segment shaped like a token (w_…). The
// refusal is token_in_url (400); nothing runs. Such URLs end in logs, proxies and browser
// history, so the token in them must be treated as leaked; the message says so. A query that
// does not parse is bad_request (400). The DOTDOTDOT site puts door.UniqueQuery after it, so a
// token in a repeated parameter is still token_in_url.
func Guard() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			u := c.Request().URL
			q, err := url.ParseQuery(u.RawQuery)
			if err != nil {
				return door.Refuse(door.CodeBadRequest, "malformed query string")
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
	return door.Refuse(codes.TokenInURL, "a walk-in token is sent only in the x-walkin header, never in a URL; treat this token as exposed")
}

// Token returns the x-walkin header: no_token (401) when absent or empty, bad_request when
// given twice, unknown_token (401) when it is not shaped like a token (the desk answers
// unknown_token for a well-shaped token it does not know).
func Token(c echo.Context) (string, error) {
	vs := c.Request().Header.Values(Header)
	switch {
	case len(vs) == 0 || strings.TrimSpace(vs[0]) == "":
		return "", door.Refuse(codes.NoToken, "send the walk-in token in the x-walkin header (POST /v1/walkin makes one)")
	case len(vs) > 1:
		return "", door.Refuse(door.CodeBadRequest, "x-walkin given more than once")
	}
	t := strings.TrimSpace(vs[0])
	if !LooksLikeToken(t) || len(t) > 128 {
		return "", door.Refuse(codes.UnknownToken, "x-walkin is not a walk-in token")
	}
	return t, nil
}
