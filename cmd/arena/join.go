package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"

	"arena/actors"
	"arena/actors/anchors"
	"arena/actors/dotdotdot"
	"arena/chain/badge"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/chain/egress"
	"arena/config"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/transport/a2a"
	"arena/transport/arenadoor"
	"arena/transport/dotdotdot/join"
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
	keys     actors.KeyResolver // nil: no registry
	resolver *badge.Resolver    // nil: no registry
	house    ccd.Address
	chain    *chainHook
	log      *slog.Logger
	card     atomic.Pointer[[]byte] // the instance card, once written (afterListen)
	paidOn   bool
	paid     atomic.Pointer[dotdotdot.PaidTables] // set once the arena runs (joinOptions)
	// devAgentsFile is dotdotdot.dev_agents: the registrations devAgents stores ("" none).
	devAgentsFile string
}

// startAgents builds the caller and the resolver. With no node client (never, in serve) the
// registry is unconfigured and the join door answers 503 no_registry.
func startAgents(ch *chainHook, log *slog.Logger, d config.Dotdotdot) *agentsHook {
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
	if ch.node != nil {
		if acc, ok := ch.node.Account(devchain.AccountHouse); ok {
			h.house = ccd.Address(acc.Address.Value)
		}
		h.paidOn = true
	}
	h.resolver = badge.New(badge.Config{Node: ch.client, Cards: egress.NewClient(cardPol), House: h.house})
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
// house account) and, on the embedded devchain, registers the instance Badge with the card's
// SHA-256 as metadata_hash, so an agent can resolve the arena's key from the chain (§4.3).
// With a configured node the operator registers the Badge; the card is served all the same.
func (h *agentsHook) registerInstance(instanceAgent, name string, key ed25519.PublicKey, base string) error {
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
	o := &join.Options{Seater: joinSeater{a: a, pace: agentPace(cfg)}, Nonces: n, MaxBody: cfg.HTTP.MaxBody}
	if h.resolver != nil {
		o.Resolver = joinResolver{h.resolver}
	}
	if h.paidOn && h.chain.client != nil {
		escrow := badge.Contract{Chain: badge.Testnet, Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex}
		pt := dotdotdot.NewPaidTables(a, dotdotdot.PaidOptions{
			Deposits: escrowDeposits{client: h.chain.client, escrow: devchain.DefaultEscrow},
			Pace:     agentPace(cfg), Escrow: escrow.String(), Logger: h.log.With("component", "paid"),
			OnOpen: func(table, round string, err error) {
				if err == nil && round != "" {
					go h.fundHouse(a.Arena, table, round)
				}
			},
		})
		h.paid.Store(pt)
		o.Paid = paidAdapter{pt}
	}
	return o, nil
}

// agentPace is the clock of tables registered agents join: the config's agent clock (§5.3:
// talk exchanges of pace.agent_talk, commit pace.agent_commit, scouting pace.scouting), settle
// 5 s or one talk exchange when that is shorter; every phase its full length.
func agentPace(cfg config.Config) games.Pace {
	settle := 5 * time.Second
	if t := time.Duration(cfg.Pace.AgentTalk); t < settle {
		settle = t
	}
	return games.Pace{Name: "agent", Scouting: time.Duration(cfg.Pace.Scouting), Talk: time.Duration(cfg.Pace.AgentTalk),
		Commit: time.Duration(cfg.Pace.AgentCommit), Settle: settle}
}

// keyResolver is actors.KeyResolver over the Badge resolver (cached, §4.1).
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

func (s joinSeater) JoinAgent(ctx context.Context, st join.Seat) (join.Seated, error) {
	r, err := s.a.JoinAgent(ctx, dotdotdot.AgentJoin{Agent: st.Agent.ID, Name: st.Agent.Name, Endpoint: st.Agent.Endpoint,
		Kind: seatKind(st.Agent.Kind), Table: st.Table, Format: st.Format, Pace: s.pace, Human: true})
	if err != nil {
		return join.Seated{}, arenadoor.CodeOf(err)
	}
	return join.Seated{Round: r.Round, Table: r.Table, Seat: r.Seat, Format: r.Format, Pace: r.Pace, Status: r.Status}, nil
}

func (s joinSeater) Lever(ctx context.Context, agent, round, kind string, body []byte) (json.RawMessage, error) {
	r, err := s.a.AgentLever(ctx, agent, round, kind, body)
	return r, arenadoor.CodeOf(err)
}

// paidAdapter is join.Paid over dotdotdot.PaidTables.
type paidAdapter struct{ p *dotdotdot.PaidTables }

func (p paidAdapter) Hold(ctx context.Context, ag join.Agent) (join.Hold, error) {
	payFrom := []string{ag.Owner}
	if ag.Wallet != "" {
		payFrom = append(payFrom, ag.Wallet)
	}
	h, err := p.p.Hold(ctx, dotdotdot.AgentJoin{Agent: ag.ID, Name: ag.Name, Endpoint: ag.Endpoint, Kind: seatKind(ag.Kind), Human: true}, payFrom)
	if err != nil {
		return join.Hold{}, arenadoor.CodeOf(err)
	}
	return join.Hold{Hold: h.Hold, SeatToken: h.SeatToken, StartsAt: h.StartsAt, PayFrom: h.PayFrom, Entry: h.Entry,
		Escrow: h.Escrow, Table: h.Table}, nil
}

func (p paidAdapter) Check(ctx context.Context, hold, tok string) (json.RawMessage, error) {
	c, err := p.p.Check(ctx, hold, tok)
	if err != nil {
		return nil, arenadoor.CodeOf(err)
	}
	return json.Marshal(c)
}

// escrowDeposits reads escrow.view_deposits(String seat_token) through the node API at the last
// finalized block (so every deposit it returns is finalized): u32 n || (payer[32] || amount u64
// || time u64 ms)×n, little endian (docs/protocol-notes.md "devchain").
type escrowDeposits struct {
	client *ccd.Client
	escrow devchain.ContractAddress
}

func (e escrowDeposits) Deposits(ctx context.Context, tok string) ([]dotdotdot.EscrowDeposit, error) {
	b, err := e.client.Invoke(ctx, ccd.ContractCall{Index: e.escrow.Index, Subindex: e.escrow.Subindex,
		Receive: "escrow.view_deposits", Parameter: devchain.EncodeDeposit(tok), MaxEnergy: 100_000})
	if err != nil {
		return nil, err
	}
	return decodeDeposits(b)
}

var errDepositsView = errors.New("escrow.view_deposits: malformed return value")

func decodeDeposits(b []byte) ([]dotdotdot.EscrowDeposit, error) {
	if len(b) < 4 {
		return nil, errDepositsView
	}
	n := binary.LittleEndian.Uint32(b)
	b = b[4:]
	if uint64(len(b)) != uint64(n)*48 {
		return nil, errDepositsView
	}
	out := make([]dotdotdot.EscrowDeposit, 0, n)
	for i := uint32(0); i < n; i++ {
		var payer ccd.Address
		copy(payer[:], b[:32])
		amt := binary.LittleEndian.Uint64(b[32:40])
		ms := binary.LittleEndian.Uint64(b[40:48])
		b = b[48:]
		if amt > 1<<62 {
			return nil, errDepositsView
		}
		out = append(out, dotdotdot.EscrowDeposit{Payer: payer.String(), Amount: int64(amt),
			At: time.UnixMilli(int64(ms)).UTC(), Finalized: true})
	}
	return out, nil
}

// The escrow side of a paid table (§5.7, §11.5). The house seats' entries are the house's: when
// the table opens, the arena's account deposits each house seat's entry under the seat token
// "house/<table>/<seat>", so the escrow holds every seat's entry. The round is held on the escrow
// as §5.5 orders it: open_round(round, anchor) before turn 1 and anchor(round, turn, hash) after
// the mid-round settle, both as the table asks for its opened and turn anchors (escrowAnchorer,
// beside the Register Data anchors), and when the round is over settle: each paid seat's payout
// to its paid_by, the house seats' payouts and the house's take to the arena's account, with the
// transcript hash and the reveal. Every call goes through
// the chain actor (signed at once, queued in bbolt, watched to finality). A paid table recovered
// after a restart is not settled on the escrow (the lobby's memory is gone): see the notes.

// escrowEnergy bounds each escrow call.
const escrowEnergy = 50_000

// chainCaller is the chain actor's Call (anchors.Chain).
type chainCaller interface{ Call(job anchors.CallJob) }

func (h *agentsHook) caller2() (chainCaller, ccd.Address, bool) {
	c, ok := h.chain.anchorer.(chainCaller)
	if !ok || h.chain.node == nil {
		return nil, ccd.Address{}, false
	}
	acc, ok := h.chain.node.Account(devchain.AccountArena)
	if !ok {
		return nil, ccd.Address{}, false
	}
	return c, ccd.Address(acc.Address.Value), true
}

// fundHouse deposits the house seats' entries of a paid table that just opened.
func (h *agentsHook) fundHouse(a *actors.Arena, table, round string) {
	c, _, ok := h.caller2()
	pt := h.paid.Load()
	if !ok || pt == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ti, err := a.Table(ctx, table)
	if err != nil {
		h.log.Warn("paid table: house seats not funded", "table", table, "err", err)
		return
	}
	entry := pt.Entry()
	for _, s := range ti.Seats {
		if s.Channel != actors.ChannelHouse {
			continue
		}
		tok := fmt.Sprintf("house/%s/%d", table, s.Seat)
		c.Call(anchors.CallJob{Table: table, Round: round, Name: "deposit", Call: ccd.ContractCall{Amount: uint64(entry),
			Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex, Receive: "escrow.deposit",
			Parameter: devchain.EncodeDeposit(tok), MaxEnergy: escrowEnergy}})
	}
}

// onStatus is actors.Options.OnStatus: a finished paid table is settled on the escrow.
func (h *agentsHook) onStatus(table, status string) {
	if status != actors.StatusFinished || h.paid.Load() == nil {
		return
	}
	go h.settlePaid(table)
}

// settlePaid opens and settles a finished paid round on the escrow.
func (h *agentsHook) settlePaid(table string) {
	pt := h.paid.Load()
	c, arena, ok := h.caller2()
	if pt == nil || !ok {
		return
	}
	st, ok := pt.Finished(table)
	if !ok {
		return
	}
	log := h.log.With("table", table, "round", st.Round)
	calls, err := escrowSettlement(st, arena)
	if err != nil {
		log.Error("paid round not settled on the escrow", "err", err)
		return
	}
	for _, call := range calls {
		c.Call(call)
	}
	log.Info("paid round sent to the escrow", "calls", len(calls), "paid_seats", len(st.Paid))
}

// escrowAnchorer is the Anchorer tables are given in serve: every anchor goes to the chain actor
// (Register Data, §5.5); a paid table's opened and turn anchors also go to the escrow as
// open_round(round, anchor) and anchor(round, turn, hash), in the order the table asks for them.
// Like every anchor it never blocks the table: the chain actor signs, queues and answers at once.
type escrowAnchorer struct{ h *agentsHook }

func (e escrowAnchorer) Anchor(job actors.AnchorJob) {
	e.h.chain.anchorer.Anchor(job)
	pt := e.h.paid.Load()
	if pt == nil || (job.Request.Kind != "opened" && job.Request.Kind != "turn") || !pt.IsPaidTable(job.Table) {
		return
	}
	c, _, ok := e.h.caller2()
	n, err := strconv.ParseUint(strings.TrimPrefix(job.Round, "T-"), 10, 64)
	if !ok || err != nil {
		return
	}
	var param []byte
	name := "open_round"
	if job.Request.Kind == "opened" {
		param = devchain.EncodeOpenRound(n, job.Request.Hash)
	} else {
		f, _ := games.FormatOf(blitz.NewEngine(blitz.DefaultFees()).Manifest(), pt.Format())
		name, param = "anchor", devchain.EncodeAnchor(n, uint32(min(3, f.Turns-1)), job.Request.Hash)
	}
	c.Call(escrowCall(job.Table, job.Round, name, param))
}

// escrowCall is one call on the escrow contract.
func escrowCall(table, round, name string, param []byte) anchors.CallJob {
	return anchors.CallJob{Table: table, Round: round, Name: name, Call: ccd.ContractCall{
		Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex, Receive: "escrow." + name,
		Parameter: param, MaxEnergy: escrowEnergy}}
}

// escrowSettlement is the settle call of a finished paid round (open_round and anchor were
// made during play by escrowAnchorer).
func escrowSettlement(st dotdotdot.PaidSettlement, arena ccd.Address) ([]anchors.CallJob, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(st.Round, "T-"), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("round %q: %w", st.Round, err)
	}
	th, err := hex.DecodeString(strings.TrimPrefix(st.Result.TranscriptHash, "sha256:"))
	if err != nil || len(th) != 32 {
		return nil, fmt.Errorf("transcript hash %q", st.Result.TranscriptHash)
	}
	var pays []devchain.Payout
	var total int64
	for _, p := range st.Paid {
		addr, err := accountOf(p.Account)
		if err != nil {
			return nil, fmt.Errorf("paid_by of seat %d: %w", p.Seat, err)
		}
		if p.Amount > 0 {
			pays = append(pays, devchain.Payout{To: v2.AccountAddress{Value: addr}, Amount: uint64(p.Amount)})
		}
		total += p.Amount
	}
	house := st.Result.House
	for _, amt := range st.House {
		house += amt
	}
	total += house
	if house > 0 {
		pays = append(pays, devchain.Payout{To: v2.AccountAddress{Value: arena}, Amount: uint64(house)})
	}
	if want := st.Entry * int64(st.Seats); total != want {
		return nil, fmt.Errorf("payouts and the house take sum to %d microCCD, the entries to %d", total, want)
	}
	reveal := []byte(st.Result.Reveal)
	if len(reveal) > 64<<10 {
		reveal = nil // the escrow takes at most 64 KiB; the transcript hash still binds the round
	}
	return []anchors.CallJob{escrowCall(st.Table, st.Round, "settle", devchain.EncodeSettle(n, pays, [32]byte(th), reveal))}, nil
}

// accountOf is the address of a CAIP-10 account ("ccd:<chain>:<base58>").
func accountOf(caip10 string) (ccd.Address, error) {
	i := strings.LastIndexByte(caip10, ':')
	if i < 0 {
		return ccd.Address{}, fmt.Errorf("%q is not a CAIP-10 account", caip10)
	}
	return ccd.ParseAddress(caip10[i+1:])
}
