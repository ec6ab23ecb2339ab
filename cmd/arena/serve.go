package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"arena/actors"
	"arena/actors/anchors"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/config"
	"arena/games"
	"arena/games/blitz"
	brauction "arena/games/breakroom/auction"
	brdilemma "arena/games/breakroom/dilemma"
	brdiplomacy "arena/games/breakroom/diplomacy"
	brinference "arena/games/breakroom/inference"
	brwerewolf "arena/games/breakroom/werewolf"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
	"arena/storage"
	"arena/transport/httpapi"
	"arena/transport/meta"
	"arena/transport/warden"
)

var serveCommand = command{
	summary: "run the game server (HTTP walk-in desk, ops, metrics) on ./data with zero set-up",
	run:     runServe,
}

// runServe is `arena serve [flags]`: flags, ARENA_* variables and an optional --config file
// (see config.Load); exit 0 after a clean shutdown (SIGTERM/SIGINT), 2 for a bad configuration,
// 1 when the server could not start or stopped on an error.
func runServe(ctx context.Context, args []string) int {
	var usage bytes.Buffer // -h's on stdout; a flag error's on stderr
	cfg, err := config.Load("arena serve", args, os.Getenv, &usage)
	if errors.Is(err, flag.ErrHelp) {
		os.Stdout.Write(usage.Bytes())
		return 0
	}
	os.Stderr.Write(usage.Bytes())
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena serve:", err)
		return 2
	}
	log := newLogger(cfg, os.Stderr)
	if err := serve(ctx, cfg, log, os.Stdout); err != nil {
		log.Error("serve stopped", "err", err)
		return 1
	}
	return 0
}

// newLogger is the process logger: text or JSON lines on w at the configured level.
func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(cfg.LogLevel)) // validated by config
	o := &slog.HandlerOptions{Level: lvl}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// serve wires config → storage → bracket → chain hook → the arena runtime with every protocol's
// product on it (startRuntime) → each protocol's site, prints the listen address on out ("arena: listening on
// http://HOST:PORT", one line, for scripts and tests), and runs until ctx ends; then it drains
// HTTP (long polls included) within the configured grace, shuts the actor tree down and closes
// the database.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, out io.Writer) error {
	return serveStore(ctx, cfg, log, out, storage.Options{})
}

