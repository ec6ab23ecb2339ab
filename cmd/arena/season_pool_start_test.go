package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/storage"
)

// The house identity account receives the season pool at every settle (§11.3): serve does not
// start on a configured node when it is an account the escrow could not pay (none of that
// name on the network) or the arena's own account (the house's take), and says so in the
// config file's words.
func TestServeRefusesABadSeasonPoolAccount(t *testing.T) {
	n := startExternalNode(t, 0, 0)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	key, err := ccd.LoadKey(n.keyFile)
	if err != nil {
		t.Fatal(err)
	}
	var nobody ccd.Address
	nobody[0], nobody[31] = 7, 9
	// An alias of the arena's own account (the same first 29 bytes: the same account on
	// Concordium, which resolves every alias to it) is that account too.
	alias := key.Address()
	alias[31] ^= 0x5a
	for _, tc := range []struct {
		name, house string
		want        []string
	}{
		{"no such account", nobody.String(), []string{"chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)", nobody.String(), "no such account", "season pool"}},
		{"the arena's own account", key.Address().String(), []string{"chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)", "the arena's own account", "season pool"}},
		{"an alias of the arena's own account", alias.String(), []string{"chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)", "the arena's own account", "season pool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := n.config(t.TempDir())
			cfg.ChainHouseAccount = tc.house
			if err := cfg.Validate(); err != nil {
				t.Fatalf("the address itself is well formed: %v", err)
			}
			st, err := storage.Open(cfg.DBPath(), storage.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			ch, err := startChain(ctx, cfg, st, log)
			if err == nil {
				ch.stop()
				t.Fatal("serve's chain started with a season pool the escrow cannot pay")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("err %q, want it to say %q", err, w)
				}
			}
		})
	}
	// A node that does not answer for the account refuses the start too: the pool is not
	// checked, so nothing is served on it.
	t.Run("the account cannot be read", func(t *testing.T) {
		n.node.SetFaults(devchain.Faults{MethodLatency: map[string]time.Duration{"GetAccountInfo": time.Minute}})
		defer n.node.SetFaults(devchain.Faults{})
		cfg := n.config(t.TempDir())
		st, err := storage.Open(cfg.DBPath(), storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		ch, err := startChain(sctx, cfg, st, log)
		if err == nil {
			ch.stop()
			t.Fatal("serve's chain started with a season pool it could not read")
		}
		for _, w := range []string{"chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)", "could not be read", "season pool"} {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("err %q, want it to say %q", err, w)
			}
		}
	})
	// The node's own house account starts.
	cfg := n.config(t.TempDir())
	st, err := storage.Open(cfg.DBPath(), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ch, err := startChain(ctx, cfg, st, log)
	if err != nil {
		t.Fatalf("the node's house account: %v", err)
	}
	ch.stop()
}
