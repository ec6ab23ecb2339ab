package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	aw "arena/actors/warden"
	"arena/actors/warden/wardenpay"
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
// Warden-family games (ids warden.*) and, with a stake rail (warden.evm), the rail's start-up
// (wardenRail): everything the doors need is read from the config here; the node is tried once
// (wardenRail.connect: chain id, then Recover, §10.8) before this returns, so a reachable node
// has its unfinished payments resumed before any door answers. An unreachable node stops
// nothing: the money doors answer facilitator_unavailable until wardenRail.run's retries reach
// it. With no rail the money doors answer facilitator_unavailable with noRail. Errors: a wallet
// key that does not parse (Validate has checked it).
func wardenDoors(ctx context.Context, cfg config.Config, store *storage.Store, bracket *games.Bracket, origin string, log *slog.Logger) (*warden.Doors, *wardenRail, error) {
	var ids []string
	for _, m := range bracket.Manifests() {
		if strings.HasPrefix(m.ID, "warden.") {
			ids = append(ids, m.ID)
		}
	}
	d := &warden.Doors{Store: store, BaseURL: origin, Games: ids, Stakes: cfg.Warden.StakesAllowed, Log: log.With("component", "warden"),
		Standing: warden.StandingRule{EliteWinRatePct: cfg.Warden.Standing.EliteWinRatePct, EliteMinMatches: cfg.Warden.Standing.EliteMinMatches}}
	e := cfg.Warden.EVM
	if !e.Enabled() {
		d.NoRail = noRail
		log.Info("warden: no stake rail configured; the money doors answer facilitator_unavailable")
		return d, &wardenRail{}, nil
	}
	// Validate has checked these parse.
	token, _ := x402.ParseAddress(e.Token)
	relayer, _ := x402.ParseAddress(e.Relayer)
	payTo, _ := x402.ParseAddress(e.PayTo)
	client := evm.Dial(e.RPCURL, &http.Client{Timeout: 30 * time.Second})
	d.Token = evm.Token{Client: client, Address: token}
	d.Relayer = relayer
	d.Rail = warden.Rail{ID: fmt.Sprintf("eip155:%d-exact", e.ChainID), ChainID: e.ChainID, V1Network: e.Network,
		Asset: token, PayTo: payTo, DomainName: e.TokenName, DomainVersion: e.TokenVersion}
	pay, err := wardenPayOptions(cfg, store, d, log)
	if err != nil {
		return nil, nil, err
	}
	r := &wardenRail{cfg: e, doors: d, pay: pay, log: log, done: make(chan struct{})}
	r.set(railUnreached)
	d.Down = r.down
	r.first = r.connect(ctx)
	return d, r, nil
}

// railUnreached is the money doors' detail while the stake rail's node has not answered.
const railUnreached = "the Warden's stake rail node is unreachable; the Warden is retrying it and takes stakes once it answers"

// Back-off of the stake rail's retries: the first wait, doubled after each failure up to the
// last.
const (
	railRetryFirst = time.Second
	railRetryMax   = 30 * time.Second
)

// railOutcome is one connection attempt's end: up (the rail serves), retry (the node did not
// answer, or Recover could not finish: try again) or fatal (the node is on another chain: the
// money doors stay shut until the operator fixes the config).
type railOutcome int

const (
	railUp railOutcome = iota
	railRetry
	railFatal
)

// wardenRail is the Warden's stake rail coming up (§10.10). Until its node answers with the
// configured chain id and Recover has resumed what a crash left, the money doors answer
// facilitator_unavailable with why (down); then the payout Worker starts and why is cleared.
// The rest of the Warden, and every other site, serve throughout.
type wardenRail struct {
	cfg   config.WardenEVM
	doors *warden.Doors
	pay   wardenpay.Options
	log   *slog.Logger
	why   atomic.Pointer[string]
	first railOutcome

	cancel context.CancelFunc
	done   chan struct{} // closed when run's goroutine ends
	stop   func()        // ends the payout Worker; set by that goroutine before done closes
}

func (r *wardenRail) set(why string) { r.why.Store(&why) }

// down is the money doors' Down: "" once the rail serves.
func (r *wardenRail) down() string {
	if p := r.why.Load(); p != nil {
		return *p
	}
	return ""
}

