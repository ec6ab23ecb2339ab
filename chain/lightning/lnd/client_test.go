package lnd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnd/lndtest"
)

// fakeNow is the fake nodes' clock (lndtest's default).
var fakeNow = time.Unix(1_700_000_000, 0)

// client is a Client on node, trusting only the node's certificate (the real TLS path).
func client(t *testing.T, node *lndtest.Node, opts Options) *Client {
	t.Helper()
	opts.URL, opts.TLSCert, opts.Macaroon = node.URL, node.TLSCert, node.Macaroon
	if opts.Currency == "" {
		opts.Currency = bolt11.Simnet
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return fakeNow }
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestInvoicePaidBetweenNodes: the house's node issues an invoice, an agent's node pays it, and
// the house sees it settled with the amount; the preimage the payer gets hashes to the invoice's
// hash.
func TestInvoicePaidBetweenNodes(t *testing.T) {
	var nw lndtest.Network
	house, agent := nw.Start(t, "house", lndtest.Options{}), nw.Start(t, "agent", lndtest.Options{})
	hc, ac := client(t, house, Options{}), client(t, agent, Options{})
	ctx := t.Context()

	inv, err := hc.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1_000_000, Memo: "stake m_1 seat 2", Expiry: 120 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := bolt11.Decode(inv.Bolt11)
	if err != nil {
		t.Fatal(err)
	}
	if inv.State != lightning.InvoiceOpen || inv.Msat != 1_000_000 || inv.Expiry != 120*time.Second ||
		!inv.CreatedAt.Equal(fakeNow) || dec.PaymentHash != inv.PaymentHash || !dec.Payee.IsEqual(house.PubKey()) ||
		dec.Currency != bolt11.Simnet || !strings.HasPrefix(inv.Bolt11, "lnsb10u1") {
		t.Fatalf("%+v", inv)
	}
	got, err := hc.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil || got.State != lightning.InvoiceOpen || got.PaidMsat != 0 || got.Msat != 1_000_000 || got.Bolt11 != inv.Bolt11 {
		t.Fatalf("lookup before paying: %+v, %v", got, err)
	}

	p, err := ac.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 1_000_000, MaxFeeMsat: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != lightning.PaymentSucceeded || p.PaymentHash != inv.PaymentHash || sha256.Sum256(p.Preimage[:]) != inv.PaymentHash ||
		p.Msat != 1_000_000 || p.FeeMsat != 0 || p.FailureReason != "" {
		t.Fatalf("%+v", p)
	}
	got, err = hc.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != 1_000_000 || !got.SettledAt.Equal(fakeNow) {
		t.Fatalf("lookup after paying: %+v, %v", got, err)
	}

	// Paying it again is refused by the node, and is no second payment.
	if _, err := ac.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 1_000_000}); !errors.Is(err, lightning.ErrAlreadyPaid) {
		t.Fatalf("second pay: %v, want ErrAlreadyPaid", err)
	}
	want := []string{"POST /v2/router/send", "POST /v2/router/send"}
	if got := agent.Requests(); !slices.Equal(got, want) {
		t.Fatalf("agent's node saw %v, want %v", got, want)
	}
}

// TestPayRefusesBeforeSending: an invoice the client must not pay is refused with ErrBadInvoice
// and the node never sees a payment.
func TestPayRefusesBeforeSending(t *testing.T) {
	var nw lndtest.Network
	house, agent := nw.Start(t, "house", lndtest.Options{}), nw.Start(t, "agent", lndtest.Options{})
	mainnet := nw.Start(t, "mainnet", lndtest.Options{Currency: bolt11.Bitcoin})
	ctx := t.Context()
	inv, err := client(t, house, Options{}).AddInvoice(ctx, lightning.InvoiceRequest{Msat: 5000, Memo: "x", Expiry: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	other, err := client(t, mainnet, Options{Currency: bolt11.Bitcoin}).AddInvoice(ctx, lightning.InvoiceRequest{Msat: 5000, Memo: "x"})
	if err != nil {
		t.Fatal(err)
	}
	late := client(t, agent, Options{Now: func() time.Time { return fakeNow.Add(time.Minute) }})
	ac := client(t, agent, Options{})
	tests := []struct {
		name string
		c    *Client
		req  lightning.PayRequest
	}{
		{"expired", late, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 5000}},
		{"another amount", ac, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 5001}},
		{"no amount meant", ac, lightning.PayRequest{Bolt11: inv.Bolt11}},
		{"an invoice with no amount", ac, lightning.PayRequest{Bolt11: noAmount(t), Msat: 5000}},
		{"another network", ac, lightning.PayRequest{Bolt11: other.Bolt11, Msat: 5000}},
		{"not an invoice", ac, lightning.PayRequest{Bolt11: "lnsb1garbage", Msat: 5000}},
		{"a bad checksum", ac, lightning.PayRequest{Bolt11: inv.Bolt11[:len(inv.Bolt11)-1] + "q", Msat: 5000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.c.Pay(ctx, tt.req); !errors.Is(err, lightning.ErrBadInvoice) {
				t.Fatalf("%v, want ErrBadInvoice", err)
			}
		})
	}
	if n := agent.Sent(); n != 0 {
		t.Fatalf("the node attempted %d payments", n)
	}
	// A second before expiry it pays.
	early := client(t, agent, Options{Now: func() time.Time { return fakeNow.Add(time.Minute - time.Second) }})
	if p, err := early.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 5000}); err != nil || p.Status != lightning.PaymentSucceeded {
		t.Fatalf("%+v %v", p, err)
	}
}

