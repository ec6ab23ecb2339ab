package site

import (
	"strings"
	"testing"

	"arena/transport/door"
)

// A display name shaped like a walk-in token is refused by both doors that register walk-ins,
// with the same code and words, and nothing is made.
func TestTokenShapedNameIsRefusedOnBothDoors(t *testing.T) {
	en, srv := limitedSite(t, door.Rate{}, door.Rate{})
	for _, name := range []string{"w_" + strings.Repeat("A", 24), "  w_0123456789abcdef  ", "w_" + strings.Repeat("x", 43)} {
		r := en.do("POST", "/v1/walkin", `{"name":"`+name+`"}`)
		refused(t, r, 400, "bad_request")
		text, isErr := mcpCall(t, srv, "register", `{"name":"`+name+`"}`)
		if !isErr || !strings.Contains(text, "Refused (bad_request): "+r.body["error"].(string)) {
			t.Fatalf("register %q over MCP: %v %q; the HTTP door said %q", name, isErr, text, r.body["error"])
		}
	}
	en.unchanged(0)
}
