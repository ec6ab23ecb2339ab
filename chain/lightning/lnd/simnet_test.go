package lnd

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/simnet"
)

// The tests in this file run the client against real lnd nodes: alice (the arena's node) and bob
// (a player's wallet) on one btcd simnet with a channel between them (chain/lightning/simnet),
// started once for the package and stopped by TestMain.

var (
	realOnce sync.Once
	realNet  *simnet.Net
	realErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if realNet != nil {
		realNet.Close()
	}
	os.Exit(code)
}

// real is the package's simnet, started on first use.
func real(t *testing.T) *simnet.Net {
	t.Helper()
	realOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		realNet, realErr = simnet.Start(ctx, simnet.Options{Log: t.Logf})
	})
	if realErr != nil {
		t.Fatal(realErr)
	}
	return realNet
}

// realClient is a Client on a real node, on the wall clock.
func realClient(t *testing.T, node *simnet.Node) *Client {
	t.Helper()
	c, err := New(Options{URL: node.RESTURL, Macaroon: node.Macaroon, TLSCert: node.TLSCert, Currency: bolt11.Simnet})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ledger is both nodes' channel balances, msat.
type ledger struct{ alice, bob uint64 }

func balances(t *testing.T, n *simnet.Net) ledger {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	a, b, err := n.Settled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ledger{a, b}
}

// checkMoved is the ledger invariant: exactly msat moved from payer to payee (a direct channel
// charges no fee), and the channel's total is what it was.
func checkMoved(t *testing.T, before, after ledger, aliceToBob int64) {
	t.Helper()
	if before.alice+before.bob != after.alice+after.bob {
		t.Errorf("channel total %d msat became %d", before.alice+before.bob, after.alice+after.bob)
	}
	if int64(before.alice)-int64(after.alice) != aliceToBob || int64(after.bob)-int64(before.bob) != aliceToBob {
		t.Errorf("balances %+v → %+v, want %d msat moved alice→bob", before, after, aliceToBob)
	}
}

func newPreimage(t *testing.T) [32]byte {
	t.Helper()
	var p [32]byte
	if _, err := rand.Read(p[:]); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRealStakePaidBobToAlice: alice issues an invoice, bob pays it, alice's client sees it
// settled; the invoice as our bolt11 codec reads it is what lnd itself decodes (lncli
// decodepayreq); the money moved is exactly the amount; paying again is ErrAlreadyPaid.
func TestRealStakePaidBobToAlice(t *testing.T) {
	n := real(t)
	ctx := t.Context()
	alice, bob := realClient(t, n.Alice), realClient(t, n.Bob)
	before := balances(t, n)

	const msat = 25_000_000
	inv, err := alice.AddInvoice(ctx, lightning.InvoiceRequest{Msat: msat, Memo: "stake m_1 seat 2", Expiry: 600 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := bolt11.Decode(inv.Bolt11)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Currency != bolt11.Simnet || dec.Msat != msat || dec.Expiry != 600 || dec.PaymentHash != inv.PaymentHash ||
		hex.EncodeToString(dec.Payee.SerializeCompressed()) != n.Alice.PubKey || dec.Description != "stake m_1 seat 2" {
		t.Fatalf("decoded %+v", dec)
	}
	out, err := n.Bob.Lncli(ctx, "decodepayreq", inv.Bolt11)
	if err != nil {
		t.Fatal(err)
	}
	var lndDec struct {
		Destination string `json:"destination"`
		PaymentHash string `json:"payment_hash"`
		NumMsat     string `json:"num_msat"`
		Timestamp   string `json:"timestamp"`
		Expiry      string `json:"expiry"`
		Description string `json:"description"`
		CltvExpiry  string `json:"cltv_expiry"`
		PaymentAddr string `json:"payment_addr"`
	}
	if err := json.Unmarshal([]byte(out), &lndDec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := lndDec
	want.Destination = hex.EncodeToString(dec.Payee.SerializeCompressed())
	want.PaymentHash = hex.EncodeToString(dec.PaymentHash[:])
	want.NumMsat = strconv.FormatUint(dec.Msat, 10)
	want.Timestamp = strconv.FormatUint(dec.Timestamp, 10)
	want.Expiry = strconv.FormatUint(dec.Expiry, 10)
	want.Description = dec.Description
	want.CltvExpiry = strconv.FormatUint(dec.MinFinalCLTVExpiryDelta, 10)
	want.PaymentAddr = hex.EncodeToString(dec.PaymentSecret[:])
	if lndDec != want {
		t.Fatalf("lnd decodes %+v, our codec %+v", lndDec, want)
	}

	start := time.Now()
	p, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: msat, MaxFeeMsat: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != lightning.PaymentSucceeded || p.PaymentHash != inv.PaymentHash || sha256.Sum256(p.Preimage[:]) != inv.PaymentHash ||
		p.Msat != msat || p.FeeMsat != 0 {
		t.Fatalf("%+v", p)
	}
	got, err := alice.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("invoice → settled on simnet: %v", time.Since(start))
	if got.State != lightning.InvoiceSettled || got.PaidMsat != msat || got.Msat != msat || got.Bolt11 != inv.Bolt11 || got.SettledAt.IsZero() {
		t.Fatalf("%+v", got)
	}
	checkMoved(t, before, balances(t, n), -msat)

	if _, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: msat}); !errors.Is(err, lightning.ErrAlreadyPaid) {
		t.Fatalf("second pay: %v, want ErrAlreadyPaid", err)
	}
	checkMoved(t, before, balances(t, n), -msat)
}

// TestRealPayoutAliceToBob: the arena pays a winner's invoice.
func TestRealPayoutAliceToBob(t *testing.T) {
	n := real(t)
	ctx := t.Context()
	alice, bob := realClient(t, n.Alice), realClient(t, n.Bob)
	before := balances(t, n)
	const msat = 47_000_000
	inv, err := bob.AddInvoice(ctx, lightning.InvoiceRequest{Msat: msat, Memo: "payout m_1"})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Expiry != 24*time.Hour {
		t.Errorf("default expiry %v, want lnd's 24h", inv.Expiry)
	}
	p, err := alice.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: msat})
	if err != nil || p.Status != lightning.PaymentSucceeded || p.Msat != msat {
		t.Fatalf("%+v, %v", p, err)
	}
	got, err := bob.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != msat {
		t.Fatalf("%+v, %v", got, err)
	}
	checkMoved(t, before, balances(t, n), msat)
}

// TestRealHoldInvoice: a stake in escrow. Bob pays alice's hold invoice; it is Accepted with the
// funds held (bob's Pay has not returned); settling takes them and bob's Pay succeeds with the
// preimage. A second one cancelled while held returns the funds and bob's Pay fails.
func TestRealHoldInvoice(t *testing.T) {
	n := real(t)
	ctx := t.Context()
	alice, bob := realClient(t, n.Alice), realClient(t, n.Bob)
	const msat = 10_000_000

	hold := func(memo string) (lightning.Invoice, [32]byte, chan lightning.Payment, chan error) {
		pre := newPreimage(t)
		inv, err := alice.AddHoldInvoice(ctx, sha256.Sum256(pre[:]), lightning.InvoiceRequest{Msat: msat, Memo: memo, Expiry: 600 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if inv.PaymentHash != sha256.Sum256(pre[:]) || inv.State != lightning.InvoiceOpen {
			t.Fatalf("%+v", inv)
		}
		pc, ec := make(chan lightning.Payment, 1), make(chan error, 1)
		go func() {
			p, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: msat})
			pc <- p
			ec <- err
		}()
		if err := pollState(ctx, alice, inv.PaymentHash, lightning.InvoiceAccepted); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-pc:
			t.Fatalf("bob's payment ended while held: %+v %v", p, <-ec)
		default:
		}
		return inv, pre, pc, ec
	}

	before := balances(t, n)
	inv, pre, pc, ec := hold("stake m_2 seat 1 (held)")
	if err := alice.SettleInvoice(ctx, pre); err != nil {
		t.Fatal(err)
	}
	p, err := <-pc, <-ec
	if err != nil || p.Status != lightning.PaymentSucceeded || p.Preimage != pre || p.Msat != msat {
		t.Fatalf("settled: %+v, %v", p, err)
	}
	got, err := alice.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil || got.State != lightning.InvoiceSettled || got.PaidMsat != msat {
		t.Fatalf("%+v, %v", got, err)
	}
	checkMoved(t, before, balances(t, n), -msat)
	if err := alice.CancelInvoice(ctx, inv.PaymentHash); !errors.Is(err, lightning.ErrWallet) {
		t.Fatalf("cancel a settled invoice: %v, want ErrWallet", err)
	}

	before = balances(t, n)
	inv, _, pc, ec = hold("stake m_2 seat 2 (refunded)")
	if err := alice.CancelInvoice(ctx, inv.PaymentHash); err != nil {
		t.Fatal(err)
	}
	p, err = <-pc, <-ec
	if err != nil || p.Status != lightning.PaymentFailed || p.FailureReason != "FAILURE_REASON_INCORRECT_PAYMENT_DETAILS" {
		t.Fatalf("cancelled: %+v, %v", p, err)
	}
	got, err = alice.LookupInvoice(ctx, inv.PaymentHash)
	if err != nil || got.State != lightning.InvoiceCanceled || got.PaidMsat != 0 {
		t.Fatalf("%+v, %v", got, err)
	}
	checkMoved(t, before, balances(t, n), 0)

	unknown := newPreimage(t)
	if err := alice.SettleInvoice(ctx, unknown); !errors.Is(err, lightning.ErrNotFound) {
		t.Errorf("settle unknown: %v, want ErrNotFound", err)
	}
	if err := alice.CancelInvoice(ctx, sha256.Sum256(unknown[:])); !errors.Is(err, lightning.ErrNotFound) {
		t.Errorf("cancel unknown: %v, want ErrNotFound", err)
	}
}

