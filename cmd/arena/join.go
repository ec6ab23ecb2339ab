package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/egress"
	"arena/chain/escrow"
	"arena/config"
	"arena/games"
	"arena/storage"
	"arena/transport/a2a"
	"arena/transport/dotdotdot/join"
	"arena/transport/ops"
)

// Registered agents in `arena serve` (§4, §4.1, §4.3, §5.7, §12): the A2A caller through the
// egress policy, Badge resolution on the chain (chain/badge), the join door, paid tables on the
// escrow, and the instance's own Badge.
//
// Development settings (config's dotdotdot section, read by config; production needs none):
//
//	ARENA_EGRESS_LOOPBACK=1   agent cards and endpoints may be http:// on loopback (agents on this
//	                          machine); every other inside address stays refused
//	ARENA_DEV_AGENTS=FILE     CIS-8004 registrations (`arena devchain --agents` format) stored on
//	                          the embedded devchain at start
//	ARENA_PUBLIC_URL=URL      the base URL the instance card names (default http://<listen addr>)

// a2aTimeout bounds one HTTP exchange with an agent: above the longest move deadline (20 s at
// commit, §5.3), which is what really ends a call.
const a2aTimeout = 25 * time.Second

// agentsHook is the agent side of serve.
type agentsHook struct {
	caller   dotdotdot.AgentCaller
	keys     dotdotdot.KeyResolver // nil: no registry
	resolver *badge.Resolver       // nil: no registry
	house    ccd.Address
	chain    *chainHook
	log      *slog.Logger
	card     atomic.Pointer[[]byte] // the instance card, once written (afterListen)
	paidOn   bool
	paid     atomic.Pointer[dotdotdot.PaidTables] // set once the arena runs (joinOptions)
	// early holds what reached the paid tables before they were set (a recovered table's
	// anchors and end): handed to them once they are (setPaid).
	earlyMu sync.Mutex
	early   []func(*dotdotdot.PaidTables)
	// devAgentsFile is dotdotdot.dev_agents: the registrations devAgents stores ("" none).
	devAgentsFile string
	// metrics receives the paid tables' collectors (nil: none).
	metrics prometheus.Registerer
}

// startAgents builds the caller and the resolver, on the Badge key index keys (loadKeyIndex).
// With no node client (never, in serve) the registry is unconfigured and the join door answers
// 503 no_registry.
func startAgents(ch *chainHook, log *slog.Logger, d config.Dotdotdot, keys *badge.KeyIndex) *agentsHook {
	pol := egress.Policy{Timeout: a2aTimeout}
	cardPol := egress.Policy{}
	if d.EgressLoopback {
		pol.AllowLoopback, pol.AllowHTTP = true, true
		cardPol.AllowLoopback, cardPol.AllowHTTP = true, true
		log.Warn("egress: loopback http agents allowed (ARENA_EGRESS_LOOPBACK=1); development only")
	}
	h := &agentsHook{chain: ch, log: log, devAgentsFile: d.DevAgents,
		caller: a2a.New(a2a.Options{HTTP: egress.NewClient(pol).HTTP()})}
	if ch.client == nil {
		return h
	}
	h.house, h.paidOn = ch.net.house, ch.net.paid()
	h.resolver = badge.New(badge.Config{Node: ch.client, Cards: egress.NewClient(cardPol), House: h.house, Keys: keys})
	h.keys = keyResolver{h.resolver}
	return h
}

// devAgents stores the registrations of dotdotdot.dev_agents (ARENA_DEV_AGENTS) on the
// embedded devchain.
func (h *agentsHook) devAgents() error {
	path := h.devAgentsFile
	if path == "" || h.chain.node == nil {
		return nil
	}
	list, err := devchain.LoadAgents(path)
	if err != nil {
		return err
	}
	for _, a := range list {
		if a.RegisteredAtMs == 0 {
			a.RegisteredAtMs = uint64(time.Now().UnixMilli())
		}
		if err := h.chain.node.PutAgent(a); err != nil {
			return fmt.Errorf("serve: ARENA_DEV_AGENTS: %w", err)
		}
	}
	h.log.Info("dev agents registered on the embedded devchain", "count", len(list))
	return nil
}

