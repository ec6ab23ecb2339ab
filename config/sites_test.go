package config

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSitesDefaults(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"dotdotdot": "dotdotdot.localhost", "breakroom": "breakroom.localhost",
		"warden": "warden.localhost", "market": "market.localhost"}
	sites := c.Sites()
	if len(sites) != 4 || sites[0].Name != "dotdotdot" {
		t.Fatalf("sites %+v, want four with DOTDOTDOT first", sites)
	}
	for _, s := range sites {
		if len(s.Hosts) != 1 || s.Hosts[0] != want[s.Name] || s.Addr != "" {
			t.Errorf("site %s: %+v, want host %s on the main listener", s.Name, s.Site, want[s.Name])
		}
	}
	d := c.Dotdotdot
	if d.PublicURL != "" || d.MCPBehindProxy || d.EgressLoopback || d.DevAgents != "" {
		t.Errorf("dotdotdot defaults: %+v", d)
	}
}

func TestSitesFromEnvFlagsAndFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "arena.json")
	if err := os.WriteFile(file, []byte(`{"warden":{"site":{"hosts":["warden.example"],"addr":"127.0.0.1:9001"}},"dotdotdot":{"public_url":"https://arena.example"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := env(map[string]string{
		"ARENA_CONFIG":           file,
		"ARENA_BREAKROOM_HOSTS":  " breakroom.example, br.localhost ,",
		"ARENA_BREAKROOM_ADDR":   "127.0.0.1:0",
		"ARENA_MCP_BEHIND_PROXY": "1",
		"ARENA_EGRESS_LOOPBACK":  "1",
		"ARENA_DEV_AGENTS":       "/tmp/agents.json",
	})
	c, err := Load("serve", []string{"--market-hosts", "gm.example", "--market-addr", ":0"}, e, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Breakroom.Site, Site{Hosts: []string{"breakroom.example", "br.localhost"}, Addr: "127.0.0.1:0"}) {
		t.Errorf("breakroom from env: %+v", c.Breakroom.Site)
	}
	if !reflect.DeepEqual(c.Warden.Site, Site{Hosts: []string{"warden.example"}, Addr: "127.0.0.1:9001"}) {
		t.Errorf("warden from file: %+v", c.Warden.Site)
	}
	if !reflect.DeepEqual(c.Market.Site, Site{Hosts: []string{"gm.example"}, Addr: ":0"}) {
		t.Errorf("market from flags: %+v", c.Market.Site)
	}
	if d := c.Dotdotdot; d.PublicURL != "https://arena.example" || !d.MCPBehindProxy || !d.EgressLoopback || d.DevAgents != "/tmp/agents.json" {
		t.Errorf("dotdotdot: %+v", d)
	}
	// A flag given empty takes a site off Host routing (its own listener only).
	c, err = Load("serve", []string{"--warden-hosts", "", "--warden-addr", "127.0.0.1:0"}, env(nil), io.Discard)
	if err != nil || len(c.Warden.Site.Hosts) != 0 {
		t.Fatalf("empty hosts: %+v, %v", c.Warden.Site, err)
	}
}

func TestSitesRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"host claimed twice", []string{"--warden-hosts", "Breakroom.localhost."}, nil, "claimed by breakroom"},
		{"host with port", []string{"--market-hosts", "market.localhost:8080"}, nil, "market.site.hosts"},
		{"host with path", nil, map[string]string{"ARENA_WARDEN_HOSTS": "warden.localhost/x"}, "ARENA_WARDEN_HOSTS"},
		{"bad site addr", []string{"--breakroom-addr", "8081"}, nil, "breakroom.site.addr"},
		{"site addr is the main addr", []string{"--addr", "127.0.0.1:8080", "--warden-addr", "127.0.0.1:8080"}, nil, "addr's listen address"},
		{"two sites on one addr", []string{"--warden-addr", "127.0.0.1:9", "--market-addr", "127.0.0.1:9"}, nil, "warden's listen address"},
		{"mcp proxy not a bool", nil, map[string]string{"ARENA_MCP_BEHIND_PROXY": "yes please"}, "ARENA_MCP_BEHIND_PROXY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("serve", tt.args, env(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	// A file's host names are not trimmed (the router matches Host headers untrimmed): white
	// space anywhere in a name is refused.
	for _, h := range []string{" market.example", "market.example ", "mar ket.example", "market.example\t", " "} {
		c, err := Load("serve", nil, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		c.Market.Site.Hosts = []string{h}
		var got []string
		c.validateSites(func(field, format string, args ...any) { got = append(got, field) })
		if len(got) != 1 || !strings.Contains(got[0], "market.site.hosts") {
			t.Errorf("host %q: refusals %v, want one of market.site.hosts", h, got)
		}
	}
	// Port 0 picks a free port each time: several sites may ask for it.
	if _, err := Load("serve", []string{"--addr", ":0", "--warden-addr", ":0", "--market-addr", ":0"}, env(nil), io.Discard); err != nil {
		t.Fatalf("port 0 twice: %v", err)
	}
}

func TestClientEnv(t *testing.T) {
	got := ClientEnv(env(map[string]string{"ARENA_SERVER": "http://a:1", "ARENA_OPERATOR_TOKEN": "t", "ARENA_DATA": "d", "ARENA_CHAIN_NODE": "n:2"}))
	if got != (Client{Server: "http://a:1", OperatorToken: "t", DataDir: "d", ChainNode: "n:2"}) {
		t.Fatalf("ClientEnv = %+v", got)
	}
}
