package cashier

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/chain/egress"
	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/lnurl"
	"arena/games"
)

func codeOf(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return ""
}

// TestPaidMatchEndToEnd: three agents pay 100-sat stakes (held: the invoices are Accepted, not
// settled, until the table forms), the pot locks them (settled), the Dilemma-style standings rank
// seat 2 first: the winner's payout (pot 300 less 20 % rake = 240) arrives at its Lightning
// address; the house ledger has the rake; money lines say it; the invariant holds at every step.
func TestPaidMatchEndToEnd(t *testing.T) {
	r := newRig(t, Options{})
	ctx := context.Background()
	keys := []string{"aa", "bb", "cc"}
	var seats []Seat
	for i, k := range keys {
		hash := r.stake(k, 100)
		h, err := r.c.Paid(ctx, k, hash, r.pay.addr("user"+k))
		if err != nil || h.Stake != 100 || h.Game != "dilemma" || h.Dup {
			t.Fatalf("paid: %+v %v", h, err)
		}
		r.check("paid")
		seats = append(seats, Seat{Seat: i + 1, PaymentHash: hash})
		hb, _ := parseHash(hash)
		if inv, _ := r.wallet.LookupInvoice(ctx, hb); inv.State != lightning.InvoiceAccepted {
			t.Fatalf("held stake's invoice is %s, want ACCEPTED (escrow)", inv.State)
		}
	}
	if tot := r.check("three paid"); tot.StakesIn != 300 || tot.Held != 300 {
		t.Fatalf("totals %+v", tot)
	}
	if err := r.c.Lock(ctx, "m_1", "dilemma", seats); err != nil {
		t.Fatal(err)
	}
	if tot := r.check("lock"); tot.InPots != 300 || tot.Held != 0 {
		t.Fatalf("after lock %+v", tot)
	}
	for _, s := range seats {
		hb, _ := parseHash(s.PaymentHash)
		if inv, _ := r.wallet.LookupInvoice(ctx, hb); inv.State != lightning.InvoiceSettled {
			t.Fatalf("locked stake's invoice is %s, want SETTLED", inv.State)
		}
	}
	// A second Lock (a retry after a lost answer) changes nothing.
	if err := r.c.Lock(ctx, "m_1", "dilemma", seats); err != nil {
		t.Fatal(err)
	}
	res := games.Result{Standings: []games.Standing{{Seat: 2, Rank: 1}, {Seat: 1, Rank: 2}, {Seat: 3, Rank: 3}}}
	set, err := r.c.Settle(ctx, "m_1", res)
	if err != nil {
		t.Fatal(err)
	}
	if set.PotSats != 300 || set.RakeSats != 60 || len(set.Payouts) != 1 || set.Payouts[0] != (SeatPayout{Seat: 2, Sats: 240}) {
		t.Fatalf("settlement %+v", set)
	}
	r.check("settle")
	r.c.Wait()
	tot := r.check("payouts")
	got, n := r.pay.received(r.wallet)
	if n != 1 || got["userbb"] != 240 || tot.Payouts != 240 || tot.Rake != 60 || tot.Credited != 0 {
		t.Fatalf("received %v (%d payments), totals %+v", got, n, tot)
	}
	st, _ := r.led.State(ctx)
	if st.Units[Unit].House != 60 {
		t.Fatalf("house ledger %d", st.Units[Unit].House)
	}
	// Settle again (a retry): the same settlement, nothing paid twice.
	again, err := r.c.Settle(ctx, "m_1", res)
	r.c.Wait()
	if err != nil || again.RakeSats != 60 || len(again.Payouts) != 1 {
		t.Fatalf("settle again %+v %v", again, err)
	}
	if _, n := r.pay.received(r.wallet); n != 1 {
		t.Fatalf("%d payments after a second settle", n)
	}
	lines, err := r.c.Lines(ctx, "m_1")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, l := range lines {
		types = append(types, l.Type)
	}
	if strings.Join(types, ",") != "escrow_lock,escrow_lock,escrow_lock,rake_taken,payout" || lines[4].Sats != 240 || *lines[4].Seat != 2 || lines[3].Sats != 60 {
		t.Fatalf("money lines %v %+v", types, lines)
	}
	ag, err := r.c.Agent(ctx, "bb")
	if err != nil || ag.StakedIn != 100 || ag.PaidOut != 240 || ag.Credited != 0 || len(ag.Entries) != 2 {
		t.Fatalf("agent ledger %+v %v", ag, err)
	}
	// A stake carries no time of its own: its entry has no "t" rather than the zero instant; the
	// payout carries when it was paid.
	for _, e := range ag.Entries {
		b, _ := json.Marshal(e)
		switch {
		case e.Kind == "stake" && strings.Contains(string(b), `"t"`):
			t.Errorf("stake entry %s", b)
		case e.Kind == "payout" && (e.At.IsZero() || !strings.Contains(string(b), `"t":"`+e.At.Format(time.RFC3339Nano))):
			t.Errorf("payout entry %s", b)
		}
	}
}

