package badge

import (
	"context"
	"testing"

	"arena/chain/devchain"
)

// TestOwnChainRegistry: on a chain that is neither testnet nor mainnet (a devchain with its own
// genesis), the registry is the configured one (default <12802,0>); Badges of any other
// contract are not Badges, and reading a registry where the node has none is a refusal.
func TestOwnChainRegistry(t *testing.T) {
	w := newWorldWith(t, func(o *devchain.Options) { o.Registry = devchain.ContractAddress{Index: 4000} })
	if w.chain == Testnet || w.chain == Mainnet {
		t.Fatalf("devchain posing as %s", w.chain)
	}
	id := w.register(reg{owner: w.player, spec: player("Local")})
	if id.Token.Index != 4000 || id.Chain != w.chain {
		t.Fatalf("Badge %s", id)
	}
	ctx := context.Background()
	at4000 := w.resolver(func(c *Config) { c.Registry = &Contract{Index: 4000} })
	a, err := at4000.Resolve(ctx, id.String())
	if err != nil || a.Name != "Local" {
		t.Fatalf("configured registry: %+v %v", a, err)
	}
	// Default registry <12802,0>: the Badge at <4000,0> is not a Badge...
	def := w.resolver(nil)
	if _, err := def.Resolve(ctx, id.String()); codeOf(err) != CodeWrongRegistry {
		t.Fatalf("default registry, Badge at 4000: %v", err)
	}
	// ...and one at <12802,0> reads a contract the node does not have: unreadable, refused.
	ghost := NewAgentID(w.chain, Contract{Chain: w.chain, Index: 12802}, 0)
	if _, err := def.Resolve(ctx, ghost.String()); codeOf(err) != CodeRegistryUnreadable {
		t.Fatalf("no contract at the registry address: %v", err)
	}
	// A testnet Badge on this chain is on the wrong network.
	if _, err := at4000.Resolve(ctx, NewAgentID(Testnet, TestnetRegistry, 0).String()); codeOf(err) != CodeWrongNetwork {
		t.Fatalf("testnet Badge: %v", err)
	}
}
