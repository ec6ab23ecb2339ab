package main

import (
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/chain/evm/evmtest"
	"arena/config"
	"arena/storage"
)

// wardenDoors: with no stake rail the doors serve the Bracket's Warden games and their money
// doors are off (NoRail, the configured reason); a rail whose node is on another chain than
// warden.evm.chain_id stops serve before anything is served.
func TestWardenDoorsConfig(t *testing.T) {
	st, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, err := newBracket()
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	cfg := config.Default()
	d, err := wardenDoors(t.Context(), cfg, st, br, "http://warden.localhost:8080", log)
	if err != nil || d.NoRail != noRail || !slices.Equal(d.Games, []string{"warden.claims", "warden.dilemma"}) || d.BaseURL != "http://warden.localhost:8080" {
		t.Fatalf("no rail: %+v, %v", d, err)
	}

	chain := evmtest.Start(t)
	_, payTo := evmtest.Key(0x7e)
	cfg.Warden.EVM = config.WardenEVM{RPCURL: chain.URL, ChainID: chain.ID + 1, Token: chain.Token.Address.String(),
		TokenName: "USDC", TokenVersion: "2", Relayer: chain.Dev.String(), PayTo: payTo.String()}
	if _, err := wardenDoors(t.Context(), cfg, st, br, "", log); err == nil || !strings.Contains(err.Error(), "is on chain") {
		t.Errorf("wrong chain: %v", err)
	}
	cfg.Warden.EVM.ChainID = chain.ID
	d, err = wardenDoors(t.Context(), cfg, st, br, "", log)
	if err != nil || d.NoRail != "" || d.Rail.ChainID != chain.ID || d.Rail.PayTo != payTo || d.Relayer != chain.Dev {
		t.Errorf("rail: %+v, %v", d, err)
	}
}

// The Warden's 402 origin: warden.public_url, else its own listen address, else its first Host
// at the main port.
func TestWardenOrigin(t *testing.T) {
	cfg := config.Default()
	main := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	for _, c := range []struct {
		public string
		own    net.Addr
		want   string
	}{
		{"", nil, "http://warden.localhost:8080"},
		{"", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9001}, "http://127.0.0.1:9001"},
		{"https://warden.example/", nil, "https://warden.example"},
	} {
		cfg.Warden.PublicURL = c.public
		if got, err := wardenOrigin(cfg, main, c.own); err != nil || got != c.want {
			t.Errorf("%q %v: %q %v, want %q", c.public, c.own, got, err, c.want)
		}
	}
}
