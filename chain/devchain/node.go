package devchain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/grpc"
)

// Options configure a node. The zero value works: a node on a free loopback port keeping a
// temporary chain with a generated genesis.
type Options struct {
	// Addr is the TCP address to listen on; "" means "127.0.0.1:0" (a free loopback port,
	// reported by Node.Addr).
	Addr string
	// Dir is the data directory. The node keeps the chain in its own bbolt file there,
	// devchain.db (never the arena's file: only storage opens that), and writes
	// devchain-genesis.json (the accounts and their keys, mode 0600) on first start. "" keeps
	// the chain in a temporary directory removed by Stop.
	Dir string
	// BlockTime is how often received items are baked into a block; 0 means 100ms.
	BlockTime time.Duration
	// FinalizeAfter is how long a block stays committed before it is finalized; 0 means
	// 500ms, negative means at once, in the tick that bakes the block (no caller ever sees
	// it committed).
	FinalizeAfter time.Duration
	// Genesis is the first state of a fresh store; nil generates DefaultGenesis. A store that
	// already holds a chain keeps its own genesis.
	Genesis *Genesis
	// EnergyPrice is the fee in microCCD per NRG; 0 makes transactions free (the vectors'
	// cost of 0).
	EnergyPrice uint64
	// Registry and Escrow are the stand-ins' instance addresses; zero means DefaultRegistry
	// and DefaultEscrow.
	Registry, Escrow ContractAddress
	// EscrowAdmin names the genesis account allowed to open, anchor and settle rounds;
	// "" means AccountArena when the genesis has one (else nobody may), and a name not in the
	// genesis is ErrOptions.
	EscrowAdmin string
	// NoSync skips bbolt's fsync on the node's own file: a killed process loses nothing (the
	// pages are in the OS), a machine crash may.
	NoSync bool
	// Faults are injected from the start; Node.SetFaults changes them.
	Faults Faults
	// Clock is the chain's wall clock: expiry checks, block times, finalization delay.
	// nil means time.Now. Tests replaying a vector whose expiry has passed set it back.
	Clock func() time.Time
	// Log receives the node's records; nil discards them.
	Log *slog.Logger
}

// Node is a running devchain node. Its methods are safe for concurrent use.
type Node struct {
	opts   Options
	log    *slog.Logger
	tmpDir string
	faults *faultState

	mu      sync.Mutex       // guards the fields below
	genesis Genesis          // read back from the store at each (re)start
	db      *bolt.DB         // replaced by Restart
	chain   *chain           // replaced by Restart
	extra   []GenesisAccount // made by CreateAccount
	addr    string
	srv     *grpc.Server
	lis     net.Listener
	stopLn  chan struct{} // closes to stop the block loop
	loopEnd chan struct{} // closed when the block loop has returned
	running bool
}

