package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/chain/badge"
	"arena/chain/devchain"
	"arena/chain/escrow"
	"arena/config"
	"arena/games"
	"arena/storage"
)

// paidRig is `arena serve`'s paid-table wiring on a data directory (the store, the embedded
// devchain under it, the chain actor, the agents hook, the arena and its paid tables), with a
// quick gather and clock, for the paid tests and the kill -9 child.
type paidRig struct {
	t      testing.TB
	dir    string
	st     *storage.Store
	ch     chainHook
	ag     *agentsHook
	a      *dotdotdot.Arena
	pt     *dotdotdot.PaidTables
	node   *devchain.Node
	escrow devchain.ContractAddress // the escrow instance the rig's paid tables use
	stop   func()
}

// paidEntry is the rig's entry, microCCD.
const paidEntry = 50_000_000

type rigOptions struct {
	Gather   time.Duration // 0: 3 s
	OnStep   func(step, table, round string)
	Resolver dotdotdot.KeyResolver
	// Node, when set, is a configured node the rig runs on (serve's real-network path: its
	// escrow, house account and network from config) instead of the embedded devchain.
	Node *externalNode
	// Funds checks that the arena's account can fund the house seats (serve's accountFunds),
	// keeping FeeReserve beside them.
	Funds      bool
	FeeReserve int64
	Metrics    prometheus.Registerer
	// Pace is the paid tables' clock (zero: a quick one, a short round in a few seconds).
	Pace games.Pace
	// VoidAfter is PaidOptions.VoidAfter (0: its default).
	VoidAfter time.Duration
}

func startPaidRig(t testing.TB, dir string, o rigOptions) *paidRig {
	t.Helper()
	if o.Gather == 0 {
		o.Gather = 3 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := config.Default()
	cfg.DataDir = dir
	if o.Node != nil {
		cfg = o.Node.config(dir)
	}
	st, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	ch, err := startChain(ctx, cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	ag := startAgents(&ch, log, config.Dotdotdot{}, nil)
	br, _ := newBracket()
	a, err := dotdotdot.Start(actors.Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		InstanceAgent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 77).String(), Anchorer: ch.anchorer,
		BeforeRecover: ch.start}, dotdotdot.Options{OnStatus: ag.onStatus, Anchorer: paidAnchorer{ag}, Resolver: o.Resolver})
	if err != nil {
		t.Fatal(err)
	}
	escrowChain, house := ag.escrowWiring()
	money := a.Ledger()
	contract := *ch.net.escrow
	var funds dotdotdot.FundsReader
	if o.Funds {
		funds = accountFunds{ch.client, ch.net.account}
	}
	pace := o.Pace
	if pace.Name == "" {
		pace = games.Pace{Name: "test", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 100 * time.Millisecond,
			"talk": 150 * time.Millisecond, "commit": 150 * time.Millisecond, "settle": 20 * time.Millisecond}}
	}
	pt, err := dotdotdot.NewPaidTables(a, dotdotdot.PaidOptions{Deposits: escrow.Reader{Node: ch.client, Contract: contract},
		Ledger: money, Chain: escrowChain, Contract: contract, House: house, SeasonPool: ag.seasonPool(), Entry: paidEntry, Gather: o.Gather, Format: "short",
		Escrow: ch.net.escrowID(), SweepEvery: time.Second, OnStep: o.OnStep, Funds: funds, FeeReserve: o.FeeReserve, Metrics: o.Metrics,
		Pace: pace, VoidAfter: o.VoidAfter})
	if err != nil {
		t.Fatal(err)
	}
	ag.setPaid(pt)
	r := &paidRig{t: t, dir: dir, st: st, ch: ch, ag: ag, a: a, pt: pt, node: ch.node,
		escrow: devchain.ContractAddress{Index: contract.Index, Subindex: contract.Subindex}}
	if o.Node != nil {
		r.node = o.Node.node
	}
	r.stop = func() {
		_ = a.Shutdown(context.Background())
		ch.stop()
		cancel()
		_ = st.Close()
	}
	return r
}

// caip is a devchain account's CAIP-10 form on the rig's chain.
func (r *paidRig) caip(name string) string {
	acc, _ := r.node.Account(name)
	return string(badge.Testnet) + ":" + acc.Address.ToBase58()
}

func (r *paidRig) address(name string) v2.AccountAddress {
	acc, _ := r.node.Account(name)
	return acc.Address
}

func (r *paidRig) balance(name string) uint64 {
	r.t.Helper()
	s, err := r.node.AccountState(r.address(name))
	if err != nil {
		r.t.Fatal(err)
	}
	return s.Balance
}

// hold joins agent n (its owner account owner) on the paid table filling now.
func (r *paidRig) hold(n int, owner string) dotdotdot.PaidHold {
	r.t.Helper()
	h, err := r.pt.Hold(context.Background(), dotdotdot.AgentJoin{Agent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, uint64(5000+n)).String(),
		Name: "Payer " + strconv.Itoa(n), Endpoint: "http://127.0.0.1:1/a2a", Human: true}, []string{r.caip(owner)})
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// deposit pays amount to the escrow under token from account from, and waits for it to be final.
func (r *paidRig) deposit(from, token string, amount uint64) {
	r.t.Helper()
	h, err := r.node.SendUpdate(from, r.escrow, "escrow.deposit", devchain.EncodeDeposit(token), amount)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := r.node.WaitFinalized(ctx, h); err != nil {
		r.t.Fatal(err)
	}
}

// waitQuiet waits for round's settle on the escrow ("": none) and every unspent deposit's refund.
func (r *paidRig) waitQuiet(round string, within time.Duration) {
	r.t.Helper()
	var settled bool
	var un []devchain.Unspent
	eventually(r.t, within, 100*time.Millisecond, func() bool {
		settled = true
		if round != "" {
			n, _ := strconv.ParseUint(strings.TrimPrefix(round, "T-"), 10, 64)
			er, ok, err := r.node.EscrowRound(n)
			settled = err == nil && ok && er.Settled
		}
		var err error
		un, err = r.node.EscrowUnspent()
		return settled && err == nil && len(un) == 0
	}, func() string {
		return fmt.Sprintf("round %q settled on the escrow: %v; deposits unrefunded: %+v", round, settled, un)
	})
}