// pollState waits for an invoice to reach want.
func pollState(ctx context.Context, c *Client, hash [32]byte, want lightning.InvoiceState) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		got, err := c.LookupInvoice(ctx, hash)
		if err == nil && got.State == want {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), err, errors.New("state "+string(got.State)+", want "+string(want)))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestRealErrors: the real node's refusals map to the client's documented errors and move no
// money: an unknown hash, a payment beyond the payer's balance, an expired invoice (refused by
// the client, and by the node when the client's clock lets it through).
func TestRealErrors(t *testing.T) {
	n := real(t)
	ctx := t.Context()
	alice, bob := realClient(t, n.Alice), realClient(t, n.Bob)
	before := balances(t, n)

	var h [32]byte
	if _, err := alice.LookupInvoice(ctx, h); !errors.Is(err, lightning.ErrNotFound) {
		t.Errorf("unknown hash: %v, want ErrNotFound", err)
	}

	big := uint64(simnet.ChannelSat) * 1000 * 9 / 10
	inv, err := alice.AddInvoice(ctx, lightning.InvoiceRequest{Msat: big, Memo: "too much"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: inv.Bolt11, Msat: big})
	if err != nil || p.Status != lightning.PaymentFailed || p.FailureReason != "FAILURE_REASON_INSUFFICIENT_BALANCE" || p.Preimage != ([32]byte{}) {
		t.Errorf("insufficient balance: %+v, %v", p, err)
	}
	if got, err := alice.LookupInvoice(ctx, inv.PaymentHash); err != nil || got.State != lightning.InvoiceOpen {
		t.Errorf("after a failed payment: %+v, %v", got, err)
	}

	short, err := alice.AddInvoice(ctx, lightning.InvoiceRequest{Msat: 1000, Memo: "expires", Expiry: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := pollState(ctx, alice, short.PaymentHash, lightning.InvoiceCanceled); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Pay(ctx, lightning.PayRequest{Bolt11: short.Bolt11, Msat: 1000}); !errors.Is(err, lightning.ErrBadInvoice) {
		t.Errorf("expired, by the client: %v, want ErrBadInvoice", err)
	}
	lenient, err := New(Options{URL: n.Bob.RESTURL, Macaroon: n.Bob.Macaroon, TLSCert: n.Bob.TLSCert, Currency: bolt11.Simnet,
		Now: func() time.Time { return short.CreatedAt }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = lenient.Pay(ctx, lightning.PayRequest{Bolt11: short.Bolt11, Msat: 1000})
	t.Logf("expired, by the node: %v", err)
	if !errors.Is(err, lightning.ErrBadInvoice) {
		t.Errorf("expired, by the node: %v, want ErrBadInvoice", err)
	}
	checkMoved(t, before, balances(t, n), 0)
}