// TestNodeRefusesExpired: an invoice past its expiry at the node's clock, which the client's
// clock let through, is refused by the node with lnd's "invoice expired" and read as
// ErrBadInvoice (TestRealErrors sees the same from a real lnd).
func TestNodeRefusesExpired(t *testing.T) {
	var nw lndtest.Network
	var now atomic.Int64 // the nodes' clock, Unix seconds
	now.Store(fakeNow.Unix())
	clock := func() time.Time { return time.Unix(now.Load(), 0) }
	house, agent := nw.Start(t, "house", lndtest.Options{Now: clock}), nw.Start(t, "agent", lndtest.Options{Now: clock})
	ctx := t.Context()
	inv, err := client(t, house, Options{}).AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1000, Memo: "x", Expiry: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	now.Store(fakeNow.Add(2 * time.Minute).Unix())
	_, err = client(t, agent, Options{}).Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 1000})
	if !errors.Is(err, lightning.ErrBadInvoice) || !strings.Contains(err.Error(), "invoice expired. Valid until 2023-11-14 22:14:20 +0000 UTC") {
		t.Fatalf("%v, want ErrBadInvoice from the node", err)
	}
	if got, _ := client(t, house, Options{}).LookupInvoice(ctx, inv.PaymentHash); got.State != lightning.InvoiceOpen {
		t.Fatalf("the expired invoice is %s", got.State)
	}
}

// TestPayNoRoute: an invoice of a node the payer cannot reach fails as a Payment, not an error.
func TestPayNoRoute(t *testing.T) {
	var nw, elsewhere lndtest.Network
	agent := nw.Start(t, "agent", lndtest.Options{})
	far := elsewhere.Start(t, "far", lndtest.Options{})
	ctx := t.Context()
	inv, err := client(t, far, Options{}).AddInvoice(ctx, lightning.InvoiceRequest{Msat: 2000, Memo: "payout"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := client(t, agent, Options{}).Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 2000})
	if err != nil || p.Status != lightning.PaymentFailed || p.FailureReason != "FAILURE_REASON_NO_ROUTE" || p.Preimage != ([32]byte{}) {
		t.Fatalf("%+v, %v", p, err)
	}
	if got, _ := client(t, far, Options{}).LookupInvoice(ctx, inv.PaymentHash); got.State != lightning.InvoiceOpen {
		t.Fatalf("the unreachable invoice is %s", got.State)
	}
	// A failed payment may be tried again.
	if _, err := client(t, agent, Options{}).Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: 2000}); err != nil {
		t.Fatalf("retry after failure: %v", err)
	}
}

// TestLookupStates: an unknown hash is ErrNotFound; a cancelled invoice reads CANCELED; an
// invoice settled from outside reads SETTLED.
func TestLookupStates(t *testing.T) {
	var nw lndtest.Network
	node := nw.Start(t, "house", lndtest.Options{})
	c := client(t, node, Options{})
	ctx := t.Context()
	if _, err := c.LookupInvoice(ctx, [32]byte{1}); !errors.Is(err, lightning.ErrNotFound) {
		t.Fatalf("unknown hash: %v, want ErrNotFound", err)
	}
	a, err := c.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1000, Memo: "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 3000, Memo: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if a.PaymentHash == b.PaymentHash || a.Expiry != 24*time.Hour {
		t.Fatalf("two invoices share a hash, or the default expiry is %v", a.Expiry)
	}
	if !node.Cancel(a.PaymentHash) || !node.Settle(b.PaymentHash) {
		t.Fatal("the fake has no such open invoices")
	}
	if got, err := c.LookupInvoice(ctx, a.PaymentHash); err != nil || got.State != lightning.InvoiceCanceled || got.PaidMsat != 0 {
		t.Fatalf("%+v %v", got, err)
	}
	if got, err := c.LookupInvoice(ctx, b.PaymentHash); err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != 3000 {
		t.Fatalf("%+v %v", got, err)
	}
}

