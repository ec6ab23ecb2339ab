package cashier

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/ledger"
	"arena/chain/egress"
	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnd"
	"arena/chain/lightning/lnurl"
	"arena/chain/lightning/simnet"
	"arena/games"
	"arena/storage"
	"arena/storage/storagetest"
)

// TestPaidMatchOnARealLightningNetwork: the house's wallet is alice's lnd on a btcd simnet; three
// agents pay their 1000-sat stakes from bob's lnd (real HTLCs, held by alice's hold invoices until
// the table forms); a paid message before the HTLC arrives is not_paid; a stake paid for the
// wrong amount is refused by the node itself and stays not_paid; an invoice left unpaid past its
// expiry is payment_expired. The table locks the three stakes (alice settles: bob's payments
// succeed), the standings rank one seat first: its payout (2400 sats) reaches bob's node through a
// LUD-16 service in front of it (the invoice carries the metadata's hash); the house keeps the
// rake; the channel moved exactly stakes − payout; the invariant holds after every step.
func TestPaidMatchOnARealLightningNetwork(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	n, err := simnet.Start(ctx, simnet.Options{Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	client := func(node *simnet.Node) *lnd.Client {
		c, err := lnd.New(lnd.Options{URL: node.RESTURL, Macaroon: node.Macaroon, TLSCert: node.TLSCert, Currency: bolt11.Simnet})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	alice, bob := client(n.Alice), client(n.Bob)

	// The payee service: bob's node issues each payout invoice with the metadata's hash.
	const meta = `[["text/plain","Break Room winnings"]]`
	var base string
	var mu sync.Mutex
	var payoutHashes []string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/{user}", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"tag": "payRequest", "callback": base + "/cb/" + r.PathValue("user"),
			"minSendable": 1000, "maxSendable": 100_000_000, "metadata": meta})
	})
	mux.HandleFunc("GET /cb/{user}", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.Sum256([]byte(meta))
		var inv struct {
			RHash          string `json:"r_hash"`
			PaymentRequest string `json:"payment_request"`
		}
		if err := n.Bob.Call(r.Context(), http.MethodPost, "/v1/invoices", map[string]string{
			"value_msat": r.URL.Query().Get("amount"), "description_hash": base64.StdEncoding.EncodeToString(h[:]),
		}, &inv); err != nil {
			json.NewEncoder(w).Encode(map[string]string{"status": "ERROR", "reason": err.Error()})
			return
		}
		raw, _ := base64.StdEncoding.DecodeString(inv.RHash)
		mu.Lock()
		payoutHashes = append(payoutHashes, hex.EncodeToString(raw))
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"pr": inv.PaymentRequest, "routes": []any{}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL
	addr := func(user string) string { return user + "@" + strings.TrimPrefix(srv.URL, "http://") }

	store := storagetest.Open(t, storage.Options{NoSync: true})
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	defer sys.Shutdown()
	led, err := ledger.Start(sys, store, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{Ledger: led, Wallet: alice, Currency: bolt11.Simnet, Backoff: 100 * time.Millisecond, Expiry: 5 * time.Second,
		Resolver: &lnurl.Resolver{Egress: egress.NewClient(egress.Dev()), Scheme: "http", Currency: bolt11.Simnet}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	check := func(step string) Totals {
		t.Helper()
		tot, err := c.Check(ctx)
		if err != nil {
			t.Fatalf("after %s: %v", step, err)
		}
		return tot
	}
	before, _, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// An invoice nobody pays: payment_expired after its expiry.
	lateAt := time.Now()
	late, err := c.Invoice(ctx, "late", "inference", 1000)
	if err != nil {
		t.Fatal(err)
	}
	// The wrong amount: lnd refuses to send another amount than the invoice's.
	wrong, err := c.Invoice(ctx, "wrong", "inference", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: wrong.Bolt11, Msat: 500_000}); err == nil {
		t.Fatal("bob's client paid 500 sats on a 1000-sat invoice")
	}
	lctx, lcancel := context.WithTimeout(ctx, 30*time.Second)
	out, err := n.Bob.Lncli(lctx, "payinvoice", "--force", "--amt", "500", wrong.Bolt11)
	lcancel()
	if err == nil && !strings.Contains(out, "amount must not be specified") {
		t.Fatalf("bob's node paid the wrong amount: %s", out)
	}
	if _, err := c.Paid(ctx, "wrong", wrong.PaymentHash, addr("wrong")); codeOf(err) != CodeNotPaid {
		t.Fatalf("paid after a wrong amount: %v, want not_paid", err)
	}
	check("wrong amount")

	keys := []string{"k1", "k2", "k3"}
	var seats []Seat
	pays := make(chan error, 3)
	for i, k := range keys {
		inv, err := c.Invoice(ctx, k, "inference", 1000)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Paid(ctx, k, inv.PaymentHash, addr(k)); codeOf(err) != CodeNotPaid {
			t.Fatalf("paid before paying: %v", err)
		}
		go func() {
			p, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 1_000_000, MaxFeeMsat: 10_000})
			if err == nil && p.Status != lightning.PaymentSucceeded {
				err = &games.Error{Code: "failed", Msg: p.FailureReason}
			}
			pays <- err
		}()
		for {
			_, err := c.Paid(ctx, k, inv.PaymentHash, addr(k))
			if err == nil {
				break
			}
			if codeOf(err) != CodeNotPaid {
				t.Fatalf("paid: %v", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		check("paid")
		seats = append(seats, Seat{Seat: i + 1, PaymentHash: inv.PaymentHash})
	}
	if err := c.Lock(ctx, "m_sim", "inference", seats); err != nil {
		t.Fatal(err)
	}
	for range keys {
		if err := <-pays; err != nil {
			t.Fatalf("bob's stake payment: %v", err)
		}
	}
	check("lock")
	time.Sleep(time.Until(lateAt.Add(late.ExpiresIn + time.Second))) // past the invoice's expiry
	if _, err := c.Paid(ctx, "late", late.PaymentHash, addr("late")); codeOf(err) != CodePaymentExpired {
		t.Fatalf("late: %v, want payment_expired", err)
	}
	set, err := c.Settle(ctx, "m_sim", games.Result{Standings: []games.Standing{{Seat: 1, Rank: 2}, {Seat: 2, Rank: 1}, {Seat: 3, Rank: 3}}})
	if err != nil || set.PotSats != 3000 || set.RakeSats != 600 || len(set.Payouts) != 1 || set.Payouts[0] != (SeatPayout{2, 2400}) {
		t.Fatalf("settlement %+v %v", set, err)
	}
	c.Wait()
	tot := check("payout")
	if tot.Payouts != 2400 || tot.Rake != 600 || tot.Credited != 0 {
		t.Fatalf("totals %+v", tot)
	}
	mu.Lock()
	hashes := append([]string(nil), payoutHashes...)
	mu.Unlock()
	if len(hashes) != 1 {
		t.Fatalf("payout invoices fetched: %v", hashes)
	}
	h, _ := parseHash(hashes[0])
	got, err := bob.LookupInvoice(ctx, h)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != 2_400_000 {
		t.Fatalf("the payout at bob's node: %+v %v", got, err)
	}
	after, _, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int64(after)-int64(before) != 600_000 {
		t.Fatalf("alice's balance moved %d msat, want the rake 600000 (stakes 3000000 in, payout 2400000 out)", int64(after)-int64(before))
	}
	lines, _ := c.Lines(ctx, "m_sim")
	if len(lines) != 5 || lines[4].Type != "payout" || lines[4].Hash != hashes[0] {
		t.Fatalf("money lines %+v", lines)
	}
}
