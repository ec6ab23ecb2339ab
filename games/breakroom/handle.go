package breakroom

import "strings"

// HandleDomain is the domain of the handles a site with origin gives (breakroom-protocol-v0.md
// "Identity": name@breakroom.lol): the origin's host, lower case, without scheme, port or path
// ("https://breakroom.lol:443/" → "breakroom.lol"); "breakroom.lol" for an origin with none.
func HandleDomain(origin string) string {
	h := origin
	if _, rest, ok := strings.Cut(h, "://"); ok {
		h = rest
	}
	h, _, _ = strings.Cut(h, "/")
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	if h == "" {
		return "breakroom.lol"
	}
	return strings.ToLower(h)
}
