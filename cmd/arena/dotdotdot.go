package main

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/dotdotdot"
	"arena/chain/ccd"
	"arena/config"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/transport/dotdotdot/housemodel"
	"arena/transport/dotdotdot/join"
	dotsite "arena/transport/dotdotdot/site"
	"arena/transport/meta"
	"arena/transport/ops"
)

// DOTDOTDOT's wiring: *dotdotdot.Arena is every DOTDOTDOT door's backend (dotsite.Backend: the
// desk and its hosted tables, the chat seat's desk, the pages' source, the ops door's tables).
// The desk door finds the hosted tables by a type assertion, so their absence would drop routes
// silently: this check makes it a build error.
var _ dotsite.Backend = (*dotdotdot.Arena)(nil)

// dotdotdotSide is DOTDOTDOT's product in `arena serve`: the product on the runtime, the agents'
// side (A2A caller, Badge resolver, the instance's card and Badge: join.go), the join door with
// its paid tables, and the per-address limits of its doors.
type dotdotdotSide struct {
	arena  *dotdotdot.Arena
	base   atomic.Pointer[string] // the DOTDOTDOT site's public origin, once known (registerInstance)
	agents *agentsHook
	join   *join.Options
	limits limiters
	log    *slog.Logger
}

// newDotdotdot prepares DOTDOTDOT's product for the runtime serve starts: the agents' side (with
// the Badge key index read from the store), the dev agents on the embedded devchain, and the
// product (dotdotdot.New) with the paid tables' listeners on its tables (a finished paid table
// settles on the escrow, its anchors go to it: join.go). serve registers product() with the
// runtime, whose start spawns the walk-in desk and the A2A channel before tables are restored,
// so a recovered table's open move finds its mailbox; then attached makes the join door.
func newDotdotdot(cfg config.Config, store *storage.Store, ch *chainHook, log *slog.Logger) (*dotdotdotSide, error) {
	keys, err := loadKeyIndex(store) // the Badge key index, on the store (keyproof.go)
	if err != nil {
		return nil, err
	}
	ag := startAgents(ch, log, cfg.Dotdotdot, keys) // A2A caller, Badge resolver (join.go)
	if err := ag.devAgents(); err != nil {
		return nil, err
	}
	model, err := houseModel(cfg.Dotdotdot.HouseModel, log)
	if err != nil {
		return nil, err
	}
	d := &dotdotdotSide{agents: ag, limits: limitersOf(cfg.HTTP.Limits), log: log}
	d.arena = dotdotdot.New(dotdotdot.Options{Paces: pacesOf(cfg.Dotdotdot.Pace), Agents: ag.caller, Resolver: ag.keys,
		OnStatus: ag.onStatus, Anchorer: paidAnchorer{ag}, HouseOwner: ch.net.houseOwner(), Fees: feesOf(cfg.Dotdotdot.Fees),
		Mint: d.mintOptions(ch), Model: model, Replays: ch.anchorer})
	return d, nil
}

// houseModel is the house model off-the-shelf seats think on (dotdotdot.Options.Model): the
// chat-completions client of config's dotdotdot.house_model, or nil with no URL configured, which
// it says once at start (every off-the-shelf seat then plays the fallback policy, and each move's
// agent.scripted says so at the table). The key is never logged.
func houseModel(c config.HouseModel, log *slog.Logger) (dotdotdot.HouseModel, error) {
	if c.URL == "" {
		log.Info("no house model configured (dotdotdot.house_model.url): off-the-shelf seats play the fallback policy")
		return nil, nil
	}
	m, err := housemodel.New(housemodel.Config{URL: c.URL, Model: c.Model, Key: c.Key})
	if err != nil {
		return nil, err
	}
	log.Info("house model", "url", c.URL, "model", c.Model, "key", c.Key != "")
	return m, nil
}

// mintOptions turns on the minting of lent Badges (dotdotdot.MintOptions, §15 badge.minted) on
// the embedded devchain, whose stand-in registry takes the arena's register: owned by the house
// identity account, their cards served on the DOTDOTDOT site's origin (setOrigin).
// With a configured node it is nil: the network's CIS-8004 registry chooses its own token ids,
// so a lent Badge's derived id cannot be minted there (docs/protocol-notes.md "badge.minted").
func (d *dotdotdotSide) mintOptions(ch *chainHook) *dotdotdot.MintOptions {
	c, ok := ch.anchorer.(interface{ Call(anchors.CallJob) })
	if ch.node == nil || !ok || ch.net.house == (ccd.Address{}) {
		return nil
	}
	return &dotdotdot.MintOptions{Chain: c, Owner: ch.net.house, Base: func() string {
		if p := d.base.Load(); p != nil {
			return *p
		}
		return ""
	}}
}

// setOrigin is the DOTDOTDOT site's public origin, which lent Badges' agent_uri names: serve
// sets it before the runtime starts, so a restored table's mints name it too.
func (d *dotdotdotSide) setOrigin(origin string) { d.base.Store(&origin) }

