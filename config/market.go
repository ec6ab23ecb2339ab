package config

import (
	"net/netip"
	"strings"

	gm "arena/games/market"
)

// Market is the Game Master market section (game-master-protocol-v2.md): its site, the game it
// runs (its Assets with their Unit Prices, the Starting Assets, the hidden Game Rules; the
// elements are games/market's Config types, their members as the protocol names them) and the
// trusted gateway. The defaults (Default) run a small market with no rule.
type Market struct {
	Site Site `json:"site"`
	// GameID is the Standing's gameId.
	GameID string `json:"game_id"`
	// Assets are the Assets the game defines, with their Unit Prices ({id, unitPrice,
	// nonTransferable}).
	Assets []gm.Asset `json:"assets"`
	// StartingAssets are issued to each new Player at Enrolment ({assetId, quantity}).
	StartingAssets []gm.Holding `json:"starting_assets"`
	// Rules are the hidden Game Rules, in match order (games/market.Rule). They stay on the
	// server: no public output names one.
	Rules []gm.Rule `json:"rules"`
	// Gateway is a trusted gateway in front of the market.
	Gateway MarketGateway `json:"gateway"`
}

// MarketGateway is a gateway that authenticates callers and forwards each request with the
// caller's Owner ID in Header; the header is honoured only on a connection from one of From (IP
// addresses or CIDR prefixes), never from anywhere else. Both empty (the default): no gateway,
// API keys only.
type MarketGateway struct {
	Header string   `json:"header"`
	From   []string `json:"from"`
}

// Game is the section's game as games/market reads it.
func (m Market) Game() gm.Config {
	return gm.Config{GameID: m.GameID, Assets: m.Assets, StartingAssets: m.StartingAssets, Rules: m.Rules}
}

// GatewayFrom is Gateway.From parsed (Validate has checked it), each address as a one-address
// prefix.
func (m Market) GatewayFrom() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range m.Gateway.From {
		if p, ok := parseFrom(s); ok {
			out = append(out, p)
		}
	}
	return out
}

func parseFrom(s string) (netip.Prefix, bool) {
	s = strings.TrimSpace(s)
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), true
	}
	if a, err := netip.ParseAddr(s); err == nil {
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	return netip.Prefix{}, false
}

// defaultMarket is the market `arena serve` runs with no config: three Assets, Starting Assets
// enough for a few trades, no Game Rule.
func defaultMarket() Market {
	return Market{
		Site:   Site{Hosts: []string{"market.localhost"}},
		GameID: "arena-market",
		Assets: []gm.Asset{{ID: "credits", UnitPrice: 1}, {ID: "wood", UnitPrice: 4}, {ID: "stone", UnitPrice: 6}},
		StartingAssets: []gm.Holding{{AssetID: "credits", Quantity: 100}, {AssetID: "wood", Quantity: 10},
			{AssetID: "stone", Quantity: 5}},
	}
}

// validate checks the section's game (games/market's own checks) and gateway (its site is
// checked with the others', validateSites).
func (m Market) validate(bad func(field, format string, args ...any)) {
	if _, err := gm.NewState(m.Game(), [32]byte{}); err != nil {
		bad("market (game_id, assets, starting_assets, rules)", "%v", err)
	}
	g := m.Gateway
	if strings.TrimSpace(g.Header) == "" && len(g.From) > 0 || g.Header != "" && len(g.From) == 0 {
		bad("market.gateway (--market-gateway-header, --market-gateway-from)", "needs both a header and the gateway's addresses, or neither")
	}
	if strings.EqualFold(strings.TrimSpace(g.Header), "Authorization") {
		bad("market.gateway.header (--market-gateway-header, ARENA_MARKET_GATEWAY_HEADER)", "must not be Authorization (the API keys' header)")
	}
	for _, s := range g.From {
		if _, ok := parseFrom(s); !ok {
			bad("market.gateway.from (--market-gateway-from, ARENA_MARKET_GATEWAY_FROM)", "want IP addresses or CIDR prefixes such as 10.0.0.5 or 10.0.0.0/24, got %q", s)
		}
	}
}