// serveStore is serve with the store opened with so (`arena brload --nosync` runs the stack
// without fsync; serve itself always syncs).
func serveStore(ctx context.Context, cfg config.Config, log *slog.Logger, out io.Writer, so storage.Options) error {
	sec, err := config.Provision(cfg)
	if err != nil {
		return err
	}
	store, err := storage.Open(cfg.DBPath(), so)
	if err != nil {
		return err
	}
	defer store.Close()
	bracket, err := newBracket()
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	ch, err := startChain(ctx, cfg, store, log)
	if err != nil {
		return err
	}
	defer ch.stop()
	// Listen first: every link the doors write names the public site, the main listen
	// address when dotdotdot.public_url (or breakroom.public_url) is unset, never a request's
	// Host header (site.go); Break Room's product takes its origin when it is made.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: listen %s: %w", cfg.Addr, err)
	}
	defer ln.Close() // srv.Serve closes it too; this covers a return before serving

	// The origin every link names (site.go), known before any table is restored: a restored
	// table's lent Badges are minted with their cards there (dotdotdot.MintOptions).
	origin, localOnly, err := publicSite(cfg.Dotdotdot.PublicURL, ln.Addr())
	if err != nil {
		return err
	}
	// Each protocol's product (dotdotdot.go, breakroom.go), then the runtime, once, with every
	// product on it.
	dot, err := newDotdotdot(cfg, store, &ch, log)
	if err != nil {
		return err
	}
	dot.setOrigin(origin)
	// The sites with a listen address of their own (site.go), open before Break Room's product
	// is made: its links name its own address when it has one.
	own, err := listenSites(cfg)
	if err != nil {
		return err
	}
	for _, o := range own {
		defer o.ln.Close()
	}
	var brOwn net.Addr
	for _, o := range own {
		if o.name == "breakroom" {
			brOwn = o.ln.Addr()
		}
	}
	br, err := newBreakroom(cfg, ln.Addr(), brOwn, log)
	if err != nil {
		return err
	}
	rt, err := startRuntime(sec, store, bracket, reg, &ch, log, dot.product(), br.product())
	if err != nil {
		return err
	}
	defer stopRuntime(rt, log)
	member, err := joinCluster(cfg, rt, log)
	if err != nil {
		return err
	}
	if member != nil {
		defer member.Leave() // before the actor tree stops (defers run last first)
		br.member = member
	}
	if err := dot.attached(cfg, store, reg); err != nil {
		return err
	}
	if localOnly {
		log.Warn("ARENA_PUBLIC_URL is unset and the listen address names no host: links and pages name "+origin+", which works on this machine only", "site", origin)
	}
	g := httpapi.Global{Metrics: reg, Logger: log, Meta: meta.Options{
		Identity: meta.Identity{Agent: sec.InstanceAgent, Name: cfg.InstanceName, Key: sec.InstanceKey.Public().(ed25519.PublicKey)},
		Gatherer: reg,
		Card:     dot.agents.instanceCard,
		// /healthz reports the node anchors go to (the embedded devchain's loopback port
		// too): `arena anchor-check URL` reads it when no --node is given.
		ChainNode: ch.addr,
		Cluster:   clusterHealth(member, reg),
		Health: func(ctx context.Context) error {
			_, err := rt.Tables(ctx) // reads the database: a closed or broken file fails here
			return err
		},
	}}
	// Each protocol's site (site.go); long polls, feeds and waiting chat calls end when drain
	// closes, as the servers start shutting down.
	drain := make(chan struct{})
	dot.registerInstance(cfg, sec, origin)
	brDoors, err := br.doors(cfg, store, sec.OperatorToken, drain)
	if err != nil {
		return err
	}
	defer br.flush()
	var mkOwn net.Addr
	for _, o := range own {
		if o.name == "market" {
			mkOwn = o.ln.Addr()
		}
	}
	mkOrigin, err := marketOrigin(cfg, ln.Addr(), mkOwn)
	if err != nil {
		return err
	}
	mkDoors, err := startMarket(cfg, sec, store, rt.System(), mkOrigin, log)
	if err != nil {
		return err
	}
	var wdOwn net.Addr
	for _, o := range own {
		if o.name == "warden" {
			wdOwn = o.ln.Addr()
		}
	}
	wdOrigin, err := wardenOrigin(cfg, ln.Addr(), wdOwn)
	if err != nil {
		return err
	}
	// The Warden's doors (warden.go): with the rail's node reachable their unfinished payments
	// are recovered here, before any server answers; unreachable, the money doors wait for it.
	wdDoors, wdRail, err := wardenDoors(ctx, cfg, store, bracket, wdOrigin, log)
	if err != nil {
		return err
	}
	// The Warden's match actors (warden_play.go): every LIVE match resumes before any door
	// answers.
	if wdDoors.Play, err = wardenPlay(cfg, store, bracket, rt.System(), wdDoors, log); err != nil {
		return err
	}
	// The payout Worker, now or once the rail's node answers.
	wdRail.run(ctx)
	defer wdRail.close()
	router, byName, err := sitesOf(cfg, dot.site(cfg, sec, origin, drain, g.Meta), brDoors, mkDoors,
		warden.Site{Doors: wdDoors, Reads: wardenReads(cfg, store, bracket), Gallery: &warden.Gallery{Store: store, Drain: drain},
			MCP: wardenPlayMCP(wardenMCP(cfg, store, bracket, wdOrigin, log), wdDoors)}, g)
	if err != nil {
		return err
	}
	if member != nil { // walk-ins owned by other members are forwarded there (cluster_door.go)
		doors := newClusterDoors(member, router, dot.arena, reg, br.ownLive(), log)
		if err := member.Serve(doors.serve()); err != nil {
			return err
		}
		router = doors.door()
	}
	fmt.Fprintf(out, "arena: listening on http://%s\n", ln.Addr())
	if ch.addr != "" {
		fmt.Fprintf(out, "arena: chain node %s\n", ch.addr)
	}
	for _, o := range own {
		fmt.Fprintf(out, "arena: %s site listening on http://%s\n", o.name, o.ln.Addr())
	}
	log.Info("serving", "addr", ln.Addr().String(), "data", cfg.DataDir, "agent", sec.InstanceAgent,
		"chain", ch.addr, "operator_token_file", tokenSource(cfg))
	return runSites(ctx, cfg, log, drain, ln, router, own, byName)
}

// startRuntime starts the arena runtime (actors.Start) once for every protocol: one table tree on
// the store, its one ledger (actors.Arena.Ledger) and the chain actor, which ch.start spawns
// before the products' own actors and takes every table's anchors, with each protocol's product
// attached (actors.Product: its games' tables, its channels, keys and listeners, and the actors
// it spawns before tables are restored, so a recovered table's open move finds its channel).
func startRuntime(sec config.Secrets, store *storage.Store, bracket *games.Bracket, reg prometheus.Registerer,
	ch *chainHook, log *slog.Logger, products ...actors.Product) (*actors.Arena, error) {
	return actors.Start(actors.Options{
		DB: store, Bracket: bracket, Logger: log,
		InstanceKey: sec.InstanceKey, InstanceAgent: sec.InstanceAgent,
		Metrics: reg, Anchorer: ch.anchorer, BeforeRecover: ch.start, Products: products,
	})
}

// stopRuntime stops the actor tree, every product's actors with it, waiting up to 10 s.
func stopRuntime(rt *actors.Arena, log *slog.Logger) {
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rt.Shutdown(sctx); err != nil {
		log.Warn("actor tree shutdown", "err", err)
	}
}

func tokenSource(cfg config.Config) string {
	if cfg.OperatorToken != "" {
		return "(given)"
	}
	return cfg.TokenPath()
}