// product is DOTDOTDOT's part of the runtime (dotdotdot.Arena.Product), registered before it
// starts.
func (d *dotdotdotSide) product() actors.Product { return d.arena.Product() }

// attached finishes DOTDOTDOT's side once the runtime runs: the join door's options, with the
// paid tables on the runtime's ledger, their collectors on reg.
func (d *dotdotdotSide) attached(cfg config.Config, store *storage.Store, reg prometheus.Registerer) error {
	var err error
	d.agents.metrics = reg
	if d.join, err = d.agents.joinOptions(d.arena, cfg, store); err != nil {
		return err
	}
	d.join.Challenges, d.join.Forwarded = d.limits.challenges, d.limits.forwarded // limits.go
	if d.join.OTS != nil {
		d.join.OTS.Tables = d.limits.tables   // off-the-shelf Practice tables count as the desk's do
		d.join.OTS.Keys = d.limits.challenges // an owner token is an owner's credential, as a sign-in challenge
	}
	return nil
}

// registerInstance writes the instance card and, on the embedded devchain, registers the
// instance Badge at origin (agentsHook.registerInstance, §4.3); a failure is logged, not fatal.
func (d *dotdotdotSide) registerInstance(cfg config.Config, sec config.Secrets, origin string) {
	if err := d.agents.registerInstance(sec.InstanceAgent, cfg.InstanceName, sec.InstanceKey.Public().(ed25519.PublicKey), firstOf(cfg.Dotdotdot.PublicURL, origin)); err != nil {
		d.log.Warn("the instance Badge is not registered: agents cannot verify this instance (§4.3)", "err", err)
	}
}

// site is what the DOTDOTDOT site's doors need (dotsite.Deps): the arena, Blitz's engine (the
// DOTDOTDOT doors play Blitz: it puts the table, the reveal and the feed in words), the join
// door, the public origin, the HTTP limits, the operator token, the chat seat's proxy setting
// (ARENA_MCP_BEHIND_PROXY), the per-address limits shared by the desk and the chat seat, drain
// and the instance card's meta.
func (d *dotdotdotSide) site(cfg config.Config, sec config.Secrets, origin string, drain <-chan struct{}, mo meta.Options) dotsite.Deps {
	game, _ := d.arena.Bracket().Engine(blitz.ID)
	deps := dotsite.Deps{
		Arena: d.arena, Game: game, Join: d.join, Origin: origin,
		MaxBody: cfg.HTTP.MaxBody, LongPoll: time.Duration(cfg.HTTP.LongPoll),
		OperatorToken: sec.OperatorToken, OpsChecks: d.opsChecks(), TrustProxyHost: cfg.Dotdotdot.MCPBehindProxy,
		Drain: drain, Meta: mo, Logger: d.log,
		Notes: d.arena.Store(), // feedback notes (§5.2's notice link, the chat seat's tool)
	}
	d.limits.mount(&deps)
	return deps
}

// opsChecks are DOTDOTDOT's /ops/checks: the paid tables' ("paid", when they are on) and the
// ratings' ("ratings": every stored rating against the rated rounds, every rated round against
// its table's result, dotdotdot.Arena.CheckRatings).
func (d *dotdotdotSide) opsChecks() map[string]ops.Check {
	checks := d.agents.opsChecks()
	if checks == nil {
		checks = map[string]ops.Check{}
	}
	checks["ratings"] = func(ctx context.Context) ([]any, error) {
		fs, err := d.arena.CheckRatings(ctx)
		if err != nil {
			return nil, &games.Error{Code: "busy", Msg: "the ratings could not be checked: " + err.Error(), Retry: true}
		}
		out := make([]any, len(fs))
		for i, f := range fs {
			out[i] = f
		}
		return out, nil
	}
	return checks
}

// pacesOf maps the configured clock overrides onto the actors' (§4.4, §4.5, §5.3): on the chat
// clock scouting, each talk exchange and the commit are each one move (chat_move); the agent
// clock takes scouting, agent_talk and agent_commit. What is not set, settle included, stays
// zero: dotdotdot.Paces.WithDefaults fills it with the spec's (dotdotdot.DefaultPaces).
func pacesOf(p config.Pace) dotdotdot.Paces {
	chat := games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{}}
	agent := games.Pace{Name: "agent", Steps: map[string]time.Duration{}}
	set := func(pace games.Pace, step string, d *config.Duration) {
		if d != nil {
			pace.Steps[step] = time.Duration(*d)
		}
	}
	set(chat, "scouting", p.ChatMove)
	set(chat, "talk", p.ChatMove)
	set(chat, "commit", p.ChatMove)
	set(agent, "scouting", p.Scouting)
	set(agent, "talk", p.AgentTalk)
	set(agent, "commit", p.AgentCommit)
	out := dotdotdot.Paces{Chat: chat, Agent: agent}
	if p.WalkinTopUp != nil {
		out.WalkinTopUp = time.Duration(*p.WalkinTopUp)
	}
	if p.HostedStart != nil {
		out.HostedStart = time.Duration(*p.HostedStart)
	}
	return out
}
