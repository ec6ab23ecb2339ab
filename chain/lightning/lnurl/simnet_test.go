package lnurl

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnd"
	"arena/chain/lightning/simnet"
)

// TestPayoutToLightningAddress: a LUD-16 service in front of bob's real lnd (its callback asks
// bob's node for an invoice carrying sha256 of the metadata); the arena's node, alice, resolves
// bob's address and pays the invoice; bob's node sees it settled and exactly the amount moved.
func TestPayoutToLightningAddress(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	n, err := simnet.Start(ctx, simnet.Options{Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()

	const meta = `[["text/plain","arena payout to bob"]]`
	var base string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/lnurlp/bob", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"tag": "payRequest", "callback": base + "/lnurlp/bob/callback",
			"minSendable": 1000, "maxSendable": 200_000_000, "metadata": meta})
	})
	mux.HandleFunc("GET /lnurlp/bob/callback", func(w http.ResponseWriter, r *http.Request) {
		h := sha256.Sum256([]byte(meta))
		var inv struct {
			PaymentRequest string `json:"payment_request"`
		}
		err := n.Bob.Call(r.Context(), http.MethodPost, "/v1/invoices", map[string]string{
			"value_msat": r.URL.Query().Get("amount"), "description_hash": base64.StdEncoding.EncodeToString(h[:]),
		}, &inv)
		if err != nil {
			json.NewEncoder(w).Encode(map[string]string{"status": "ERROR", "reason": err.Error()})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"pr": inv.PaymentRequest, "routes": []any{}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL

	beforeAlice, beforeBob, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const msat = 33_000_000
	pr, dec, err := devResolver().Invoice(ctx, "bob@"+strings.TrimPrefix(srv.URL, "http://"), msat)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Msat != msat {
		t.Fatalf("%+v", dec)
	}
	alice, err := lnd.New(lnd.Options{URL: n.Alice.RESTURL, Macaroon: n.Alice.Macaroon, TLSCert: n.Alice.TLSCert, Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	bob, err := lnd.New(lnd.Options{URL: n.Bob.RESTURL, Macaroon: n.Bob.Macaroon, TLSCert: n.Bob.TLSCert, Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	p, err := alice.Pay(ctx, lightning.PayRequest{Bolt11: pr, Msat: msat})
	if err != nil || p.Status != lightning.PaymentSucceeded || p.Msat != msat || p.FeeMsat != 0 {
		t.Fatalf("%+v, %v", p, err)
	}
	got, err := bob.LookupInvoice(ctx, dec.PaymentHash)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != msat {
		t.Fatalf("%+v, %v", got, err)
	}
	afterAlice, afterBob, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The ledger invariant: the channel's total unchanged, exactly msat moved alice→bob.
	if beforeAlice+beforeBob != afterAlice+afterBob || beforeAlice-afterAlice != msat || afterBob-beforeBob != msat {
		t.Errorf("alice %d → %d, bob %d → %d msat; want %d moved alice→bob", beforeAlice, afterAlice, beforeBob, afterBob, msat)
	}
}
