package main

import (
	"net"
	"testing"

	"arena/config"
)

// TestBreakroomOrigin: the origin Break Room's links name is breakroom.public_url when set; else
// the site's own listen address when it has one (an unspecified host as localhost); else its
// first Host name at the main listen port.
func TestBreakroomOrigin(t *testing.T) {
	main := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	own := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8081}
	var hosts, pub config.Config
	hosts.Breakroom.Site.Hosts = []string{"br.localhost", "breakroom.example"}
	pub.Breakroom.PublicURL = "https://breakroom.example/"
	for _, c := range []struct {
		name string
		cfg  config.Config
		own  net.Addr
		want string
	}{
		{"defaults", config.Config{}, nil, "http://localhost:8080"},
		{"first host", hosts, nil, "http://br.localhost:8080"},
		{"own address", hosts, own, "http://127.0.0.1:8081"},
		{"own unspecified", hosts, &net.TCPAddr{IP: net.IPv4zero, Port: 8082}, "http://localhost:8082"},
		{"public url", pub, own, "https://breakroom.example"},
	} {
		got, err := breakroomOrigin(c.cfg, main, c.own)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
