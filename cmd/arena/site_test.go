package main

import (
	"net"
	"testing"
)

func TestPublicSite(t *testing.T) {
	lo := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	any4 := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	any6 := &net.TCPAddr{IP: net.IPv6unspecified, Port: 9}
	v6 := &net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 443}
	for _, c := range []struct {
		pub    string
		listen net.Addr
		want   string
		warn   bool
	}{
		{"https://arena.example", lo, "https://arena.example", false},
		{"https://arena.example/", any4, "https://arena.example", false},
		{"https://arena.example:8443/play/", lo, "https://arena.example:8443/play", false},
		{"", lo, "http://127.0.0.1:8080", false},
		{"", any4, "http://localhost:8080", true},
		{"", any6, "http://localhost:9", true},
		{"", v6, "http://[2001:db8::1]:443", false},
	} {
		got, warn, err := publicSite(c.pub, c.listen)
		if err != nil || got != c.want || warn != c.warn {
			t.Errorf("publicSite(%q, %v) = %q, %v, %v; want %q, %v", c.pub, c.listen, got, warn, err, c.want, c.warn)
		}
	}
	for _, bad := range []string{"arena.example", "ftp://arena.example", "https://", "https://u:p@arena.example",
		"https://arena.example/?x=1", "https://arena.example/#top", "javascript:alert(1)", "https://arena.example/?"} {
		if got, _, err := publicSite(bad, lo); err == nil {
			t.Errorf("publicSite(%q) = %q, want an error", bad, got)
		}
	}
}
