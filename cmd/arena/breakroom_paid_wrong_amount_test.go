package main

import (
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"

	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
)

// TestBreakroomPaidWrongAmountIsRefused: an agent joins the Dilemma at 100 sats and tries to
// pay its stake invoice for another amount, over (200 sats) and under (50 sats, 1 msat short):
// the same invoice (payment hash, secret, expiry) re-written for that amount, which only the
// house's wallet could sign. The development wallet's route refuses each (400 bad_invoice: not
// an invoice of this wallet); after each the invoice is still open (paid is 402 not_paid), the
// invariant holds and nothing was received; the invoice paid as issued is then queued.
func TestBreakroomPaidWrongAmountIsRefused(t *testing.T) {
	p := newPaidSite(t, time.Hour, time.Hour)
	k := newBrKey(66)
	pr := p.paidJoin(t, k, 100)
	inv, err := bolt11.Decode(pr["bolt11"].(string))
	if err != nil || inv.Msat != 100_000 {
		t.Fatalf("the stake invoice: %v %v", inv, err)
	}
	var fields []bolt11.Field
	for _, f := range inv.Fields() {
		if f.Type != bolt11.TypePayee {
			fields = append(fields, f)
		}
	}
	forger, _ := btcec.NewPrivateKey()
	lnaddr := p.payees.addr("k66")
	for _, msat := range []uint64{200_000, 99_999, 50_000} {
		amt, _ := bolt11.AmountMsat(msat)
		wrong, err := bolt11.Sign(bolt11.Unsigned{Currency: inv.Currency, Amount: amt, Timestamp: inv.Timestamp, Fields: fields}, forger)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := bolt11.Decode(wrong.Encode()); err != nil || d.PaymentHash != inv.PaymentHash || d.Msat != msat {
			t.Fatalf("the %d-msat invoice: %v %v", msat, d, err)
		}
		st, m := p.do(t, "POST", devwallet.PayPath, "", `{"bolt11":"`+wrong.Encode()+`"}`)
		if msg, _ := m["message"].(string); st != 400 || m["error"] != "bad_invoice" || !strings.Contains(msg, "not an invoice of this wallet") {
			t.Fatalf("paying %d msat: %d %v", msat, st, m)
		}
		st, m = p.do(t, "POST", "/v0/paid", "", p.signed(t, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": lnaddr}))
		if st != 402 || m["code"] != "not_paid" {
			t.Fatalf("paid after paying %d msat: %d %v", msat, st, m)
		}
		if tot := p.check(t, "a wrong amount"); tot.StakesIn != 0 || tot.Held != 0 {
			t.Fatalf("after paying %d msat: %+v", msat, tot)
		}
	}
	p.payDev(t, pr["bolt11"].(string))
	st, q := p.do(t, "POST", "/v0/paid", "", p.signed(t, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": lnaddr}))
	if st != 200 || q["type"] != "queued" {
		t.Fatalf("paid as issued: %d %v", st, q)
	}
	if tot := p.check(t, "paid as issued"); tot.StakesIn != 100 || tot.Held != 100 {
		t.Fatalf("paid as issued: %+v", tot)
	}
}
