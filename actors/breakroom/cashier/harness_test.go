package cashier

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/btcsuite/btcd/btcec/v2"

	"arena/actors/ledger"
	"arena/chain/egress"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
	"arena/chain/lightning/lnurl"
	"arena/storage"
	"arena/storage/storagetest"
)

// rig is a Cashier on a real ledger (bbolt through storage) and the development wallet, paying
// out through a real LUD-16/LUD-06 service on loopback (payees).
type rig struct {
	t      *testing.T
	store  *storage.Store
	sys    *actor.ActorSystem
	led    *ledger.Ledger
	wallet *devwallet.Wallet
	c      *Cashier
	pay    *payees
	now    time.Time
	mu     sync.Mutex
}

func newRig(t *testing.T, o Options) *rig {
	t.Helper()
	r := &rig{t: t, store: storagetest.Open(t, storage.Options{NoSync: true}), now: time.Unix(1_800_000_000, 0)}
	r.pay = newPayees(t)
	w, err := devwallet.New(devwallet.Options{Now: r.clock})
	if err != nil {
		t.Fatal(err)
	}
	r.wallet = w
	r.start(o)
	return r
}

func (r *rig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

// start (re)starts the ledger and the Cashier on the rig's store: a restart when called again.
func (r *rig) start(o Options) {
	r.t.Helper()
	if r.sys != nil {
		r.c.Wait()
		r.sys.Shutdown()
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	r.sys = sys
	led, err := ledger.Start(sys, r.store, ledger.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.led = led
	o.Ledger, o.Currency, o.Now = led, bolt11.Regtest, r.clock
	if o.Wallet == nil {
		o.Wallet = r.wallet
	}
	if o.Resolver == nil {
		o.Resolver = &lnurl.Resolver{Egress: egress.NewClient(egress.Dev()), Scheme: "http", Currency: bolt11.Regtest}
	}
	if o.Sleep == nil {
		o.Sleep = func(context.Context, time.Duration) error { return nil }
	}
	c, err := New(o)
	if err != nil {
		r.t.Fatal(err)
	}
	r.c = c
	r.t.Cleanup(func() {
		c.Wait()
		if r.sys == sys {
			sys.Shutdown()
		}
	})
}

// check is the invariant, after every step.
func (r *rig) check(step string) Totals {
	r.t.Helper()
	tot, err := r.c.Check(context.Background())
	if err != nil {
		r.t.Fatalf("after %s: %v", step, err)
	}
	return tot
}

// stake invoices stake for key and pays it through the dev route; answers the payment hash.
func (r *rig) stake(key string, stake int64) string {
	r.t.Helper()
	inv, err := r.c.Invoice(context.Background(), key, "dilemma", stake)
	if err != nil {
		r.t.Fatal(err)
	}
	r.check("invoice")
	if _, err := r.wallet.PayInvoice(inv.Bolt11); err != nil {
		r.t.Fatal(err)
	}
	return inv.PaymentHash
}

// payees is a LUD-16 service on loopback: user@127.0.0.1:port, each user's invoices signed by the
// service's own node key with the description hash of its metadata. It records every invoice it
// issued, and a user's limits can be set (or the user removed: 404).
type payees struct {
	t    *testing.T
	srv  *httptest.Server
	key  *btcec.PrivateKey
	mu   sync.Mutex
	max  map[string]uint64 // user → maxSendable (absent: 10^9)
	gone map[string]bool
	// issued are the invoices by payment hash, with the user and amount
	issued map[[32]byte]issued
	n      int
}

type issued struct {
	user string
	msat uint64
}

const payeeMeta = `[["text/plain","Break Room winnings"]]`

func newPayees(t *testing.T) *payees {
	key, _ := btcec.NewPrivateKey()
	p := &payees{t: t, key: key, max: map[string]uint64{}, gone: map[string]bool{}, issued: map[[32]byte]issued{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/{user}", func(w http.ResponseWriter, r *http.Request) {
		u := r.PathValue("user")
		p.mu.Lock()
		max, ok := p.max[u]
		gone := p.gone[u]
		p.mu.Unlock()
		if gone {
			http.NotFound(w, r)
			return
		}
		if !ok {
			max = 1_000_000_000
		}
		json.NewEncoder(w).Encode(map[string]any{"tag": "payRequest", "callback": p.srv.URL + "/cb/" + u,
			"minSendable": 1000, "maxSendable": max, "metadata": payeeMeta})
	})
	mux.HandleFunc("GET /cb/{user}", func(w http.ResponseWriter, r *http.Request) {
		msat, _ := strconv.ParseUint(r.URL.Query().Get("amount"), 10, 64)
		amt, _ := bolt11.AmountMsat(msat)
		p.mu.Lock()
		p.n++
		n := p.n
		p.mu.Unlock()
		hash := sha256.Sum256([]byte("payee invoice " + strconv.Itoa(n)))
		h := sha256.Sum256([]byte(payeeMeta))
		inv, err := bolt11.Sign(bolt11.Unsigned{Currency: bolt11.Regtest, Amount: amt, Timestamp: uint64(time.Unix(1_800_000_000, 0).Unix()),
			Fields: []bolt11.Field{bolt11.PaymentHashField(hash), bolt11.DescriptionHashField(h), bolt11.ExpiryField(86400 * 365),
				bolt11.PaymentSecretField(hash), bolt11.FeaturesField(8, 14)}}, p.key)
		if err != nil {
			p.t.Error(err)
			return
		}
		p.mu.Lock()
		p.issued[hash] = issued{user: r.PathValue("user"), msat: msat}
		p.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"pr": inv.Encode(), "routes": []any{}})
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *payees) addr(user string) string {
	return user + "@" + strings.TrimPrefix(p.srv.URL, "http://")
}

// received is what the wallet's payments delivered to each user, in sats, and how many payments.
func (p *payees) received(w *devwallet.Wallet) (map[string]int64, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int64{}
	n := 0
	for hash, pay := range w.Payments() {
		if is, ok := p.issued[hash]; ok {
			out[is.user] += int64(pay.Msat / 1000)
			n++
		}
	}
	return out, n
}
