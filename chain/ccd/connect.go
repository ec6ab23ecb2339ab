package ccd

import (
	"context"
	"errors"
	"fmt"
)

// NodeConfig is everything that says which chain the arena anchors on and as whom. Switching
// from the embedded devchain to a real node is a change of NodeConfig and nothing else.
type NodeConfig struct {
	Addr    string // "host:port" of the node's gRPC API v2 (Concordium's default port is 20000)
	TLS     bool   // TLS with the system roots (public gRPC endpoints), else plain text
	Network string // expected CAIP-2 chain id (§3), e.g. ccd:4221332d34e1694168c2a0c0b3fd0f27; "" skips the check
	KeyFile string // the account key file (LoadKey): a Concordium export or {"address", "seed"}
}

// ErrNetwork: the node is on another chain than the one configured.
var ErrNetwork = errors.New("ccd: node is on another network")

// Connect loads the account key, dials the node and, when cfg.Network is set, checks the node's
// genesis against it (one GetConsensusInfo call bounded by ctx), so an arena configured for
// testnet never anchors on mainnet or a devchain by mistake. On error nothing stays open.
func Connect(ctx context.Context, cfg NodeConfig) (*Client, *Key, error) {
	if cfg.Addr == "" {
		return nil, nil, errors.New("ccd: connect: no node address")
	}
	key, err := LoadKey(cfg.KeyFile)
	if err != nil {
		return nil, nil, err
	}
	c, err := Dial(ctx, cfg.Addr, cfg.TLS)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Network != "" {
		got, err := c.Network(ctx)
		if err != nil {
			c.Close()
			return nil, nil, fmt.Errorf("ccd: connect %s: %w", cfg.Addr, err)
		}
		if got != cfg.Network {
			c.Close()
			return nil, nil, fmt.Errorf("%w: %s is on %s, configured %s", ErrNetwork, cfg.Addr, got, cfg.Network)
		}
	}
	return c, key, nil
}