// registerInstance writes the instance card (chain/badge's writer, kind arena, owned by the
// house identity account) and, on the embedded devchain, registers the instance Badge with the
// card's SHA-256 as metadata_hash, so an agent can resolve the arena's key from the chain (§4.3).
// With a configured node the operator registers the Badge; the card is served all the same. A
// configured node without chain_house_account writes no card (errNoHouse): it would name an
// owner the Badge does not have, and the bare instance card (meta.CardOf) is served instead.
func (h *agentsHook) registerInstance(instanceAgent, name string, key ed25519.PublicKey, base string) error {
	if h.house == (ccd.Address{}) {
		return errNoHouse
	}
	id, err := badge.ParseAgentID(instanceAgent)
	if err != nil {
		return fmt.Errorf("serve: instance agent: %w", err)
	}
	tok, ok := id.BadgeTokenID()
	if !ok {
		return fmt.Errorf("serve: instance agent %s is not a Badge", instanceAgent)
	}
	reg := badge.Contract{Chain: id.Chain, Index: id.Token.Index, Subindex: id.Token.Subindex}
	card, err := badge.WriteCard(badge.CardSpec{Agent: id, Name: name, Kind: badge.KindArena, SigningKey: key,
		Owner: h.house, Registry: reg, Description: "DOTDOTDOT arena instance"})
	if err != nil {
		return fmt.Errorf("serve: instance card: %w", err)
	}
	h.card.Store(&card)
	if h.chain.node == nil {
		return nil
	}
	sum := sha256.Sum256(card)
	err = h.chain.node.PutAgent(devchain.Agent{TokenID: tok, Owner: v2.AccountAddress{Value: h.house},
		AgentURI: base + "/.well-known/agent.json", MetadataHash: sum[:], Status: devchain.AgentActive,
		RegisteredAtMs: uint64(time.Now().UnixMilli())})
	if err != nil {
		return fmt.Errorf("serve: register the instance Badge: %w", err)
	}
	h.log.Info("instance Badge registered on the embedded devchain", "agent", instanceAgent, "card", base+"/.well-known/agent.json")
	return nil
}

// instanceCard is meta.Options.Card.
func (h *agentsHook) instanceCard() []byte {
	if p := h.card.Load(); p != nil {
		return *p
	}
	return nil
}

// joinOptions is the join door's configuration for arena a.
func (h *agentsHook) joinOptions(a *dotdotdot.Arena, cfg config.Config, store *storage.Store) (*join.Options, error) {
	n := join.NewStoreNonces(store, nil)
	sessions, err := join.NewSessions(store, nil)
	if err != nil {
		return nil, err
	}
	o := &join.Options{Seater: joinSeater{a: a, pace: agentPace(cfg)}, Nonces: n, Sessions: sessions, MaxBody: cfg.HTTP.MaxBody}
	if h.resolver != nil {
		o.Resolver = joinResolver{h.resolver}
	}
	o.Claims = a // POST /v1/walkin/claim (§4.4)
	o.OTS = &join.OTSOptions{Seater: joinSeater{a: a, pace: agentPace(cfg)}, Instance: a.InstanceAgent(), Key: a.OTSSigningKey}
	o.PaidOff = h.chain.net.paidOff
	if h.paidOn && h.chain.client != nil {
		contract := *h.chain.net.escrow
		chain, house := h.escrowWiring()
		po := dotdotdot.PaidOptions{
			Deposits: escrow.Reader{Node: h.chain.client, Contract: contract}, Ledger: a.Ledger(), Chain: chain,
			Contract: contract, House: house, SeasonPool: h.seasonPool(), Pace: agentPace(cfg), Escrow: h.chain.net.escrowID(),
			Funds: accountFunds{h.chain.client, h.chain.net.account}, FeeReserve: houseFeeReserve,
			Metrics: h.metrics, Logger: h.log.With("component", "paid"),
		}
		if g := cfg.Dotdotdot.Pace.PaidGather; g != nil {
			po.Gather = time.Duration(*g)
		}
		pt, err := dotdotdot.NewPaidTables(a, po)
		if err != nil {
			return nil, err
		}
		h.setPaid(pt)
		o.Paid = paidAdapter{pt}
	}
	return o, nil
}

// houseFeeReserve is what the arena's account keeps beyond the house seats' entries of the paid
// tables it funds, for the fees of its anchors and escrow calls: 10 CCD, some thousands of
// transactions at Concordium's fees (each well under 0.01 CCD).
const houseFeeReserve = 10_000_000

// accountFunds is dotdotdot.FundsReader over the node: the arena's account's available balance.
type accountFunds struct {
	c   *ccd.Client
	acc ccd.Address
}

func (f accountFunds) Available(ctx context.Context) (int64, error) {
	b, err := f.c.Balance(ctx, f.acc)
	if err != nil {
		return 0, err
	}
	return int64(min(b, 1<<62)), nil
}