// newBracket registers every game `arena serve` hosts (engines). No door opens a Game II table
// yet; registering it lets restored tables of it resume.
func newBracket() (*games.Bracket, error) {
	return games.NewBracket(engines()...)
}

// engines is the manifest of the house: one line per game. Adding a game is its engine package
// under games/ (which runs games/gametest) and its line here; the tables, their input logs,
// replay and the Bracket need nothing more.
func engines() []games.Engine {
	return []games.Engine{
		blitz.NewEngine(blitz.DefaultFees()), // DOTDOTDOT Blitz and Short, §14's fees
		claims.Engine{},                      // the Warden's Game I (games/warden/claims)
		dilemma.Engine{},                     // the Warden's Game II (games/warden/dilemma)
		brdilemma.Engine{},                   // Break Room's Dilemma (games/breakroom/dilemma; breakroomGames)
		brinference.Engine{},                 // Break Room's Inference (games/breakroom/inference; breakroomGames)
		brauction.Engine{},                   // Break Room's Auction (games/breakroom/auction; breakroomGames)
		brwerewolf.Engine{},                  // Break Room's Werewolf (games/breakroom/werewolf; breakroomGames)
		brdiplomacy.Engine{},                 // Break Room's Diplomacy (games/breakroom/diplomacy; breakroomGames)
	}
}

// chainHook is what startChain returns: the anchorer tables hand anchor requests to (the chain
// actor), how to start it inside the arena's actor system, the node's address to print, and how
// to stop it all.
type chainHook struct {
	anchorer actors.Anchorer
	start    func(a *actors.Arena) error
	addr     string
	stop     func()
	client   *ccd.Client    // the node client (Badge resolution, escrow views: join.go)
	node     *devchain.Node // the embedded devchain, nil with a configured node
	net      chainNetwork   // the chain, the accounts and the escrow (chain_network.go)
}

// startChain starts the chain side: the arena's account key (cfg.ChainKeyPath, generated for
// the devchain on first start, required on a configured node), the node (cfg.ChainNode, or the
// embedded devchain under <data>/devchain with the arena's account at genesis, posing as
// testnet), the node client, the network it is on with its escrow and house identity account
// (chain_network.go: config on a configured node) and the chain actor (actors/anchors), which
// keeps its queue in the arena's bbolt file. The chain
// actor is spawned by hook.start, before tables are restored, so anchors of recovered tables
// find it. Play never waits on the chain: anchoring answers at once with the transaction hash.
func startChain(ctx context.Context, cfg config.Config, store *storage.Store, log *slog.Logger) (chainHook, error) {
	h := chainHook{stop: func() {}}
	key, err := chainKey(cfg) // chain_network.go
	if err != nil {
		return h, err
	}
	addr, useTLS := cfg.ChainNode, cfg.ChainTLS
	var node *devchain.Node
	if addr == "" {
		g, err := devchain.DefaultGenesis()
		if err != nil {
			return h, err
		}
		seed, ok := key.Seed()
		if !ok {
			return h, fmt.Errorf("serve: %s is a multi-key account; the embedded devchain needs a single-key account", cfg.ChainKeyPath())
		}
		for i := range g.Accounts {
			if g.Accounts[i].Name == devchain.AccountArena {
				g.Accounts[i].Seed = seed
				g.Accounts[i].Address = v2.AccountAddress{Value: key.Address()}
			}
		}
		hash, _ := hex.DecodeString(devchain.TestnetGenesisHash)
		copy(g.BlockHash[:], hash)
		node, err = devchain.Start(ctx, devchain.Options{Dir: filepath.Join(cfg.DataDir, "devchain"), Genesis: &g,
			Log: log.With("component", "devchain")})
		if err != nil {
			return h, fmt.Errorf("serve: start devchain: %w", err)
		}
		addr, useTLS = node.Addr(), false
	}
	stopNode := func() {
		if node != nil {
			node.Stop()
		}
	}
	client, err := ccd.Dial(ctx, addr, useTLS)
	if err != nil {
		stopNode()
		return h, fmt.Errorf("serve: dial chain node %s: %w", addr, err)
	}
	if h.net, err = networkOf(ctx, cfg, client, node, key, log); err != nil {
		client.Close()
		stopNode()
		return h, err
	}
	ch, err := anchors.New(store, key, client, anchors.Options{Logger: log.With("component", "chain")})
	if err != nil {
		client.Close()
		stopNode()
		return h, err
	}
	h.anchorer, h.addr, h.client, h.node = ch, addr, client, node
	h.start = func(a *actors.Arena) error { return ch.Start(ctx, a.System()) }
	h.stop = func() {
		// The actor system may already be down (it stops with the arena); the queue is in
		// bbolt either way, so a stop that does not finish in time is abandoned.
		done := make(chan error, 1)
		go func() { done <- ch.Stop() }()
		select {
		case err := <-done:
			if err != nil {
				log.Warn("chain actor stop", "err", err)
			}
		case <-time.After(3 * time.Second):
			log.Warn("chain actor stop timed out")
		}
		client.Close()
		stopNode()
	}
	return h, nil
}
