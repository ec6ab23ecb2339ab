package config

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// §17's stake list, Standing bar and read prices: the defaults, set by flag and variable, and
// every bad value refused at load naming its field and why.
func TestWardenPlaySettings(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := Load("serve", nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	w := c.Warden
	if !reflect.DeepEqual(w.StakesAllowed, []uint64{1_000_000, 5_000_000, 10_000_000}) ||
		w.Standing != (WardenStanding{EliteWinRatePct: 60, EliteMinMatches: 1}) || w.Prices != (WardenPrices{Global: 1, Match: 10}) {
		t.Fatalf("defaults: %+v %+v %+v", w.StakesAllowed, w.Standing, w.Prices)
	}
	c, err = Load("serve", []string{"--warden-stakes", "200000, 2000000", "--warden-elite-win-rate", "75", "--warden-price-match", "20"},
		env(map[string]string{"ARENA_WARDEN_ELITE_MIN_MATCHES": "3", "ARENA_WARDEN_PRICE_GLOBAL": "2"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	w = c.Warden
	if !reflect.DeepEqual(w.StakesAllowed, []uint64{200_000, 2_000_000}) ||
		w.Standing != (WardenStanding{EliteWinRatePct: 75, EliteMinMatches: 3}) || w.Prices != (WardenPrices{Global: 2, Match: 20}) {
		t.Fatalf("set: %+v %+v %+v", w.StakesAllowed, w.Standing, w.Prices)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--warden-stakes", "1000000,300000"}, "warden.stakes_allowed (--warden-stakes, ARENA_WARDEN_STAKES): stake 300000 is not a positive multiple of 200000"},
		{[]string{"--warden-stakes", "0"}, "stake 0 is not a positive multiple"},
		{[]string{"--warden-stakes", "1000000,1000000"}, "stake 1000000 is listed twice"},
		{[]string{"--warden-stakes", "1 USDC"}, "want comma-separated whole numbers of atomic units"},
		{[]string{"--warden-stakes", "-200000"}, "want comma-separated whole numbers"},
		{[]string{"--warden-elite-win-rate", "0"}, "warden.standing.elite_win_rate_pct"},
		{[]string{"--warden-elite-win-rate", "101"}, "want a percentage from 1 to 100, got 101"},
		{[]string{"--warden-elite-min-matches", "0"}, "warden.standing.elite_min_matches"},
		{[]string{"--warden-price-global", "0"}, "warden.prices.global"},
		{[]string{"--warden-price-match", "1"}, "warden.prices.match (--warden-price-match, ARENA_WARDEN_PRICE_MATCH): want more than the global price 1"},
		{[]string{"--warden-price-match", "-5"}, "want a whole number"},
		{[]string{"--warden-gateway-wallet", "0x12"}, "warden.gateway_wallet (--warden-gateway-wallet, ARENA_WARDEN_GATEWAY_WALLET): want 0x followed by 40 hex digits"},
	} {
		_, err := Load("serve", bad.args, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.want)
		}
	}
}
