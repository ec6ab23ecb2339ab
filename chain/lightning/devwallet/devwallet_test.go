package devwallet

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
)

// TestInvoicesAreRealAndSigned: an invoice decodes with our BOLT 11 decoder, names regtest, is
// signed by the wallet's node key, and carries the amount, memo, hash and expiry asked.
func TestInvoicesAreRealAndSigned(t *testing.T) {
	w, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	hash := sha256.Sum256([]byte("preimage"))
	inv, err := w.AddHoldInvoice(context.Background(), hash, lightning.InvoiceRequest{Msat: 21_000, Memo: "Break Room stake", Expiry: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(inv.Bolt11, "lnbcrt210n1") {
		t.Fatalf("bolt11 %q, want lnbcrt210n1...", inv.Bolt11)
	}
	d, err := bolt11.Decode(inv.Bolt11)
	if err != nil {
		t.Fatal(err)
	}
	if d.Currency != bolt11.Regtest || d.Msat != 21_000 || d.PaymentHash != hash || d.Description != "Break Room stake" ||
		d.Expiry != 120 || !d.Payee.IsEqual(w.NodeKey()) {
		t.Fatalf("decoded %+v", d)
	}
	if inv.State != lightning.InvoiceOpen || inv.Msat != 21_000 || inv.Expiry != 2*time.Minute {
		t.Fatalf("invoice %+v", inv)
	}
	if _, err := New(Options{Currency: bolt11.Bitcoin}); !errors.Is(err, ErrMainnet) {
		t.Fatalf("mainnet: %v, want ErrMainnet", err)
	}
	s, err := New(Options{Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	si, err := s.AddInvoice(context.Background(), lightning.InvoiceRequest{Msat: 1_000_000})
	if err != nil || !strings.HasPrefix(si.Bolt11, "lnsb10u1") {
		t.Fatalf("simnet invoice %q %v", si.Bolt11, err)
	}
}

// TestDevRouteHoldLifecycle: the dev route accepts a hold invoice (escrow), the wallet settles it
// with the preimage; another is cancelled; replays, foreign and expired invoices are refused with
// their codes.
func TestDevRouteHoldLifecycle(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	w, err := New(Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	pay := func(b11 string) (int, map[string]string) {
		t.Helper()
		resp, err := http.Post(srv.URL+PayPath, "application/json", strings.NewReader(`{"bolt11":"`+b11+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]string
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, out
	}
	ctx := context.Background()
	pre := [32]byte{1, 2, 3}
	hash := sha256.Sum256(pre[:])
	inv, err := w.AddHoldInvoice(ctx, hash, lightning.InvoiceRequest{Msat: 10_000, Memo: "stake", Expiry: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if code, out := pay(inv.Bolt11); code != 200 || out["state"] != "ACCEPTED" {
		t.Fatalf("pay: %d %v", code, out)
	}
	if code, out := pay(inv.Bolt11); code != 400 || out["error"] != "already_paid" {
		t.Fatalf("replayed pay: %d %v", code, out)
	}
	if err := w.SettleInvoice(ctx, [32]byte{9}); !errors.Is(err, lightning.ErrNotFound) {
		t.Fatalf("settle with a wrong preimage: %v", err)
	}
	if err := w.SettleInvoice(ctx, pre); err != nil {
		t.Fatal(err)
	}
	got, err := w.LookupInvoice(ctx, hash)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != 10_000 {
		t.Fatalf("after settle: %+v %v", got, err)
	}
	if err := w.CancelInvoice(ctx, hash); !errors.Is(err, lightning.ErrWallet) {
		t.Fatalf("cancel settled: %v", err)
	}

	pre2 := [32]byte{4}
	inv2, _ := w.AddHoldInvoice(ctx, sha256.Sum256(pre2[:]), lightning.InvoiceRequest{Msat: 10_000, Expiry: time.Minute})
	pay(inv2.Bolt11)
	if err := w.CancelInvoice(ctx, inv2.PaymentHash); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.LookupInvoice(ctx, inv2.PaymentHash); got.State != lightning.InvoiceCanceled {
		t.Fatalf("after cancel: %s", got.State)
	}
	pre3 := [32]byte{5}
	inv3, _ := w.AddHoldInvoice(ctx, sha256.Sum256(pre3[:]), lightning.InvoiceRequest{Msat: 10_000, Expiry: time.Minute})
	if err := w.CancelInvoice(ctx, inv3.PaymentHash); err != nil {
		t.Fatal(err)
	}
	if code, out := pay(inv3.Bolt11); code != 400 || out["error"] != "payment_canceled" || !strings.Contains(out["message"], "refunded") {
		t.Fatalf("canceled before expiry, then paid: %d %v", code, out)
	}

	other, _ := New(Options{})
	foreign, _ := other.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 10_000})
	if code, out := pay(foreign.Bolt11); code != 400 || out["error"] != "bad_invoice" {
		t.Fatalf("foreign invoice: %d %v", code, out)
	}
	if code, out := pay("lnbcrt1garbage"); code != 400 || out["error"] != "bad_invoice" {
		t.Fatalf("garbage: %d %v", code, out)
	}
	late, _ := w.AddHoldInvoice(ctx, sha256.Sum256([]byte("late")), lightning.InvoiceRequest{Msat: 10_000, Expiry: time.Minute})
	now = now.Add(time.Minute)
	if code, out := pay(late.Bolt11); code != 400 || out["error"] != "payment_expired" {
		t.Fatalf("expired: %d %v", code, out)
	}
	if got, _ := w.LookupInvoice(ctx, late.PaymentHash); got.State != lightning.InvoiceCanceled {
		t.Fatalf("expired state %s", got.State)
	}
}

// TestPayChecksLikeAWallet: Pay refuses another network, an expired invoice and the wrong amount,
// pays once, and a second Pay of the same hash is ErrAlreadyPaid.
func TestPayChecksLikeAWallet(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	w, _ := New(Options{Now: func() time.Time { return now }})
	payee, _ := New(Options{Now: func() time.Time { return now }})
	sim, _ := New(Options{Currency: bolt11.Simnet, Now: func() time.Time { return now }})
	ctx := context.Background()
	inv, _ := payee.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 5_000, Expiry: time.Minute})
	simInv, _ := sim.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 5_000})
	if _, err := w.Pay(ctx, lightning.PayRequest{Bolt11: simInv.Bolt11, Msat: 5_000}); !errors.Is(err, lightning.ErrBadInvoice) {
		t.Fatalf("other network: %v", err)
	}
	if _, err := w.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 4_000}); !errors.Is(err, lightning.ErrBadInvoice) {
		t.Fatalf("wrong amount: %v", err)
	}
	p, err := w.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 5_000})
	if err != nil || p.Status != lightning.PaymentSucceeded || p.PaymentHash != inv.PaymentHash || p.Msat != 5_000 {
		t.Fatalf("pay: %+v %v", p, err)
	}
	if _, err := w.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 5_000}); !errors.Is(err, lightning.ErrAlreadyPaid) {
		t.Fatalf("second pay: %v", err)
	}
	if len(w.Payments()) != 1 {
		t.Fatalf("payments %d", len(w.Payments()))
	}
	own, _ := w.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 7_000})
	if _, err := w.Pay(ctx, lightning.PayRequest{Bolt11: own.Bolt11, Msat: 7_000}); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.LookupInvoice(ctx, own.PaymentHash); got.State != lightning.InvoiceSettled {
		t.Fatalf("own invoice after Pay: %s", got.State)
	}
	now = now.Add(2 * time.Minute)
	inv2, _ := payee.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 5_000, Expiry: time.Minute})
	now = now.Add(time.Minute)
	if _, err := w.Pay(ctx, lightning.PayRequest{Bolt11: inv2.Bolt11, Msat: 5_000}); !errors.Is(err, lightning.ErrBadInvoice) {
		t.Fatalf("expired: %v", err)
	}
}