// connect tries the node once: its chain id (another chain is fatal, logged at error level),
// then Recover (§10.8). It never starts the Worker.
func (r *wardenRail) connect(ctx context.Context) railOutcome {
	e := r.cfg
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	id, err := r.doors.Token.Client.ChainID(cctx)
	cancel()
	if err != nil {
		r.log.Warn("warden: the stake rail's node is unreachable; the money doors answer facilitator_unavailable and it is retried", "rpc", e.RPCURL, "err", err)
		return railRetry
	}
	if id != e.ChainID {
		r.set(fmt.Sprintf("the Warden's stake rail node is on chain %d, not the configured chain %d: stakes are off until the operator fixes warden.evm", id, e.ChainID))
		r.log.Error("warden: the stake rail's node is on another chain; the money doors stay shut", "rpc", e.RPCURL, "chain_id", id, "want_chain_id", e.ChainID)
		return railFatal
	}
	// Write before you speak: what a crash left unfinished is settled (or found settled on
	// chain) and recorded before any money door opens.
	if err := r.doors.Recover(ctx); err != nil {
		r.log.Warn("warden: recovering the stake rail's unfinished payments failed; retried", "err", err)
		return railRetry
	}
	return railUp
}

// run starts the rail after the match actors (doors.Play) are in place: with the node up at
// start the Worker starts now; with it unreached a goroutine retries with back-off
// (railRetryFirst doubling to railRetryMax) until connect is up (then the Worker starts and the
// doors open) or fatal, or ctx ends. With no rail, or a fatal first try, nothing runs.
func (r *wardenRail) run(ctx context.Context) {
	switch {
	case r.doors == nil || r.first == railFatal:
		return
	case r.first == railUp:
		r.stop = r.up(ctx)
		return
	}
	ctx, r.cancel = context.WithCancel(ctx)
	go func() {
		defer close(r.done)
		out := r.first
		for wait := railRetryFirst; out == railRetry; wait = min(2*wait, railRetryMax) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			out = r.connect(ctx)
		}
		if out == railUp {
			r.stop = r.up(ctx)
		}
	}()
}

// up starts the payout Worker and then opens the money doors.
func (r *wardenRail) up(ctx context.Context) (stop func()) {
	stop = startWardenPay(ctx, r.pay)
	r.set("")
	t := r.doors.Rail
	r.log.Info("warden: stake rail", "rpc", r.cfg.RPCURL, "chain_id", t.ChainID, "token", t.Asset.String(), "pay_to", t.PayTo.String())
	return stop
}

// close ends the retries and the payout Worker and waits for both (before the store closes).
func (r *wardenRail) close() {
	if r.cancel != nil {
		r.cancel()
		<-r.done
	}
	if r.stop != nil {
		r.stop()
	}
}

// wardenPayOptions are the Warden's money out (actors/warden/wardenpay, §11, §5.4) over the doors'
// node: payouts and refunds from the escrow wallet (warden.evm.wallet_key, or the dev key on a
// geth --dev chain). With no wallet key the jobs wait in the queue and the log says so. Errors:
// a key that does not parse (never the key itself in the message).
func wardenPayOptions(cfg config.Config, store *storage.Store, d *warden.Doors, log *slog.Logger) (wardenpay.Options, error) {
	e := cfg.Warden.EVM
	log = log.With("component", "wardenpay")
	o := wardenpay.Options{Store: store, Client: d.Token.Client, Token: d.Token.Address, Log: log, Published: aw.MessagesPublished,
		EliteWinRatePct: cfg.Warden.Standing.EliteWinRatePct, EliteMinMatches: cfg.Warden.Standing.EliteMinMatches}
	switch key, dev := e.Wallet(); {
	case key == "":
		log.Warn("warden: no wallet key (warden.evm.wallet_key): payouts and refunds are queued and nothing is sent until one is configured", "pay_to", e.PayTo)
	default:
		w, err := evm.ParseWalletKey(key, e.ChainID)
		if err != nil {
			return o, fmt.Errorf("serve: warden.evm.wallet_key: %w", err) // Validate checked it; never the key itself
		}
		o.Wallet = w
		if dev {
			log.Warn("warden: the wallet is the public geth --dev key (no warden.evm.wallet_key): never for real money", "wallet", w.Address.String())
		}
		log.Info("warden: payouts and refunds from the escrow wallet", "wallet", w.Address.String())
	}
	return o, nil
}

// startWardenPay starts one wardenpay Worker goroutine that pays the queued payouts and
// refunds, writes SETTLED matches' Ledger rows, cancels and refunds matches whose stake window
// closed and expires unjoined ones. Its first pass resumes whatever a crash left (a signed job
// is sent again, the same bytes). stop ends the Worker and waits for it.
func startWardenPay(ctx context.Context, o wardenpay.Options) (stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	worker := wardenpay.New(o)
	go func() {
		defer close(done)
		worker.Run(wctx)
	}()
	return func() { cancel(); <-done }
}
