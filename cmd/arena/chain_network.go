package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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

// houseOwner is the house identity account as CAIP-10, the owner of every lent house Badge
// (§3; seat.taken's owner, §15), or "" when it is not configured.
func (n chainNetwork) houseOwner() string {
	if n.house == (ccd.Address{}) {
		return ""
	}
	return n.caip10(n.house)
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
	if n.house != (ccd.Address{}) {
		if err := checkSeasonPool(ctx, cfg, client, n); err != nil {
			return n, err
		}
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

// houseAccountSetting is chain_house_account in the words of the config file, its flag and
// its environment variable (config/chain.go).
const houseAccountSetting = "chain_house_account (--chain-house-account, ARENA_CHAIN_HOUSE_ACCOUNT)"

// checkSeasonPool refuses, at start, a house identity account the escrow could not pay: the
// season pool's payouts (§11.3, agentsHook.seasonPool) go to it at every settle, and the escrow
// rejects a settle with a payee that is not an account, so a round would stay unsettled with
// its pool in the escrow. It must exist on the configured node's network (read from the node,
// which must answer), and it must not be the arena's own account (chain_key_file's, or an alias
// of it: sameAccount), which takes the house's part: the pool is kept apart from the house's
// take on the chain as in the ledger.
func checkSeasonPool(ctx context.Context, cfg config.Config, client *ccd.Client, n chainNetwork) error {
	if sameAccount(n.house, n.account) {
		return fmt.Errorf("serve: %s %s is the arena's own account (chain_key_file %s), which takes the house's part at settle: "+
			"the season pool (§11.3) is paid to the house identity account, kept apart from the house's take; name another account",
			houseAccountSetting, n.house, cfg.ChainKeyPath())
	}
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	_, err := client.Balance(actx, n.house)
	cancel()
	switch {
	case status.Code(err) == codes.NotFound:
		return fmt.Errorf("serve: %s %s: no such account on %s (node %s): the season pool (§11.3) is paid to it at every settle "+
			"and the escrow refuses a payout to an account that does not exist; name an account of this network", houseAccountSetting, n.house, n.chain, cfg.ChainNode)
	case err != nil:
		return fmt.Errorf("serve: %s %s could not be read from the node %s, so the season pool (§11.3) cannot be checked: %w",
			houseAccountSetting, n.house, cfg.ChainNode, err)
	}
	return nil
}

// sameAccount reports whether a and b name one Concordium account: an account's addresses are
// its aliases, the 2^24 addresses sharing its first 29 bytes, and the chain resolves each to
// the account.
func sameAccount(a, b ccd.Address) bool { return [29]byte(a[:29]) == [29]byte(b[:29]) }

// errNoHouse: the instance card cannot name its Badge's owner.
var errNoHouse = errors.New("serve: chain_house_account is not configured: the instance card cannot name the house identity account that owns its Badge (§3)")
