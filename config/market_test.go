package config

import (
	"io"
	"net/netip"
	"reflect"
	"strings"
	"testing"
)

// TestMarketSection: the defaults run a valid market; flags set its game and gateway; a game
// games/market refuses, a half gateway, a bad address and the Authorization header are refused.
func TestMarketSection(t *testing.T) {
	d := Default()
	if err := d.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	if g := d.Market.Game(); g.GameID != "arena-market" || len(g.Assets) != 3 || len(g.StartingAssets) != 3 || len(g.Rules) != 0 {
		t.Errorf("default game: %+v", g)
	}
	c, err := Load("serve", []string{"--market-assets", `[{"id":"gold","unitPrice":9}]`, "--market-starting-assets", `[{"assetId":"gold","quantity":2}]`,
		"--market-gateway-header", "X-Owner-Id", "--market-gateway-from", "10.0.0.5, 192.168.1.0/24"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Market.Assets[0].ID != "gold" || c.Market.Assets[0].UnitPrice != 9 || c.Market.StartingAssets[0].Quantity != 2 {
		t.Errorf("game from flags: %+v", c.Market)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.5/32"), netip.MustParsePrefix("192.168.1.0/24")}
	if got := c.Market.GatewayFrom(); !reflect.DeepEqual(got, want) {
		t.Errorf("gateway from: %v, want %v", got, want)
	}
	bad := []struct {
		name string
		args []string
		want string
	}{
		{"starting asset not an asset", []string{"--market-starting-assets", `[{"assetId":"gold","quantity":1}]`}, "startingAssets[0].assetId"},
		{"header without addresses", []string{"--market-gateway-header", "X-Owner-Id"}, "market.gateway"},
		{"addresses without header", []string{"--market-gateway-from", "10.0.0.5"}, "market.gateway"},
		{"bad address", []string{"--market-gateway-header", "X-Owner-Id", "--market-gateway-from", "gateway.example"}, "market.gateway.from"},
		{"authorization header", []string{"--market-gateway-header", "authorization", "--market-gateway-from", "10.0.0.5"}, "must not be Authorization"},
		{"unknown member", []string{"--market-assets", `[{"id":"gold","price":9}]`}, "unknown field"},
	}
	for _, b := range bad {
		if _, err := Load("serve", b.args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v, want an error naming %q", b.name, err, b.want)
		}
	}
}
