package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arena/chain/x402"
)

// StakeMultiple is what every stake must be a multiple of, in atomic units (warden-games §17):
// with Game I's default pot (base 20 %, step 5 %, cap 40 % of a stake) every pot, step and half
// pot is then a whole multiple of 10 000 units, so no share() leaves rounding dust (§0, JC-11).
const StakeMultiple = 200_000

// WardenStanding is Standing's ELITE bar (§13.1): EliteWinRatePct percent of settled matches
// won (integer comparison, 1–100) over at least EliteMinMatches matches (≥ 1).
type WardenStanding struct {
	EliteWinRatePct int64 `json:"elite_win_rate_pct"`
	EliteMinMatches int64 `json:"elite_min_matches"`
}

// WardenPrices are the metered reads' prices in atomic units of the read rail's asset (§10.1,
// §8.2): Global for the reads any caller may make (match list, leaderboard), Match for a read
// tied to a match the caller plays. Each at least 1; Global below Match, so that an
// authorization for one tier can never pay the other (§10.8 binding).
type WardenPrices struct {
	Global uint64 `json:"global"`
	Match  uint64 `json:"match"`
}

func defaultWardenPlay(w *Warden) {
	w.StakesAllowed = []uint64{1_000_000, 5_000_000, 10_000_000}
	w.Standing = WardenStanding{EliteWinRatePct: 60, EliteMinMatches: 1}
	w.Prices = WardenPrices{Global: 1, Match: 10}
	w.GatewayWallet = ArcGatewayWallet
}

// ArcGatewayWallet is Circle's GatewayWallet on Arc Testnet (warden-games §0).
const ArcGatewayWallet = "0x0077777d7EBA4688BDeF3E311b846F25870A19B9"

// validatePlay checks §17's stake list, Standing bar and prices.
func (w Warden) validatePlay(bad func(field, format string, args ...any)) {
	const stakes = "warden.stakes_allowed (--warden-stakes, ARENA_WARDEN_STAKES)"
	if len(w.StakesAllowed) == 0 {
		bad(stakes, "must list at least one stake (atomic units, 1000000 is 1 USDC)")
	}
	for i, s := range w.StakesAllowed {
		switch {
		case s == 0 || s%StakeMultiple != 0:
			bad(stakes, "stake %d is not a positive multiple of %d atomic units (0.2 USDC), which Game I's pot needs to divide exactly", s, StakeMultiple)
		case s > 1<<50:
			bad(stakes, "stake %d is above %d atomic units", s, uint64(1<<50))
		case slices.Contains(w.StakesAllowed[:i], s):
			bad(stakes, "stake %d is listed twice", s)
		}
	}
	if p := w.Standing.EliteWinRatePct; p < 1 || p > 100 {
		bad("warden.standing.elite_win_rate_pct (--warden-elite-win-rate, ARENA_WARDEN_ELITE_WIN_RATE)", "want a percentage from 1 to 100, got %d", p)
	}
	if n := w.Standing.EliteMinMatches; n < 1 {
		bad("warden.standing.elite_min_matches (--warden-elite-min-matches, ARENA_WARDEN_ELITE_MIN_MATCHES)", "want at least 1 match, got %d", n)
	}
	if _, ok := x402.ParseAddress(w.GatewayWallet); !ok {
		bad("warden.gateway_wallet (--warden-gateway-wallet, ARENA_WARDEN_GATEWAY_WALLET)", "want 0x followed by 40 hex digits, got %q", w.GatewayWallet)
	}
	p := w.Prices
	switch {
	case p.Global < 1:
		bad("warden.prices.global (--warden-price-global, ARENA_WARDEN_PRICE_GLOBAL)", "want at least 1 atomic unit, got %d", p.Global)
	case p.Match <= p.Global:
		bad("warden.prices.match (--warden-price-match, ARENA_WARDEN_PRICE_MATCH)", "want more than the global price %d (one tier's authorization must never pay the other), got %d", p.Global, p.Match)
	}
}

// stakeList reads --warden-stakes: comma-separated whole numbers of atomic units.
func stakeList(f func(c *Config) *[]uint64) func(*Config, string) error {
	return func(c *Config, v string) error {
		var out []uint64
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return fmt.Errorf("want comma-separated whole numbers of atomic units (1000000 is 1 USDC), got %q", s)
			}
			out = append(out, n)
		}
		*f(c) = out
		return nil
	}
}

// whole reads a non-negative whole number.
func whole[T int64 | uint64](f func(c *Config) *T) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseUint(v, 10, 62)
		if err != nil {
			return fmt.Errorf("want a whole number, got %q", v)
		}
		*f(c) = T(n)
		return nil
	}
}