// agentPace is the clock of tables registered agents join: the configured agent clock (§5.3,
// the spec's unless dotdotdot.pace sets agent_talk, agent_commit or scouting), its settle cut
// to one talk exchange when that is shorter; every phase its full length.
func agentPace(cfg config.Config) games.Pace {
	p := pacesOf(cfg.Dotdotdot.Pace).WithDefaults().Agent
	p.Steps["settle"] = min(p.Step("settle"), p.Step("talk"))
	return p
}

// keyResolver is dotdotdot.KeyResolver over the Badge resolver (cached, §4.1).
type keyResolver struct{ r *badge.Resolver }

func (k keyResolver) Resolve(ctx context.Context, agent string) (ed25519.PublicKey, error) {
	a, err := k.r.Resolve(ctx, agent)
	if err != nil {
		return nil, err
	}
	return a.Key, nil
}

// joinResolver is join.Resolver over the Badge resolver.
type joinResolver struct{ r *badge.Resolver }

func (j joinResolver) Resolve(ctx context.Context, agent string) (join.Agent, error) {
	a, err := j.r.Resolve(ctx, agent)
	if err != nil {
		return join.Agent{}, err
	}
	out := join.Agent{ID: a.ID.String(), Owner: string(a.ID.Chain) + ":" + a.Owner.String(), Name: a.Name, Kind: a.Kind,
		Endpoint: a.Endpoint, SigningKey: a.Key}
	if a.Operator != nil {
		out.Operator = a.Operator.String()
	}
	if a.Wallet != nil {
		out.Wallet = string(a.ID.Chain) + ":" + a.Wallet.String()
	}
	return out, nil
}

// seatKind is the seat kind of a card kind: a player card's agent is the owner's own ("byo").
func seatKind(cardKind string) string {
	if cardKind == badge.KindHouse || cardKind == badge.KindArena {
		return cardKind
	}
	return "byo"
}

// joinSeater is join.Seater over the arena. The Badge's owner holds the seat's levers over a
// session (§12), so the seat is a human seat.
type joinSeater struct {
	a    *dotdotdot.Arena
	pace games.Pace
}

func (s joinSeater) JoinAgent(ctx context.Context, st join.Seat) (dotdotdot.AgentJoinReply, error) {
	return s.a.JoinAgent(ctx, dotdotdot.AgentJoin{Agent: st.Agent.ID, Name: st.Agent.Name, Endpoint: st.Agent.Endpoint,
		Owner: st.Agent.Owner, Kind: seatKind(st.Agent.Kind), Table: st.Table, Format: st.Format, Seats: st.Seats, Pace: s.pace, Human: true})
}

// JoinOTS seats verified off-the-shelf agents (join.OTSSeat) at a Practice table on the agent
// clock.
func (s joinSeater) JoinOTS(ctx context.Context, st join.OTSSeat) (dotdotdot.OTSJoinReply, error) {
	j := dotdotdot.OTSJoin{Table: st.Table, Format: st.Format, Seats: st.Seats, Pace: s.pace}
	for _, a := range st.Agents {
		j.Agents = append(j.Agents, dotdotdot.OTSAgent{Agent: a.Agent.ID, Name: a.Agent.Name, Owner: a.Agent.Owner, Playbook: a.Playbook, Grant: a.Grant})
	}
	return s.a.JoinOTS(ctx, j)
}

// EditPlaybook edits an off-the-shelf seat's playbook by its token, while scouting lasts.
func (s joinSeater) EditPlaybook(ctx context.Context, token string, body []byte) (json.RawMessage, error) {
	return s.a.EditPlaybook(ctx, token, body)
}

func (s joinSeater) Lever(ctx context.Context, agent, round, kind string, body []byte) (json.RawMessage, error) {
	r, err := s.a.AgentLever(ctx, agent, round, kind, body)
	return r, err
}

// paidAdapter is join.Paid over dotdotdot.PaidTables.
type paidAdapter struct{ p *dotdotdot.PaidTables }

func (p paidAdapter) Hold(ctx context.Context, s join.Seat) (dotdotdot.PaidHold, error) {
	ag := s.Agent
	payFrom := []string{ag.Owner}
	if ag.Wallet != "" {
		payFrom = append(payFrom, ag.Wallet)
	}
	j := dotdotdot.AgentJoin{Agent: ag.ID, Name: ag.Name, Endpoint: ag.Endpoint, Owner: ag.Owner, Kind: seatKind(ag.Kind), Human: true,
		Table: "open", Format: s.Format, Seats: s.Seats}
	if s.Playbook != nil { // an off-the-shelf agent run by this arena (POST /v1/ots/join)
		j.Kind, j.Playbook, j.OTSGrant = "ots", s.Playbook, s.OTSGrant
	}
	return p.p.Hold(ctx, j, payFrom)
}