// TestSplitRule: the payout rule's sums, ties, no winner, abandoned.
func TestSplitRule(t *testing.T) {
	for _, tc := range []struct {
		stake     int64
		bps       int
		ranks     []int
		abandoned bool
		rake      int64
		pays      []int64
	}{
		{100, 2000, []int{2, 1, 3}, false, 60, []int64{0, 240, 0}},
		{10, 2000, []int{1, 1, 3}, false, 6, []int64{12, 12, 0}},
		{10, 2000, []int{1, 1, 1}, false, 6, []int64{8, 8, 8}},
		{10, 2000, []int{0, 0, 0}, false, 6, []int64{8, 8, 8}},
		{1000, 2000, []int{1, 2, 3, 4, 5, 6}, false, 1200, []int64{4800, 0, 0, 0, 0, 0}},
		{100, 2000, []int{1, 2, 3}, true, 0, []int64{100, 100, 100}},
		{100, 0, []int{1, 1, 1}, false, 0, []int64{100, 100, 100}},
	} {
		rake, pays := Split(tc.stake, tc.bps, tc.ranks, tc.abandoned)
		sum := rake
		for _, p := range pays {
			sum += p
		}
		if rake != tc.rake || !equal(pays, tc.pays) || sum != tc.stake*int64(len(tc.ranks)) {
			t.Errorf("Split(%d, %d, %v, %v) = %d %v, want %d %v", tc.stake, tc.bps, tc.ranks, tc.abandoned, rake, pays, tc.rake, tc.pays)
		}
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRefunds: a held stake refunded for no_table, left and idle comes back in full (the invoice
// cancelled: the payer's held HTLC returns); a refund asked again answers the same sats and
// writes nothing; an unpaid invoice's refund is 0 and cancels it; a staked one is refused.
func TestRefunds(t *testing.T) {
	r := newRig(t, Options{})
	ctx := context.Background()
	for _, reason := range []string{"no_table", "left", "idle"} {
		hash := r.stake("k"+reason, 10)
		if _, err := r.c.Paid(ctx, "k"+reason, hash, r.pay.addr("x")); err != nil {
			t.Fatal(err)
		}
		r.check("paid")
		n, err := r.c.Refund(ctx, hash, reason)
		if err != nil || n != 10 {
			t.Fatalf("refund %s: %d %v", reason, n, err)
		}
		r.check("refund " + reason)
		if n, err := r.c.Refund(ctx, hash, reason); err != nil || n != 10 {
			t.Fatalf("refund again: %d %v", n, err)
		}
		hb, _ := parseHash(hash)
		if inv, _ := r.wallet.LookupInvoice(ctx, hb); inv.State != lightning.InvoiceCanceled {
			t.Fatalf("refunded invoice %s", inv.State)
		}
		// paid after a refund: the stake is gone, join again
		if _, err := r.c.Paid(ctx, "k"+reason, hash, r.pay.addr("x")); codeOf(err) != CodePaymentExpired {
			t.Fatalf("paid after refund: %v", err)
		}
	}
	if tot := r.check("refunds"); tot.StakesIn != 30 || tot.Refunds != 30 || tot.Held != 0 {
		t.Fatalf("totals %+v", tot)
	}
	inv, _ := r.c.Invoice(ctx, "kz", "dilemma", 10)
	if n, err := r.c.Refund(ctx, inv.PaymentHash, "left"); err != nil || n != 0 {
		t.Fatalf("unpaid refund %d %v", n, err)
	}
	hash := r.stake("ks", 10)
	r.c.Paid(ctx, "ks", hash, r.pay.addr("x"))
	hash2 := r.stake("kt", 10)
	r.c.Paid(ctx, "kt", hash2, r.pay.addr("x"))
	if err := r.c.Lock(ctx, "m_s", "dilemma", []Seat{{1, hash}, {2, hash2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.c.Refund(ctx, hash, "left"); codeOf(err) != CodeWalletError {
		t.Fatalf("refund of a staked stake: %v", err)
	}
	r.check("end")
}

// TestPaidRefusals: every code a paid join and a paid message can answer, none changing money.
func TestPaidRefusals(t *testing.T) {
	r := newRig(t, Options{MaxEscrow: 150})
	ctx := context.Background()
	if _, err := r.c.Invoice(ctx, "k", "dilemma", 7); codeOf(err) != CodeBadStake {
		t.Fatalf("bad stake: %v", err)
	}
	inv, err := r.c.Invoice(ctx, "k", "dilemma", 100)
	if err != nil || inv.RakeBps != 2000 || inv.ExpiresIn != 2*time.Minute || !strings.HasPrefix(inv.Bolt11, "lnbcrt1u1") {
		t.Fatalf("invoice %+v %v", inv, err)
	}
	if _, err := r.c.Paid(ctx, "k", inv.PaymentHash, r.pay.addr("k")); codeOf(err) != CodeNotPaid {
		t.Fatalf("not paid: %v", err)
	}
	if _, err := r.c.Paid(ctx, "other", inv.PaymentHash, r.pay.addr("k")); codeOf(err) != CodeUnknownPayment {
		t.Fatalf("another key's: %v", err)
	}
	if _, err := r.c.Paid(ctx, "k", strings.Repeat("0", 64), r.pay.addr("k")); codeOf(err) != CodeUnknownPayment {
		t.Fatalf("unknown hash: %v", err)
	}
	if _, err := r.c.Paid(ctx, "k", "XYZ", r.pay.addr("k")); codeOf(err) != CodeUnknownPayment {
		t.Fatalf("malformed hash: %v", err)
	}
	r.wallet.PayInvoice(inv.Bolt11)
	for _, bad := range []string{"", "nobody", "a@b@c", "UPPER@example.com", "x@", "@example.com"} {
		if _, err := r.c.Paid(ctx, "k", inv.PaymentHash, bad); codeOf(err) != CodeBadPayoutAddress {
			t.Fatalf("payout address %q: %v", bad, err)
		}
	}
	r.check("refusals")
	h, err := r.c.Paid(ctx, "k", inv.PaymentHash, r.pay.addr("k"))
	if err != nil || h.Dup {
		t.Fatal(err)
	}
	// a replayed paid: the same stake, Dup, nothing received twice
	h2, err := r.c.Paid(ctx, "k", inv.PaymentHash, r.pay.addr("k"))
	if err != nil || !h2.Dup || h2.Lnaddr != r.pay.addr("k") {
		t.Fatalf("replay %+v %v", h2, err)
	}
	if tot := r.check("replay"); tot.StakesIn != 100 {
		t.Fatalf("replay counted twice: %+v", tot)
	}
	if _, err := r.c.Invoice(ctx, "j", "dilemma", 100); codeOf(err) != CodeEscrowFull {
		t.Fatalf("escrow full: %v", err)
	}
	late, _ := r.c.Invoice(ctx, "l", "dilemma", 10)
	r.advance(2 * time.Minute)
	if _, err := r.c.Paid(ctx, "l", late.PaymentHash, r.pay.addr("l")); codeOf(err) != CodePaymentExpired {
		t.Fatalf("expired: %v", err)
	}
	if _, err := r.wallet.PayInvoice(late.Bolt11); err == nil {
		t.Fatal("the dev wallet paid an expired invoice")
	}
	r.check("end")
}

// TestPayoutAddressFailures: a payout to an unreachable service is retried Attempts times then
// payout_failed (credited, final); one whose maxSendable refuses the amount and one on a private
// address (the production egress policy) fail at once; the sats stay credited in the agent's
// ledger, the invariant holds; the operator's Retry pays once the service is back.
func TestPayoutAddressFailures(t *testing.T) {
	var slept []time.Duration
	r := newRig(t, Options{Attempts: 3, Backoff: time.Second, Sleep: func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	}})
	ctx := context.Background()
	play := func(match, user string, addr string) {
		t.Helper()
		var seats []Seat
		for i, k := range []string{match + "a", match + "b"} {
			lnaddr := addr
			if i == 1 {
				lnaddr = r.pay.addr("loser")
			}
			hash := r.stake(k, 10)
			if _, err := r.c.Paid(ctx, k, hash, lnaddr); err != nil {
				t.Fatal(err)
			}
			seats = append(seats, Seat{i + 1, hash})
		}
		if err := r.c.Lock(ctx, match, "dilemma", seats); err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Settle(ctx, match, games.Result{Standings: []games.Standing{{Seat: 1, Rank: 1}, {Seat: 2, Rank: 2}}}); err != nil {
			t.Fatal(err)
		}
		r.c.Wait()
		r.check(match)
	}
	// unreachable: nothing listens there
	play("m_unreach", "u", "nobody@127.0.0.1:1")
	lines, _ := r.c.Lines(ctx, "m_unreach")
	last := lines[len(lines)-1]
	if last.Type != "payout_failed" || last.Sats != 16 || len(slept) != 2 || slept[0] != time.Second || slept[1] != 2*time.Second {
		t.Fatalf("unreachable: %+v, slept %v", last, slept)
	}
	ag, _ := r.c.Agent(ctx, "m_unreacha")
	if ag.Credited != 16 || ag.PaidOut != 0 {
		t.Fatalf("credited %+v", ag)
	}
	// limits refuse the amount: final at once
	slept = nil
	r.pay.mu.Lock()
	r.pay.max["small"] = 5000
	r.pay.mu.Unlock()
	play("m_limit", "small", r.pay.addr("small"))
	lines, _ = r.c.Lines(ctx, "m_limit")
	if last := lines[len(lines)-1]; last.Type != "payout_failed" || !strings.Contains(last.Reason, "takes 1000..5000 msat") || len(slept) != 0 {
		t.Fatalf("limits: %+v slept %v", last, slept)
	}
	if tot := r.check("failures"); tot.Credited != 32 || tot.Rake != 8 {
		t.Fatalf("totals %+v", tot)
	}
	// the operator's retry, once the service takes it
	r.pay.mu.Lock()
	delete(r.pay.max, "small")
	r.pay.mu.Unlock()
	if n, err := r.c.Retry(ctx, "m_limit"); err != nil || n != 1 {
		t.Fatalf("retry %d %v", n, err)
	}
	r.c.Wait()
	got, _ := r.pay.received(r.wallet)
	if tot := r.check("retry"); got["small"] != 16 || tot.Credited != 16 || tot.Payouts != 16 {
		t.Fatalf("after retry: %v %+v", got, tot)
	}

	// private: the production policy refuses loopback
	prod := newRig(t, Options{Resolver: &lnurl.Resolver{Egress: egress.NewClient(egress.Policy{}), Currency: bolt11.Regtest}})
	var seats []Seat
	for i, k := range []string{"p1", "p2"} {
		hash := prod.stake(k, 10)
		if _, err := prod.c.Paid(ctx, k, hash, "me@127.0.0.1"); err != nil {
			t.Fatal(err)
		}
		seats = append(seats, Seat{i + 1, hash})
	}
	prod.c.Lock(ctx, "m_p", "dilemma", seats)
	prod.c.Settle(ctx, "m_p", games.Result{Standings: []games.Standing{{Seat: 1, Rank: 1}}})
	prod.c.Wait()
	lines, _ = prod.c.Lines(ctx, "m_p")
	if last := lines[len(lines)-1]; last.Type != "payout_failed" || !strings.Contains(last.Reason, "bad payout address") {
		t.Fatalf("private: %+v", last)
	}
	prod.check("private")
}

// TestAbandonedMatchRefundsInFull: an abandoned paid match pays every stake back, no rake; the
// money lines say refund.
func TestAbandonedMatchRefundsInFull(t *testing.T) {
	r := newRig(t, Options{})
	ctx := context.Background()
	var seats []Seat
	for i, k := range []string{"a", "b", "c"} {
		hash := r.stake(k, 1000)
		r.c.Paid(ctx, k, hash, r.pay.addr(k))
		seats = append(seats, Seat{i + 1, hash})
	}
	r.c.Lock(ctx, "m_ab", "dilemma", seats)
	set, err := r.c.Settle(ctx, "m_ab", games.Result{Abandoned: "server_shutdown"})
	if err != nil || set.RakeSats != 0 || len(set.Payouts) != 3 {
		t.Fatalf("%+v %v", set, err)
	}
	r.c.Wait()
	got, _ := r.pay.received(r.wallet)
	if got["a"] != 1000 || got["b"] != 1000 || got["c"] != 1000 {
		t.Fatalf("received %v", got)
	}
	lines, _ := r.c.Lines(ctx, "m_ab")
	if lines[len(lines)-1].Type != "refund" {
		t.Fatalf("%+v", lines)
	}
	r.check("abandoned")
}
