package main

import (
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"

	"arena/chain/x402"
	"arena/config"
	"arena/games"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/storage"
	"arena/transport/warden"
)

// wardenReads builds the Warden's Ledger reads (transport/warden Reads: §12–§14) over store:
// the Standing rule from config, and for each of the Bracket's Warden-family
// games its rounds (the format's turns) and the inputs a seat must give per match (the
// manifest's required steps per round × rounds; one per turn for a game without a manifest
// document), the denominators of §14.1's overshoot and timeout rates.
func wardenReads(cfg config.Config, store *storage.Store, bracket *games.Bracket) *warden.Reads {
	required := map[string]int64{claims.GameID: requiredSteps(claims.ManifestJSON), dilemma.GameID: requiredSteps(dilemma.ManifestJSON)}
	shapes := map[string]warden.GameShape{}
	for _, m := range bracket.Manifests() {
		if !strings.HasPrefix(m.ID, "warden.") || len(m.Formats) == 0 {
			continue
		}
		turns := int64(m.Formats[0].Turns)
		per := required[m.ID]
		if per == 0 {
			per = 1
		}
		shapes[m.ID] = warden.GameShape{Rounds: turns, Inputs: per * turns}
	}
	return &warden.Reads{Store: store, Games: shapes,
		Rule: warden.StandingRule{EliteWinRatePct: cfg.Warden.Standing.EliteWinRatePct, EliteMinMatches: cfg.Warden.Standing.EliteMinMatches}}
}

// requiredSteps counts a §16.1 manifest's steps marked required (0 when it does not decode).
func requiredSteps(manifest []byte) int64 {
	var m struct {
		Steps []struct {
			Required bool `json:"required"`
		} `json:"steps"`
	}
	if json.Unmarshal(manifest, &m) != nil {
		return 0
	}
	var n int64
	for _, s := range m.Steps {
		if s.Required {
			n++
		}
	}
	return n
}

// DevGatewayFaucet is the Gateway balance the local facilitator gives every payer (§10.7.2 dev
// seeding: 10 USDC).
const DevGatewayFaucet = 10_000_000

// wardenMCP builds the Warden's metered MCP door (transport/warden MCP, §8): the Bracket's
// Warden manifests and both games' rules text (also served on REST: /v1/warden/games, /games/{game}/rules, the GET /matches list); the private views from the stored match records
// (StoredViews) until the match actor serves them; and, with a stake rail, the metered reads on
// its chain, token and payTo through the local facilitator's Gateway simulation (§10.7.2) at
// config's prices, resource URLs on origin's host. Without a rail the metered tools answer
// facilitator_unavailable.
func wardenMCP(cfg config.Config, store *storage.Store, bracket *games.Bracket, origin string, log *slog.Logger) *warden.MCP {
	m := &warden.MCP{Store: store, Views: warden.StoredViews{Store: store}, Log: log.With("component", "warden_mcp"),
		RulesText: func(game string) (string, bool) {
			switch game {
			case claims.GameID:
				return claims.RulesText, true
			case dilemma.GameID:
				return dilemma.RulesText, true
			}
			return "", false
		}}
	for _, man := range bracket.Manifests() {
		if !strings.HasPrefix(man.ID, "warden.") {
			continue
		}
		var raw json.RawMessage
		switch man.ID {
		case claims.GameID:
			raw = claims.ManifestJSON
		case dilemma.GameID:
			raw = dilemma.ManifestJSON
		default: // a Bracket game without a §16.1 document: its registry manifest
			raw, _ = json.Marshal(man)
		}
		m.Games = append(m.Games, raw)
	}
	e := cfg.Warden.EVM
	if !e.Enabled() {
		return m
	}
	// Validate has checked these parse.
	token, _ := x402.ParseAddress(e.Token)
	payTo, _ := x402.ParseAddress(e.PayTo)
	gw, _ := x402.ParseAddress(cfg.Warden.GatewayWallet)
	host := "warden.localhost"
	if u, err := url.Parse(origin); err == nil && u.Host != "" {
		host = u.Host
	}
	m.Meter = &warden.Meter{Store: store, Rail: warden.ReadRail{ChainID: e.ChainID, Asset: token, PayTo: payTo, GatewayWallet: gw},
		Gateway: &warden.LocalGateway{Store: store, Wallet: gw, Faucet: DevGatewayFaucet},
		Global:  cfg.Warden.Prices.Global, Match: cfg.Warden.Prices.Match, Origin: "mcp://" + host}
	return m
}
