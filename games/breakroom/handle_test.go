package breakroom

import "testing"

// HandleDomain is the origin's host alone, lower case.
func TestHandleDomain(t *testing.T) {
	for in, want := range map[string]string{
		"https://breakroom.lol":            "breakroom.lol",
		"https://Breakroom.LOL:443/":       "breakroom.lol",
		"http://breakroom.localhost:18080": "breakroom.localhost",
		"http://[::1]:8080":                "[::1]",
		"":                                 "breakroom.lol",
	} {
		if got := HandleDomain(in); got != want {
			t.Errorf("HandleDomain(%q) = %q, want %q", in, got, want)
		}
	}
}
