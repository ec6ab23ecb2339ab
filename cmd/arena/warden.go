package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	aw "arena/actors/warden"
	"arena/actors/wardenpay"
	"arena/chain/evm"
	"arena/chain/x402"
	"arena/config"
	"arena/games"
	"arena/storage"
	"arena/transport/warden"
)

// noRail is the detail the Warden's money doors answer with when no stake rail is configured.
const noRail = "this Warden has no stake rail: set warden.evm.rpc_url (--warden-evm-rpc, ARENA_WARDEN_EVM_RPC) with its chain id, token, relayer and pay_to"

// wardenOrigin is the origin a stake's 402 names (§10.2): warden.public_url when set; else the
// site's own listen address (own, warden.site.addr); else http://<first Host>:<main port>.
func wardenOrigin(cfg config.Config, listen, own net.Addr) (string, error) {
	return siteOrigin(cfg.Warden.PublicURL, cfg.Warden.Site.Hosts, listen, own)
}

// wardenDoors builds the Warden's REST doors (transport/warden) over store for the Bracket's
// Warden-family games (ids warden.*). With a stake rail (warden.evm) it checks the node is on
// the configured chain and then resumes every payment a crash left settling or submitted
// (Recover, §10.8) before returning: the doors accept no request until the chain agrees with
// what the store says was paid. With no rail the money doors answer facilitator_unavailable.
func wardenDoors(ctx context.Context, cfg config.Config, store *storage.Store, bracket *games.Bracket, origin string, log *slog.Logger) (*warden.Doors, error) {
	var ids []string
	for _, m := range bracket.Manifests() {
		if strings.HasPrefix(m.ID, "warden.") {
			ids = append(ids, m.ID)
		}
	}
	d := &warden.Doors{Store: store, BaseURL: origin, Games: ids, Stakes: cfg.Warden.StakesAllowed, Log: log.With("component", "warden")}
	e := cfg.Warden.EVM
	if !e.Enabled() {
		d.NoRail = noRail
		log.Info("warden: no stake rail configured; the money doors answer facilitator_unavailable")
		return d, nil
	}
	// Validate has checked these parse.
	token, _ := x402.ParseAddress(e.Token)
	relayer, _ := x402.ParseAddress(e.Relayer)
	payTo, _ := x402.ParseAddress(e.PayTo)
	client := evm.Dial(e.RPCURL, &http.Client{Timeout: 30 * time.Second})
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	id, err := client.ChainID(cctx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("serve: warden: the stake rail's node %s: %w", e.RPCURL, err)
	}
	if id != e.ChainID {
		return nil, fmt.Errorf("serve: warden: the stake rail's node %s is on chain %d, warden.evm.chain_id is %d", e.RPCURL, id, e.ChainID)
	}
	d.Token = evm.Token{Client: client, Address: token}
	d.Relayer = relayer
	d.Rail = warden.Rail{ID: fmt.Sprintf("eip155:%d-exact", e.ChainID), ChainID: e.ChainID, V1Network: e.Network,
		Asset: token, PayTo: payTo, DomainName: e.TokenName, DomainVersion: e.TokenVersion}
	// Write before you speak: what a crash left unfinished is settled (or found settled on
	// chain) and recorded before any door answers.
	if err := d.Recover(ctx); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	log.Info("warden: stake rail", "rpc", e.RPCURL, "chain_id", e.ChainID, "token", token.String(), "pay_to", payTo.String())
	return d, nil
}

// startWardenPay starts the Warden's money out (actors/wardenpay, §11, §5.4) beside its doors:
// one Worker goroutine that pays the queued payouts and refunds from the escrow wallet
// (warden.evm.wallet_key, or the dev key on a geth --dev chain), writes SETTLED matches'
// Ledger rows, cancels and refunds matches whose stake window closed and expires unjoined ones.
// Its first pass resumes whatever a crash left (a signed job is sent again, the same bytes).
// With no rail it starts nothing; with no wallet key the jobs wait in the queue and the log
// says so. stop ends the Worker and waits for it (before the store closes).
func startWardenPay(ctx context.Context, cfg config.Config, store *storage.Store, d *warden.Doors, log *slog.Logger) (stop func(), err error) {
	e := cfg.Warden.EVM
	if !e.Enabled() {
		return func() {}, nil
	}
	log = log.With("component", "wardenpay")
	o := wardenpay.Options{Store: store, Client: d.Token.Client, Token: d.Token.Address, Log: log, Published: aw.MessagesPublished,
		EliteWinRatePct: cfg.Warden.Standing.EliteWinRatePct, EliteMinMatches: cfg.Warden.Standing.EliteMinMatches}
	switch key, dev := e.Wallet(); {
	case key == "":
		log.Warn("warden: no wallet key (warden.evm.wallet_key): payouts and refunds are queued and nothing is sent until one is configured", "pay_to", e.PayTo)
	default:
		w, err := evm.ParseWalletKey(key, e.ChainID)
		if err != nil {
			return nil, fmt.Errorf("serve: warden.evm.wallet_key: %w", err) // Validate checked it; never the key itself
		}
		o.Wallet = w
		if dev {
			log.Warn("warden: the wallet is the public geth --dev key (no warden.evm.wallet_key): never for real money", "wallet", w.Address.String())
		}
		log.Info("warden: payouts and refunds from the escrow wallet", "wallet", w.Address.String())
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	worker := wardenpay.New(o)
	go func() {
		defer close(done)
		worker.Run(wctx)
	}()
	return func() { cancel(); <-done }, nil
}
