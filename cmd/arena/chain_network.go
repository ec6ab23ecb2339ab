package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/escrow"
	"arena/config"
)

// chainNetwork is what the arena knows of the network it runs on, the same for the embedded
// devchain and a configured node (config/chain.go): the CAIP-2 chain, the arena's own account
// (it signs anchors and escrow calls, funds the house seats, takes the house's part), the house
// identity account (§3: it owns the instance's Badge and house Badges) and the escrow instance
// of paid tables. On a configured node the last two come from config; without either paid
// tables are off and paidOff says why.
type chainNetwork struct {
	chain   badge.Chain
	account ccd.Address
	house   ccd.Address      // zero: not configured
	escrow  *escrow.Contract // nil: not configured
	paidOff string           // why paid tables are off ("" when they are on)
}

// paid reports whether paid tables can run: an escrow and the house identity account.
func (n chainNetwork) paid() bool { return n.paidOff == "" }

// caip10 is acc as a CAIP-10 account on the network's chain.
func (n chainNetwork) caip10(acc ccd.Address) string {
	return badge.Account{Chain: n.chain, Address: acc}.String()
}

// escrowID is the escrow instance as CAIP-10 ("" when there is none).
func (n chainNetwork) escrowID() string {
	if n.escrow == nil {
		return ""
	}
	return badge.Contract{Chain: n.chain, Index: n.escrow.Index, Subindex: n.escrow.Subindex}.String()
}

// chainKey is the arena's account key: on the embedded devchain loaded or generated
// (cfg.ChainKeyPath, its account made at genesis); on a configured node it must exist, since a
// generated account holds nothing on a real network.
func chainKey(cfg config.Config) (*ccd.Key, error) {
	if cfg.ChainNode == "" {
		return ccd.LoadOrCreateKey(cfg.ChainKeyPath(), nil)
	}
	k, err := ccd.LoadKey(cfg.ChainKeyPath())
	if err != nil {
		return nil, fmt.Errorf("serve: chain_key_file (--chain-key, ARENA_CHAIN_KEY_FILE) on the configured node %s: %w", cfg.ChainNode, err)
	}
	return k, nil
}

// networkOf reads the network: the embedded devchain's (posing as testnet, its escrow and house
// account), or a configured node's, whose chain is read from the node (GetConsensusInfo) and,
// when chain_network is set, must be it (ccd.ErrNetwork before anything is signed).
func networkOf(ctx context.Context, cfg config.Config, client *ccd.Client, node *devchain.Node, key *ccd.Key, log *slog.Logger) (chainNetwork, error) {
	n := chainNetwork{account: key.Address()}
	if node != nil {
		n.chain = badge.Testnet
		if acc, ok := node.Account(devchain.AccountHouse); ok {
			n.house = acc.Address.Value
		}
		n.escrow = &escrow.Contract{Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex}
		return n, nil
	}
	nctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	got, err := client.Network(nctx)
	cancel()
	if err != nil {
		return n, fmt.Errorf("serve: chain node %s: %w", cfg.ChainNode, err)
	}
	if cfg.ChainNetwork != "" && got != cfg.ChainNetwork {
		return n, fmt.Errorf("serve: %w: %s is on %s, chain_network is %s", ccd.ErrNetwork, cfg.ChainNode, got, cfg.ChainNetwork)
	}
	if n.chain, err = badge.ParseChain(got); err != nil {
		return n, fmt.Errorf("serve: chain node %s: %w", cfg.ChainNode, err)
	}
	if cfg.ChainNetwork == "" {
		log.Warn("chain_network is unset: running on the node's own network", "node", cfg.ChainNode, "chain", got)
	}
	if cfg.ChainHouseAccount != "" {
		if n.house, err = ccd.ParseAddress(cfg.ChainHouseAccount); err != nil {
			return n, fmt.Errorf("serve: chain_house_account: %w", err)
		}
	}
	if cfg.ChainEscrow != "" {
		e, err := config.ParseEscrow(cfg.ChainEscrow)
		if err != nil {
			return n, fmt.Errorf("serve: chain_escrow: %w", err)
		}
		if e.Chain != "" && e.Chain != got {
			return n, fmt.Errorf("serve: %w: chain_escrow is on %s, the node %s on %s", ccd.ErrNetwork, e.Chain, cfg.ChainNode, got)
		}
		n.escrow = &escrow.Contract{Index: e.Index, Subindex: e.Subindex}
	}
	var missing []string
	if n.escrow == nil {
		missing = append(missing, "chain_escrow")
	}
	if n.house == (ccd.Address{}) {
		missing = append(missing, "chain_house_account")
	}
	if len(missing) > 0 {
		n.paidOff = "this arena serves no paid table: " + strings.Join(missing, " and ") + " are not configured"
		if len(missing) == 1 {
			n.paidOff = "this arena serves no paid table: " + missing[0] + " is not configured"
		}
		log.Warn("paid tables are off on the configured node", "node", cfg.ChainNode, "reason", n.paidOff)
	}
	return n, nil
}

// errNoHouse: the instance card cannot name its Badge's owner.
var errNoHouse = errors.New("serve: chain_house_account is not configured: the instance card cannot name the house identity account that owns its Badge (§3)")
