package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
	"arena/chain/lightning/lnd"
	brsite "arena/transport/breakroom"
	"arena/transport/httpapi"
)

// TestBreakroomWalletFromConfig: nothing configured is the development wallet on regtest with its
// pay route on the Break Room site (an invoice it issued is paid there, a foreign one refused);
// an LND node's settings make an LND client from the macaroon and certificate files; none is no
// wallet; an unreadable macaroon is an error naming the setting.
func TestBreakroomWalletFromConfig(t *testing.T) {
	cfg, err := loadForTest(nil)
	if err != nil {
		t.Fatal(err)
	}
	w, dev, err := breakroomWallet(cfg.Breakroom.Lightning)
	if err != nil || dev == nil || w != holdWallet(dev) || dev.Currency() != bolt11.Regtest {
		t.Fatalf("default wallet %T %v %v", w, dev, err)
	}
	e, err := httpapi.Build(brsite.Site{Doors: doorSet{devRoute{dev}}}, httpapi.Global{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	inv, err := w.AddHoldInvoice(context.Background(), [32]byte{7}, lightning.InvoiceRequest{Msat: 10_000, Memo: "stake"})
	if err != nil {
		t.Fatal(err)
	}
	post := func(b11 string) (int, map[string]string) {
		resp, err := http.Post(srv.URL+devwallet.PayPath, "application/json", strings.NewReader(`{"bolt11":"`+b11+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]string
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, out := post(inv.Bolt11); code != 200 || out["state"] != "ACCEPTED" || !strings.Contains(out["note"], "test sats") {
		t.Fatalf("dev route: %d %v", code, out)
	}
	if got, _ := w.LookupInvoice(context.Background(), [32]byte{7}); got.State != lightning.InvoiceAccepted {
		t.Fatalf("after the dev route: %s", got.State)
	}
	other, _ := devwallet.New(devwallet.Options{})
	foreign, _ := other.AddInvoice(context.Background(), lightning.InvoiceRequest{Msat: 1000})
	if code, out := post(foreign.Bolt11); code != 400 || out["error"] != "bad_invoice" {
		t.Fatalf("foreign invoice: %d %v", code, out)
	}

	dir := t.TempDir()
	mac, cert := filepath.Join(dir, "admin.macaroon"), filepath.Join(dir, "tls.cert")
	os.WriteFile(mac, []byte{1, 2, 3}, 0o600)
	os.WriteFile(cert, selfSignedPEM(t), 0o600)
	cfg, err = loadForTest([]string{"--breakroom-lnd-url", "https://127.0.0.1:8080", "--breakroom-lnd-macaroon", mac,
		"--breakroom-lnd-tls-cert", cert, "--breakroom-ln-network", "simnet"})
	if err != nil {
		t.Fatal(err)
	}
	w, dev, err = breakroomWallet(cfg.Breakroom.Lightning)
	if _, ok := w.(*lnd.Client); !ok || dev != nil || err != nil {
		t.Fatalf("lnd wallet %T %v %v", w, dev, err)
	}
	cfg.Breakroom.Lightning.LNDMacaroon = filepath.Join(dir, "missing")
	if _, _, err := breakroomWallet(cfg.Breakroom.Lightning); err == nil || !strings.Contains(err.Error(), "lnd_macaroon") {
		t.Fatalf("missing macaroon: %v", err)
	}
	cfg, _ = loadForTest([]string{"--breakroom-wallet", "none"})
	if w, dev, err := breakroomWallet(cfg.Breakroom.Lightning); w != nil || dev != nil || err != nil {
		t.Fatalf("none: %v %v %v", w, dev, err)
	}
}

// selfSignedPEM is a throwaway self-signed certificate, PEM.
func selfSignedPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lnd"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
