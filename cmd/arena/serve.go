package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/dotdotdot"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/config"
	"arena/games"
	"arena/games/blitz"
	"arena/games/warden/dilemma"
	"arena/storage"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/pages"
	dotsite "arena/transport/dotdotdot/site"
	"arena/transport/httpapi"
	"arena/transport/meta"
	"arena/transport/ops"
)

var serveCommand = command{
	summary: "run the game server (HTTP walk-in desk, ops, metrics) on ./data with zero set-up",
	run:     runServe,
}

// runServe is `arena serve [flags]`: flags, ARENA_* variables and an optional --config file
// (see config.Load); exit 0 after a clean shutdown (SIGTERM/SIGINT), 2 for a bad configuration,
// 1 when the server could not start or stopped on an error.
func runServe(ctx context.Context, args []string) int {
	cfg, err := config.Load("arena serve", args, os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
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

// serve wires config → storage → bracket → chain hook → actors.Start → the HTTP doors, prints
// the listen address on out ("arena: listening on http://HOST:PORT", one line, for scripts and
// tests), and runs until ctx ends; then it drains HTTP (long polls included) within the
// configured grace, shuts the actor tree down and closes the database.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, out io.Writer) error {
	sec, err := config.Provision(cfg)
	if err != nil {
		return err
	}
	store, err := storage.Open(cfg.DBPath(), storage.Options{})
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
	keys, err := loadKeyIndex(store) // the Badge key index, on the store (keyproof.go)
	if err != nil {
		return err
	}
	ag := startAgents(&ch, log, cfg.Dotdotdot, keys) // A2A caller, Badge resolver (join.go)
	if err := ag.devAgents(); err != nil {
		return err
	}

	a, err := dotdotdot.Start(actors.Options{
		DB: store, Bracket: bracket, Logger: log,
		InstanceKey: sec.InstanceKey, InstanceAgent: sec.InstanceAgent,
		Metrics: reg, Anchorer: escrowAnchorer{ag},
		OnStatus: ag.onStatus, // a finished paid table settles on the escrow (join.go)
		// The walk-in desk and A2A channel (dotdotdot.Start) and the chain actor start before tables are
		// restored, so a recovered table's open move finds its mailbox and its anchors find the chain.
		BeforeRecover: ch.start,
	}, dotdotdot.Options{Paces: pacesOf(cfg.Dotdotdot.Pace), Agents: ag.caller, Resolver: ag.keys})
	if err != nil {
		return err
	}
	shutArena := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.Shutdown(sctx); err != nil {
			log.Warn("actor tree shutdown", "err", err)
		}
	}
	defer shutArena()

	drain := make(chan struct{})
	jo, err := ag.joinOptions(a, cfg, store)
	if err != nil {
		return err
	}
	lim := limitersOf(cfg.HTTP.Limits) // limits.go
	jo.Challenges, jo.Forwarded = lim.challenges, lim.forwarded
	// Listen first: every link the doors write names the public site, the main listen
	// address when dotdotdot.public_url is unset, never a request's Host header (site.go).
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: listen %s: %w", cfg.Addr, err)
	}
	defer ln.Close() // srv.Serve closes it too; this covers a return before serving
	// The sites with a listen address of their own (site.go).
	own, err := listenSites(cfg)
	if err != nil {
		return err
	}
	for _, o := range own {
		defer o.ln.Close()
	}
	site, localOnly, err := publicSite(cfg.Dotdotdot.PublicURL, ln.Addr())
	if err != nil {
		return err
	}
	if localOnly {
		log.Warn("ARENA_PUBLIC_URL is unset and the listen address names no host: links and pages name "+site+", which works on this machine only", "site", site)
	}
	mo := meta.Options{
		Identity: meta.Identity{Agent: sec.InstanceAgent, Name: cfg.InstanceName, Key: sec.InstanceKey.Public().(ed25519.PublicKey)},
		Gatherer: reg,
		Card:     ag.instanceCard,
		// /healthz reports the node anchors go to (the embedded devchain's loopback port
		// too): `arena anchor-check URL` reads it when no --node is given.
		ChainNode: ch.addr,
		Health: func(ctx context.Context) error {
			_, err := a.Tables(ctx) // reads the database: a closed or broken file fails here
			return err
		},
	}
	// The DOTDOTDOT doors play Blitz: its engine puts the table, the reveal and the feed in words.
	blitzEngine, _ := bracket.Engine(blitz.ID)
	describer, _ := blitzEngine.(games.Describer)
	narrator, _ := blitzEngine.(games.Narrator)
	dot := dotsite.Options{
		Join:        jo,
		Desk:        a,
		DeskOptions: desk.Options{MaxBody: cfg.HTTP.MaxBody, LongPoll: time.Duration(cfg.HTTP.LongPoll), Drain: drain, Site: site},
		Ops:         a.Arena,
		OpsOptions:  ops.Options{Token: sec.OperatorToken},
		Pages:       &pages.Options{Source: a, Narrator: narrator, Drain: drain, Logger: log, Site: site},
		// The chat seat (§4.5) at /mcp; ARENA_MCP_BEHIND_PROXY=1 when a proxy on this host
		// forwards the public Host header (the seat refuses that on a loopback connection otherwise).
		Chat: &chatseat.Options{Desk: a, Describer: describer, Drain: drain, Logger: log, Site: site,
			Feedback: chatseat.LogFeedback(log), TrustProxyHost: cfg.Dotdotdot.MCPBehindProxy},
		Meta: mo,
	}
	lim.mount(&dot)
	if err := ag.registerInstance(sec.InstanceAgent, cfg.InstanceName, sec.InstanceKey.Public().(ed25519.PublicKey), firstOf(cfg.Dotdotdot.PublicURL, site)); err != nil {
		log.Warn("the instance Badge is not registered: agents cannot verify this instance (§4.3)", "err", err)
	}
	router, byName, err := sitesOf(cfg, dot, httpapi.Global{Meta: mo, Metrics: reg, Logger: log})
	if err != nil {
		return err
	}
	// One server for the main listener (every site by Host, DOTDOTDOT for the rest) and one
	// per site with a listen address of its own. Long polls answer at once when any of them
	// starts shutting down.
	var drainOnce sync.Once
	closeDrain := func() { drainOnce.Do(func() { close(drain) }) }
	type served struct {
		name string
		srv  *http.Server
		ln   net.Listener
	}
	servers := []served{{"", httpapi.Server(cfg.Addr, router), ln}}
	for _, o := range own {
		servers = append(servers, served{o.name, httpapi.Server(o.ln.Addr().String(), byName[o.name]), o.ln})
	}
	for _, s := range servers {
		s.srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
		s.srv.RegisterOnShutdown(closeDrain)
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
	errc := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errc <- s.srv.Serve(s.ln) }()
	}
	// A listener that fails ends serve; the other servers shut down as on SIGTERM.
	var failed error
	select {
	case failed = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", cfg.HTTP.ShutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.HTTP.ShutdownGrace))
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() {
			if err := s.srv.Shutdown(sctx); err != nil {
				log.Warn("http shutdown", "site", s.name, "err", err)
				s.srv.Close()
			}
		})
	}
	wg.Wait()
	left := len(servers)
	if failed != nil {
		left--
	}
	for range left {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("http serve", "err", err)
		}
	}
	if failed != nil {
		return fmt.Errorf("serve: http: %w", failed)
	}
	return nil
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
		dilemma.Engine{},                     // the Warden's Game II (games/warden/dilemma)
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
}

// startChain starts the chain side: the arena's account key (cfg.ChainKeyPath, generated for
// the devchain on first start), the node (cfg.ChainNode, or the embedded devchain under
// <data>/devchain with the arena's account at genesis, posing as testnet), the node client and
// the chain actor (actors/anchors), which keeps its queue in the arena's bbolt file. The chain
// actor is spawned by hook.start, before tables are restored, so anchors of recovered tables
// find it. Play never waits on the chain: anchoring answers at once with the transaction hash.
func startChain(ctx context.Context, cfg config.Config, store *storage.Store, log *slog.Logger) (chainHook, error) {
	h := chainHook{stop: func() {}}
	key, err := ccd.LoadOrCreateKey(cfg.ChainKeyPath(), nil)
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
