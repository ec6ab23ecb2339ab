package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"arena/chain/devchain"
)

// devchainCommand is `arena devchain`: the embedded local Concordium node, standalone.
var devchainCommand = command{
	summary: "run the embedded local Concordium node (gRPC) standalone",
	run: func(ctx context.Context, args []string) int {
		return runDevchain(ctx, args, os.Stdout, os.Stderr)
	},
}

const devchainUsage = `usage: arena devchain [--addr HOST:PORT] [--data DIR] [--block-time D] [--finalize-after D]
                      [--energy-price N] [--genesis FILE] [--agents FILE]

Runs the devchain: a local node serving Concordium's gRPC API v2 (concordium.v2.Queries) with
stand-ins of the CIS-8004 Badge registry at <12802,0> and the round escrow at <12810,0>. On
its first start in DIR it generates the genesis accounts (arena, house, test-1..test-4) and
writes their keys to DIR/devchain-genesis.json (mode 0600). When it is listening it prints one
JSON line: {"addr", "data", "genesis_file", "registry", "escrow", "accounts":[{name,address}]},
then serves until interrupted.
  --addr            listen address (default 127.0.0.1:0, a free port)
  --data            the chain's data directory (default ./data/devchain); an arena data
                    directory (one holding arena.db) means its embedded chain, DIR/devchain,
                    whose lock a running arena serve holds: the devchain then fails (timeout)
                    rather than start a second chain beside the server's
  --block-time      how often received transactions are baked into a block (default 100ms)
  --finalize-after  how long a block stays committed before it is finalized (default 500ms;
                    0 finalizes a block as it is baked)
  --energy-price    fee in microCCD per NRG (default 0: free)
  --genesis         genesis accounts for a fresh DIR, in the devchain-genesis.json form
                    (ignored when DIR already holds a chain)
  --agents          CIS-8004 registrations to store at start, replacing those with the same
                    token ids: a JSON array of {token_id, owner, agent_uri, metadata_hash,
                    external_reference, agent_wallet, status, revocation_reason}
`

// devchainReady is the line printed once the node listens.
type devchainReady struct {
	Addr        string            `json:"addr"`
	Data        string            `json:"data"`
	GenesisFile string            `json:"genesis_file"`
	Registry    string            `json:"registry"`
	Escrow      string            `json:"escrow"`
	Accounts    []devchainAccount `json:"accounts"`
}

type devchainAccount struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// embeddedChainDir is the chain directory of dir when dir is an arena data directory (it holds
// arena.db): dir/devchain, where arena serve keeps its embedded devchain (and holds its lock
// while it runs). ok is false for any other directory, which is the chain's own.
func embeddedChainDir(dir string) (string, bool) {
	if _, err := os.Stat(filepath.Join(dir, "arena.db")); err != nil {
		return "", false
	}
	return filepath.Join(dir, "devchain"), true
}

// runDevchain runs the node until ctx ends. Exit codes: 0 stopped cleanly, 1 the node failed
// to start, 2 usage error.
func runDevchain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena devchain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	data := fs.String("data", filepath.Join("data", "devchain"), "data directory")
	blockTime := fs.Duration("block-time", 100*time.Millisecond, "block interval")
	finalizeAfter := fs.Duration("finalize-after", 500*time.Millisecond, "finalization delay")
	price := fs.Uint64("energy-price", 0, "microCCD per NRG")
	genesisFile := fs.String("genesis", "", "genesis file for a fresh data directory")
	agentsFile := fs.String("agents", "", "CIS-8004 registrations to store at start")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, devchainUsage)
			return 0
		}
		fmt.Fprintf(stderr, "arena devchain: %v\n%s", err, devchainUsage)
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "arena devchain: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	arenaDir := ""
	if chainDir, ok := embeddedChainDir(*data); ok {
		arenaDir, *data = *data, chainDir
	}
	if *blockTime <= 0 || *finalizeAfter < 0 {
		fmt.Fprintln(stderr, "arena devchain: --block-time must be positive and --finalize-after not negative")
		return 2
	}
	fin := *finalizeAfter
	if fin == 0 {
		fin = -1 // finalize at once
	}
	opts := devchain.Options{
		Addr: *addr, Dir: *data, BlockTime: *blockTime, FinalizeAfter: fin, EnergyPrice: *price,
		Log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
	if *genesisFile != "" {
		g, err := devchain.LoadGenesis(*genesisFile)
		if err != nil {
			fmt.Fprintf(stderr, "arena devchain: %v\n", err)
			return 2
		}
		opts.Genesis = &g
	}
	var agents []devchain.Agent
	if *agentsFile != "" {
		var err error
		if agents, err = devchain.LoadAgents(*agentsFile); err != nil {
			fmt.Fprintf(stderr, "arena devchain: %v\n", err)
			return 2
		}
	}
	n, err := devchain.Start(ctx, opts)
	if err != nil {
		if arenaDir != "" {
			fmt.Fprintf(stderr, "arena devchain: %v (is arena serve running on %s? one data directory serves one process at a time)\n", err, arenaDir)
			return 1
		}
		fmt.Fprintf(stderr, "arena devchain: %v\n", err)
		return 1
	}
	defer n.Stop()
	for _, a := range agents {
		if a.RegisteredAtMs == 0 {
			a.RegisteredAtMs = uint64(time.Now().UnixMilli())
		}
		if err := n.PutAgent(a); err != nil {
			fmt.Fprintf(stderr, "arena devchain: %v\n", err)
			return 1
		}
	}
	ready := devchainReady{
		Addr: n.Addr(), Data: *data, GenesisFile: filepath.Join(*data, "devchain-genesis.json"),
		Registry: devchain.DefaultRegistry.String(), Escrow: devchain.DefaultEscrow.String(),
	}
	for _, a := range n.Genesis().Accounts {
		ready.Accounts = append(ready.Accounts, devchainAccount{Name: a.Name, Address: a.Address.ToBase58()})
	}
	line, err := json.Marshal(ready)
	if err != nil {
		fmt.Fprintf(stderr, "arena devchain: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, string(line))
	<-ctx.Done()
	return 0
}
