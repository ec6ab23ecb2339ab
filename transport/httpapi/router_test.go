package httpapi

import (
	"net/http"
	"testing"
)

func TestNewRouterRefusesAHostClaimedTwice(t *testing.T) {
	h := http.NotFoundHandler()
	if _, err := NewRouter(h, Routed{Name: "a", Hosts: []string{"x.localhost"}, Handler: h}, Routed{Name: "b", Hosts: []string{"X.localhost."}, Handler: h}); err == nil {
		t.Fatal("two sites on one host: no error")
	}
	if _, err := NewRouter(h, Routed{Name: "a", Hosts: []string{""}, Handler: h}); err == nil {
		t.Fatal("empty host: no error")
	}
	if _, err := NewRouter(h, Routed{Name: "a", Hosts: []string{"a.localhost"}}); err == nil {
		t.Fatal("no handler: no error")
	}
	if _, err := NewRouter(h, Routed{Name: "a", Handler: h}); err != nil {
		t.Fatalf("a site with no host (its own listener only): %v", err)
	}
}

func TestHostKey(t *testing.T) {
	for in, want := range map[string]string{
		"breakroom.localhost": "breakroom.localhost", "Breakroom.Localhost:8080": "breakroom.localhost",
		"warden.localhost.": "warden.localhost", "[::1]:8080": "::1", "[::1]": "::1", "127.0.0.1:80": "127.0.0.1", "": "",
		// Brackets come off a proper IPv6 literal only.
		"[breakroom.localhost": "[breakroom.localhost", "[breakroom.localhost]": "[breakroom.localhost]",
		"breakroom.localhost]": "breakroom.localhost]", "[::1": "[::1", "[127.0.0.1]": "[127.0.0.1]",
		"[2001:DB8::1]": "2001:db8::1", " breakroom.localhost": " breakroom.localhost",
	} {
		if got := HostKey(in); got != want {
			t.Errorf("HostKey(%q) = %q, want %q", in, got, want)
		}
	}
}