func (p paidAdapter) Check(ctx context.Context, hold, tok string) (json.RawMessage, error) {
	c, err := p.p.Check(ctx, hold, tok)
	if err != nil {
		return nil, err
	}
	return json.Marshal(c)
}

// The escrow side of a paid table (§5.5, §5.7, §11.5) is the paid tables' own
// (actors/dotdotdot, the ledger in actors/ledger, the encoding in chain/escrow): here it is only
// wired. The arena's account funds the house seats and takes the house's part at settle; the
// chain actor takes the escrow's calls; every table's status and anchors reach the paid tables.

// escrowWiring is the escrow the paid tables read and call: the chain actor, and the arena's
// own account (the key's) as CAIP-10 on the network's chain, on the embedded devchain and a
// configured node alike.
func (h *agentsHook) escrowWiring() (dotdotdot.EscrowChain, string) {
	c, ok := h.chain.anchorer.(dotdotdot.EscrowChain)
	if !ok {
		return nil, ""
	}
	return c, h.chain.net.caip10(h.chain.net.account)
}

// opsChecks are the paid tables' consistency checks for /ops/checks (`arena ops check paid`): the
// reconciliation's mismatches after a sweep (PaidTables.Reconcile); none when paid tables are off.
func (h *agentsHook) opsChecks() map[string]ops.Check {
	if !h.paidOn {
		return nil
	}
	return map[string]ops.Check{"paid": func(ctx context.Context) ([]any, error) {
		pt := h.paid.Load()
		if pt == nil {
			return nil, &games.Error{Code: "busy", Msg: "the paid tables are not started yet", Retry: true}
		}
		ms, err := pt.Reconcile(ctx)
		if err != nil {
			return nil, &games.Error{Code: "busy", Msg: "the reconciliation could not finish: " + err.Error(), Retry: true}
		}
		out := make([]any, len(ms))
		for i, m := range ms {
			out[i] = m
		}
		return out, nil
	}}
}

// seasonPool is the account, CAIP-10, the escrow pays the season pool to (§11.3: arena agents'
// collateral gains): the house identity account (chainNetwork.house: the devchain's genesis
// house, or chain_house_account), which owns the house Badges and is not the arena's own account
// that takes the house's part; "" when none is configured (paid tables are then off).
func (h *agentsHook) seasonPool() string {
	if h.chain.net.house == (ccd.Address{}) {
		return ""
	}
	return h.chain.net.caip10(h.chain.net.house)
}

// onStatus is DOTDOTDOT's OnStatus (dotdotdot.Options.OnStatus, its tables' statuses only): a
// finished paid table is settled (PaidTables.TableStatus).
func (h *agentsHook) onStatus(table, status string) {
	h.toPaid(func(pt *dotdotdot.PaidTables) { pt.TableStatus(table, status) })
}

// toPaid hands f the paid tables, now or (when paid tables are on but not yet set, during boot
// recovery) once they are.
func (h *agentsHook) toPaid(f func(*dotdotdot.PaidTables)) {
	if pt := h.paid.Load(); pt != nil {
		f(pt)
		return
	}
	if !h.paidOn {
		return
	}
	h.earlyMu.Lock()
	if pt := h.paid.Load(); pt != nil {
		h.earlyMu.Unlock()
		f(pt)
		return
	}
	h.early = append(h.early, f)
	h.earlyMu.Unlock()
}

// setPaid sets the paid tables and hands them what came before.
func (h *agentsHook) setPaid(pt *dotdotdot.PaidTables) {
	h.earlyMu.Lock()
	h.paid.Store(pt)
	early := h.early
	h.early = nil
	h.earlyMu.Unlock()
	for _, f := range early {
		f(pt)
	}
}

// paidAnchorer is DOTDOTDOT's Anchorer (dotdotdot.Options.Anchorer): the anchors of its tables,
// which the runtime's Anchorer (the chain actor) has taken as Register Data (§5.5), reach the
// paid tables, which send a paid table's opened and turn anchors to the escrow. Like every
// anchor it never blocks the table.
type paidAnchorer struct{ h *agentsHook }

func (p paidAnchorer) Anchor(job actors.AnchorJob) {
	p.h.toPaid(func(pt *dotdotdot.PaidTables) { pt.Anchor(job) })
}
