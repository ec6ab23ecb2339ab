package main

import (
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	"arena/config"
	"arena/storage"
	"arena/transport/warden"
)

// wardenReads: the Bracket's two Warden games with their rates' denominators (Game I 5 rounds,
// claim and offer each: 10 inputs; Game II one commit), the Standing bar from config, and the
// stake list on the doors.
func TestWardenReadsConfig(t *testing.T) {
	st, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, err := newBracket()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Warden.Standing = config.WardenStanding{EliteWinRatePct: 70, EliteMinMatches: 3}
	r := wardenReads(cfg, st, br)
	want := map[string]warden.GameShape{"warden.claims": {Rounds: 5, Inputs: 10}, "warden.dilemma": {Rounds: 1, Inputs: 1}}
	if !reflect.DeepEqual(r.Games, want) || r.Rule != (warden.StandingRule{EliteWinRatePct: 70, EliteMinMatches: 3}) || r.Store != st {
		t.Fatalf("reads: %+v", r)
	}
	d, _, err := wardenDoors(t.Context(), config.Default(), st, br, "", slog.New(slog.DiscardHandler))
	if err != nil || !reflect.DeepEqual(d.Stakes, []uint64{1_000_000, 5_000_000, 10_000_000}) {
		t.Fatalf("doors' stakes %v, %v", d.Stakes, err)
	}
}

// wardenMCP: no stake rail, no meter (the metered tools answer facilitator_unavailable); with
// one, reads metered on its chain, token and payTo at config's prices, signed to the
// configured GatewayWallet, resources named on the origin's host; both Warden manifests listed.
func TestWardenMCPConfig(t *testing.T) {
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
	if m := wardenMCP(cfg, st, br, "http://warden.localhost:8080", log); m.Meter != nil || len(m.Games) != 2 || m.Views == nil {
		t.Fatalf("no rail: %+v", m)
	}
	const token, payTo = "0x1111111111111111111111111111111111111111", "0x3333333333333333333333333333333333333333"
	cfg.Warden.EVM = config.WardenEVM{RPCURL: "http://127.0.0.1:1", ChainID: 1337, Token: token, TokenName: "USDC", TokenVersion: "2",
		Relayer: "0x2222222222222222222222222222222222222222", PayTo: payTo}
	cfg.Warden.Prices = config.WardenPrices{Global: 2, Match: 30}
	m := wardenMCP(cfg, st, br, "https://warden.example:8443/x", log)
	r := m.Meter
	if r == nil || r.Rail.ChainID != 1337 || r.Rail.Asset.String() != token || r.Rail.PayTo.String() != payTo ||
		r.Rail.GatewayWallet.String() != config.ArcGatewayWallet || r.Global != 2 || r.Match != 30 || r.Origin != "mcp://warden.example:8443" ||
		r.Gateway.Faucet != DevGatewayFaucet {
		t.Fatalf("meter %+v", r)
	}
}
