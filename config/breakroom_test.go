package config

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestBreakroomPaceFromEverySource: the Break Room section's clocks and public URL from flags
// and the environment; unset, nothing is overridden.
func TestBreakroomPaceFromEverySource(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Breakroom.Pace != (BreakroomPace{}) || c.Breakroom.PublicURL != "" {
		t.Fatalf("Break Room overrides by default: %+v", c.Breakroom)
	}
	c, err = Load("serve", []string{"--breakroom-lobby-wait", "2s", "--breakroom-turn", "800ms"},
		env(map[string]string{"ARENA_BREAKROOM_PACE_HOUSE_AFTER": "1s", "ARENA_BREAKROOM_PACE_HOUSE_PAUSE": "5ms",
			"ARENA_BREAKROOM_PACE_AWAY": "300ms", "ARENA_BREAKROOM_PUBLIC_URL": "https://br.example"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Breakroom.Pace
	if durOf(p.LobbyWait) != 2*time.Second || durOf(p.Turn) != 800*time.Millisecond || durOf(p.HouseAfter) != time.Second ||
		durOf(p.HousePause) != 5*time.Millisecond || durOf(p.Away) != 300*time.Millisecond || c.Breakroom.PublicURL != "https://br.example" {
		t.Fatalf("Break Room section: %+v", c.Breakroom)
	}
}

// TestBreakroomRefused: a clock that is not positive, an away deadline past the turn's, a public
// URL that is no http(s) origin.
func TestBreakroomRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"zero lobby wait":  {[]string{"--breakroom-lobby-wait", "0s"}, "breakroom.pace.lobby_wait"},
		"negative turn":    {[]string{"--breakroom-turn", "-1s"}, "breakroom.pace.turn"},
		"away past turn":   {[]string{"--breakroom-turn", "1s", "--breakroom-away", "2s"}, "breakroom.pace.away"},
		"public url ftp":   {[]string{"--breakroom-public-url", "ftp://br.example"}, "ARENA_BREAKROOM_PUBLIC_URL"},
		"public url query": {[]string{"--breakroom-public-url", "https://br.example/?x=1"}, "breakroom.public_url"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load("serve", tc.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// TestBreakroomWallet: with nothing set the wallet is the development one on regtest; an LND URL
// makes it lnd and needs the macaroon and certificate; mainnet (the Lightning network, or a
// Concordium mainnet chain) refuses the development wallet at load.
func TestBreakroomWallet(t *testing.T) {
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Breakroom.Lightning; l.WalletKind() != WalletDev || l.NetworkName() != "regtest" {
		t.Fatalf("default wallet %q on %q", l.WalletKind(), l.NetworkName())
	}
	c, err = Load("serve", []string{"--breakroom-lnd-url", "https://127.0.0.1:8080", "--breakroom-lnd-macaroon", "/m", "--breakroom-ln-network", "mainnet"},
		env(map[string]string{"ARENA_BREAKROOM_LND_TLS_CERT": "/c"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Breakroom.Lightning; l.WalletKind() != WalletLND || l.LNDMacaroon != "/m" || l.LNDTLSCert != "/c" || l.NetworkName() != "mainnet" {
		t.Fatalf("lnd wallet %+v", l)
	}
	if c, err = Load("serve", []string{"--breakroom-wallet", "none", "--breakroom-ln-network", "mainnet"}, env(nil), io.Discard); err != nil || c.Breakroom.Lightning.WalletKind() != WalletNone {
		t.Fatalf("none on mainnet: %v", err)
	}
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"dev default on mainnet":    {[]string{"--breakroom-ln-network", "mainnet"}, "never runs on mainnet"},
		"dev named on mainnet":      {[]string{"--breakroom-wallet", "dev", "--breakroom-ln-network", "mainnet"}, "never runs on mainnet"},
		"dev on concordium mainnet": {[]string{"--chain-network", "ccd:9dd9ca4d19e9393877d2c44b70f89acb"}, "never runs on a mainnet config"},
		"unknown network":           {[]string{"--breakroom-ln-network", "liquid"}, "breakroom.lightning.network"},
		"unknown wallet":            {[]string{"--breakroom-wallet", "cln"}, "want dev, lnd or none"},
		"lnd without macaroon":      {[]string{"--breakroom-lnd-url", "https://n:8080", "--breakroom-lnd-tls-cert", "/c"}, "lnd_macaroon"},
		"lnd without cert":          {[]string{"--breakroom-lnd-url", "https://n:8080", "--breakroom-lnd-macaroon", "/m"}, "lnd_tls_cert"},
		"lnd over http":             {[]string{"--breakroom-lnd-url", "http://n:8080", "--breakroom-lnd-macaroon", "/m", "--breakroom-lnd-tls-cert", "/c"}, "breakroom.lightning.lnd_url"},
		"lnd named without url":     {[]string{"--breakroom-wallet", "lnd"}, "breakroom.lightning.lnd_url"},
		"dev with an lnd node set":  {[]string{"--breakroom-wallet", "dev", "--breakroom-lnd-macaroon", "/m"}, "drop the lnd_* settings"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load("serve", tc.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}
