package main

import (
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"testing"

	"arena/chain/evm/evmtest"
	"arena/config"
	"arena/storage"
)

// wardenDoors: with no stake rail the doors serve the Bracket's Warden games and their money
// doors are off (NoRail, the configured reason); a rail whose node is on another chain than
// warden.evm.chain_id shuts the money doors for good (Down names both chains) without an error;
// an unreached node keeps them shut to be retried; the right chain opens them once run.
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
	d, _, err := wardenDoors(t.Context(), cfg, st, br, "http://warden.localhost:8080", log)
	if err != nil || d.NoRail != noRail || !slices.Equal(d.Games, []string{"warden.claims", "warden.dilemma"}) || d.BaseURL != "http://warden.localhost:8080" {
		t.Fatalf("no rail: %+v, %v", d, err)
	}

	chain := evmtest.Start(t)
	_, payTo := evmtest.Key(0x7e)
	cfg.Warden.EVM = config.WardenEVM{RPCURL: chain.URL, ChainID: chain.ID + 1, Token: chain.Token.Address.String(),
		TokenName: "USDC", TokenVersion: "2", Relayer: chain.Dev.String(), PayTo: payTo.String()}
	d, r, err := wardenDoors(t.Context(), cfg, st, br, "", log)
	want := fmt.Sprintf("the Warden's stake rail node is on chain %d, not the configured chain %d: stakes are off until the operator fixes warden.evm", chain.ID, chain.ID+1)
	if err != nil || r.first != railFatal || d.Down() != want {
		t.Errorf("wrong chain: %v %v %q", err, r.first, d.Down())
	}
	r.run(t.Context())
	r.close()
	if d.Down() != want {
		t.Errorf("wrong chain after run: %q", d.Down())
	}

	good := cfg.Warden.EVM
	good.ChainID = chain.ID
	cfg.Warden.EVM.RPCURL, cfg.Warden.EVM.ChainID = "http://127.0.0.1:1", chain.ID // nothing listens on port 1
	d, r, err = wardenDoors(t.Context(), cfg, st, br, "", log)
	if err != nil || r.first != railRetry || d.Down() != railUnreached {
		t.Errorf("unreached: %v %v %q", err, r.first, d.Down())
	}

	cfg.Warden.EVM = good
	d, r, err = wardenDoors(t.Context(), cfg, st, br, "", log)
	if err != nil || r.first != railUp || d.Down() != railUnreached || d.NoRail != "" || d.Rail.ChainID != chain.ID || d.Rail.PayTo != payTo || d.Relayer != chain.Dev {
		t.Errorf("rail: %+v, %v", d, err)
	}
	r.run(t.Context())
	defer r.close()
	if d.Down() != "" {
		t.Errorf("rail up: the doors say %q", d.Down())
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