// Start opens (or creates) the chain, starts baking blocks and serves concordium.v2.Queries
// on opts.Addr. It returns ErrOptions for a bad genesis or address, and the listener's error
// when the address is taken. ctx bounds the start only; Stop ends the node.
func Start(ctx context.Context, opts Options) (*Node, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.BlockTime <= 0 {
		opts.BlockTime = 100 * time.Millisecond
	}
	switch {
	case opts.FinalizeAfter == 0:
		opts.FinalizeAfter = 500 * time.Millisecond
	case opts.FinalizeAfter < 0:
		opts.FinalizeAfter = 0
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Registry == (ContractAddress{}) {
		opts.Registry = DefaultRegistry
	}
	if opts.Escrow == (ContractAddress{}) {
		opts.Escrow = DefaultEscrow
	}
	if opts.Registry == opts.Escrow {
		return nil, fmt.Errorf("%w: registry and escrow at the same address %s", ErrOptions, opts.Registry)
	}
	n := &Node{opts: opts, log: opts.Log, faults: newFaultState(opts.Faults)}
	if n.log == nil {
		n.log = slog.New(slog.DiscardHandler)
	}
	if err := n.openStore(); err != nil {
		return nil, err
	}
	if err := n.serve(opts.Addr); err != nil {
		n.closeStore()
		return nil, err
	}
	return n, nil
}

// openStore opens the node's file, initializes the chain and writes the genesis file on a fresh
// Dir.
func (n *Node) openStore() error {
	dir := n.opts.Dir
	if dir == "" {
		if n.tmpDir == "" {
			t, err := os.MkdirTemp("", "devchain-")
			if err != nil {
				return fmt.Errorf("devchain: temporary directory: %w", err)
			}
			n.tmpDir = t
		}
		dir = n.tmpDir
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("devchain: data directory: %w", err)
	}
	db, err := bolt.Open(filepath.Join(dir, "devchain.db"), 0o600, &bolt.Options{Timeout: 5 * time.Second, NoSync: n.opts.NoSync})
	if err != nil {
		return fmt.Errorf("devchain: open %s: %w", dir, err)
	}
	n.mu.Lock()
	n.db = db
	n.mu.Unlock()
	c := &chain{db: db, now: n.opts.Clock, finalizeAfter: n.opts.FinalizeAfter, energyPrice: n.opts.EnergyPrice, refuse: n.faults.refusal}
	g, err := initChain(c, n.opts.Genesis)
	if err != nil {
		n.closeStore()
		return err
	}
	adminName := n.opts.EscrowAdmin
	if adminName == "" {
		adminName = AccountArena
	}
	admin, ok := findAccount(g, adminName)
	switch {
	case !ok && n.opts.EscrowAdmin != "":
		n.closeStore()
		return fmt.Errorf("%w: escrow admin %q is not a genesis account", ErrOptions, n.opts.EscrowAdmin)
	case !ok:
		n.log.Warn("no arena account in genesis: nobody can open, anchor or settle escrow rounds")
	}
	c.contracts = &contracts{registry: n.opts.Registry, escrow: n.opts.Escrow, admin: admin.Address.Value, hasAdmin: ok}
	n.mu.Lock()
	n.chain, n.genesis = c, g
	n.mu.Unlock()
	if n.opts.Dir != "" {
		path := filepath.Join(n.opts.Dir, "devchain-genesis.json")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			raw, err := g.marshal()
			if err == nil {
				err = os.WriteFile(path, raw, 0o600)
			}
			if err != nil {
				n.closeStore()
				return fmt.Errorf("devchain: write genesis file: %w", err)
			}
		}
	}
	return nil
}

func (n *Node) closeStore() {
	n.mu.Lock()
	db := n.db
	n.mu.Unlock()
	if db != nil {
		if err := db.Close(); err != nil {
			n.log.Warn("close store", "err", err)
		}
	}
}

// serve listens on addr, registers the Queries service and starts the block loop.
func (n *Node) serve(addr string) error {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("devchain: listen %s: %w", addr, err)
	}
	// WaitForHandlers: Stop returns only when no handler still touches the store.
	srv := grpc.NewServer(grpc.UnaryInterceptor(n.faults.intercept), grpc.WaitForHandlers(true))
	pb.RegisterQueriesServer(srv, &queries{n: n})
	n.mu.Lock()
	n.addr, n.srv, n.lis = lis.Addr().String(), srv, lis
	n.stopLn, n.loopEnd, n.running = make(chan struct{}), make(chan struct{}), true
	stop, end, c := n.stopLn, n.loopEnd, n.chain
	n.mu.Unlock()
	go n.loop(c, stop, end)
	go func() {
		if err := srv.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			n.log.Warn("grpc serve ended", "err", err)
		}
	}()
	n.log.Info("devchain listening", "addr", n.addr)
	return nil
}

// loop bakes and finalizes on every BlockTime tick until stop closes.
func (n *Node) loop(c *chain, stop <-chan struct{}, end chan<- struct{}) {
	defer close(end)
	t := time.NewTicker(n.opts.BlockTime)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if _, err := c.tick(); err != nil {
				n.log.Error("block tick failed", "err", err)
			}
		}
	}
}