// TestAuthAndTLS: a wrong macaroon and a certificate the client does not trust are ErrWallet,
// and the node answers nothing past its macaroon check.
func TestAuthAndTLS(t *testing.T) {
	var nw lndtest.Network
	node := nw.Start(t, "house", lndtest.Options{})
	ctx := t.Context()
	wrongMac, err := New(Options{URL: node.URL, TLSCert: node.TLSCert, Macaroon: []byte("not it"), Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wrongMac.LookupInvoice(ctx, [32]byte{}); !errors.Is(err, lightning.ErrWallet) || !strings.Contains(err.Error(), "verification failed") {
		t.Fatalf("wrong macaroon: %v", err)
	}
	wrongCert, err := New(Options{URL: node.URL, TLSCert: selfSigned(t), Macaroon: node.Macaroon, Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wrongCert.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1}); !errors.Is(err, lightning.ErrWallet) {
		t.Fatalf("untrusted certificate: %v", err)
	}
	if got := node.Requests(); len(got) != 0 {
		t.Fatalf("the node answered %v", got)
	}
}

// selfSigned is a PEM certificate for 127.0.0.1 that no fake node serves.
func selfSigned(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "not the node"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestNewRefuses: what New will not take.
func TestNewRefuses(t *testing.T) {
	var nw lndtest.Network
	node := nw.Start(t, "house", lndtest.Options{})
	ok := Options{URL: node.URL, TLSCert: node.TLSCert, Macaroon: node.Macaroon, Currency: bolt11.Simnet}
	tests := []struct {
		name string
		edit func(*Options)
	}{
		{"http", func(o *Options) { o.URL = strings.Replace(o.URL, "https", "http", 1) }},
		{"a path", func(o *Options) { o.URL += "/v1" }},
		{"no macaroon", func(o *Options) { o.Macaroon = nil }},
		{"no certificate", func(o *Options) { o.TLSCert = nil }},
		{"unknown currency", func(o *Options) { o.Currency = "ltc" }},
	}
	for _, tt := range tests {
		o := ok
		tt.edit(&o)
		if _, err := New(o); err == nil {
			t.Errorf("%s: New took it", tt.name)
		}
	}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
}

// TestAnswersNotLND: answers of the wrong shape are ErrWallet, never a panic or a zero value
// taken for real.
func TestAnswersNotLND(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		call   func(context.Context, *Client) error
	}{
		{"a number for an int64", 200, `{"r_hash":"AAAA","payment_request":"","add_index":5,"payment_addr":""}`, addOne},
		{"a short r_hash", 200, `{"r_hash":"AAAA","payment_request":"","add_index":"5","payment_addr":""}`, addOne},
		{"not JSON", 200, `<html>`, lookupOne},
		{"an unknown state", 200, `{"r_hash":"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","state":"PAID","value_msat":"1","creation_date":"0","settle_date":"0","expiry":"1","amt_paid_msat":"0"}`, lookupOne},
		{"another r_hash", 200, `{"r_hash":"AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","state":"OPEN","value_msat":"1","creation_date":"0","settle_date":"0","expiry":"1","amt_paid_msat":"0"}`, lookupOne},
		{"an error with no message", 500, `{}`, lookupOne},
		{"a stream that ends", 200, ``, payOne},
		{"a stream line of neither", 200, `{"other":1}` + "\n", payOne},
		{"a stream of in-flight updates only", 200, `{"result":{"status":"IN_FLIGHT"}}` + "\n", payOne},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			c, err := New(Options{URL: srv.URL, HTTPClient: srv.Client(), Macaroon: []byte{1}, Currency: bolt11.Simnet,
				Now: func() time.Time { return fakeNow }})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.call(t.Context(), c); !errors.Is(err, lightning.ErrWallet) {
				t.Fatalf("%v, want ErrWallet", err)
			}
		})
	}
}

func addOne(ctx context.Context, c *Client) error {
	_, err := c.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1})
	return err
}

func lookupOne(ctx context.Context, c *Client) error {
	_, err := c.LookupInvoice(ctx, [32]byte{1})
	return err
}

// payOne pays a real simnet invoice so that Pay reaches the node.
func payOne(ctx context.Context, c *Client) error {
	_, err := c.Pay(ctx, lightning.PayRequest{Bolt11: outsideInvoice(), Msat: 1000})
	return err
}

// outsideInvoice is a simnet invoice for 1000 msat, payment hash 01 00…, signed by a key no fake
// node holds, that Pay accepts at fakeNow.
func outsideInvoice() string {
	seed := sha256.Sum256([]byte("a payee outside the test network"))
	key, _ := btcec.PrivKeyFromBytes(seed[:])
	inv, err := bolt11.Sign(bolt11.Unsigned{Currency: bolt11.Simnet, Amount: bolt11.Amount{Value: 10, Multiplier: 'n'},
		Timestamp: uint64(fakeNow.Unix()), Fields: []bolt11.Field{
			bolt11.PaymentHashField([32]byte{1}), bolt11.PaymentSecretField([32]byte{2}), bolt11.DescriptionField("x")}}, key)
	if err != nil {
		panic(err) // a fixed, valid invoice: Sign cannot refuse it
	}
	return inv.Encode()
}

// noAmount is a simnet invoice that names no amount (a donation invoice).
func noAmount(t *testing.T) string {
	t.Helper()
	seed := sha256.Sum256([]byte("a donation payee"))
	key, _ := btcec.PrivKeyFromBytes(seed[:])
	inv, err := bolt11.Sign(bolt11.Unsigned{Currency: bolt11.Simnet, Timestamp: uint64(fakeNow.Unix()), Fields: []bolt11.Field{
		bolt11.PaymentHashField([32]byte{3}), bolt11.PaymentSecretField([32]byte{4}), bolt11.DescriptionField("tip")}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return inv.Encode()
}