// halt stops serving and baking; the store stays open.
func (n *Node) halt() bool {
	n.mu.Lock()
	if !n.running {
		n.mu.Unlock()
		return false
	}
	n.running = false
	srv, stop, end := n.srv, n.stopLn, n.loopEnd
	n.mu.Unlock()
	srv.Stop() // closes the listener and every connection, as a crashed node would
	close(stop)
	<-end
	return true
}

// ch is the current chain (Restart replaces it).
func (n *Node) ch() *chain {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.chain
}

// Addr is the address the node listens on (host:port), the same across restarts.
func (n *Node) Addr() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.addr
}

// Stop ends the node: the server closes its connections, baking stops, and a store the node
// opened is closed (a temporary one removed). Stop is idempotent.
func (n *Node) Stop() {
	if !n.halt() {
		return
	}
	n.closeStore()
	if n.tmpDir != "" {
		_ = os.RemoveAll(n.tmpDir)
	}
}

// Restart simulates a node restart: it stops serving (every connection drops, calls fail
// with Unavailable), closes and reopens its store, waits down, and serves again on the same
// address with the same state. Items received but not yet in a block survive, as in a node's
// persisted transaction table.
func (n *Node) Restart(ctx context.Context, down time.Duration) error {
	if !n.halt() {
		return ErrStopped
	}
	addr := n.Addr()
	n.closeStore()
	select {
	case <-ctx.Done():
	case <-time.After(down):
	}
	if err := n.openStore(); err != nil {
		return err
	}
	// The old port may linger for a moment after close; retry briefly.
	var err error
	for range 50 {
		if err = n.serve(addr); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	n.closeStore()
	return err
}

// Tick bakes and finalizes at once instead of waiting for the next BlockTime tick. It
// reports whether a block was baked or finalized.
func (n *Node) Tick() (bool, error) { return n.ch().tick() }

// Genesis returns the chain's genesis, seeds included: the operator's and the tests' way to
// the keys of generated accounts.
func (n *Node) Genesis() Genesis {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.genesis
}

// Account finds a genesis account by name ("arena", "house", "test-1", ...).
// Accounts made by CreateAccount are found too.
func (n *Node) Account(name string) (GenesisAccount, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if a, ok := findAccount(n.genesis, name); ok {
		return a, true
	}
	return findAccount(Genesis{Accounts: n.extra}, name)
}

func findAccount(g Genesis, name string) (GenesisAccount, bool) {
	for _, a := range g.Accounts {
		if a.Name == name {
			return a, true
		}
	}
	return GenesisAccount{}, false
}

// AccountState is an account as the chain holds it now.
type AccountState struct {
	Address   v2.AccountAddress
	Balance   uint64 // microCCD
	NextNonce uint64 // the sequence number the next submission must carry
	AllFinal  bool   // every transaction of the account is finalized
}

// AccountState reads an account; ErrNotFound when it does not exist.
func (n *Node) AccountState(addr v2.AccountAddress) (AccountState, error) {
	a, allFinal, err := n.ch().account(addr.Value[:])
	if err != nil {
		return AccountState{}, err
	}
	return AccountState{Address: addr, Balance: a.Balance, NextNonce: a.NextNonce, AllFinal: allFinal}, nil
}

// Heights reports the best and the last finalized block heights.
func (n *Node) Heights() (best, final uint64, err error) {
	_, b, f, err := n.ch().heads()
	return b.Height, f.Height, err
}

// SetFaults replaces the injected faults; the next call sees them.
func (n *Node) SetFaults(f Faults) { n.faults.set(f) }

// Submit hands a serialized block item to the node as SendBlockItem does, without the
// network or fault injection: for operators and tests that hold raw bytes.
func (n *Node) Submit(blockItem []byte) ([32]byte, error) {
	return n.ch().submit(blockItem, false)
}
