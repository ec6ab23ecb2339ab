package main

import (
	"strings"
	"testing"
	"time"
)

// mcpPaidJoin joins the Dilemma at stake through /mcp: payment_required with the invoice and a
// session for confirm_payment; answers it.
func mcpPaidJoin(t *testing.T, r *mcpRig, stake int64) map[string]any {
	t.Helper()
	_, isErr, pr := r.call(t, "/mcp", "join_game", map[string]any{"game": "dilemma", "stake_sats": stake})
	if isErr || pr["type"] != "payment_required" || pr["stake_sats"] != float64(stake) || pr["rake_bps"] != float64(2000) ||
		!strings.HasPrefix(pr["bolt11"].(string), "lnbcrt") || len(pr["payment_hash"].(string)) != 64 ||
		!strings.HasPrefix(pr["session"].(string), "pay_") || len(pr["secret_key"].(string)) != 64 {
		t.Fatalf("paid join_game: %v", pr)
	}
	return pr
}

// TestBreakroomPaidMCPMatchOnTheDevWallet: three agents join the Dilemma at 100 sats through
// /mcp (join_game with stake_sats: payment_required with the invoice and a session); a
// confirm_payment before paying is not_paid; each pays through the dev wallet's route
// (POST /dev/lightning/pay) and confirm_payment answers queued with the session for
// wait_for_turn; they play the match out over the tools; its settlement splits the 300-sat pot;
// the invariant holds after every step, nothing is left held or in a pot, the payouts are paid.
func TestBreakroomPaidMCPMatchOnTheDevWallet(t *testing.T) {
	p := newPaidSite(t, time.Hour, time.Hour)
	r := &mcpRig{srv: p.srv}
	var sessions []string
	for i := range 3 {
		pr := mcpPaidJoin(t, r, 100)
		args := map[string]any{"session": pr["session"], "payment_hash": pr["payment_hash"], "payout_lnaddr": p.payees.addr("m" + string(rune('a'+i)))}
		_, isErr, np := r.call(t, "/mcp", "confirm_payment", args)
		refusedWith(t, "confirm before paying", isErr, np, "not_paid")
		p.check(t, "not_paid")
		p.payDev(t, pr["bolt11"].(string))
		_, isErr, q := r.call(t, "/mcp", "confirm_payment", args)
		if isErr || q["type"] != "queued" || q["session"] == "" || q["session"] == pr["session"] {
			t.Fatalf("confirm_payment: %v", q)
		}
		p.check(t, "queued")
		// the paid session is spent: confirming again is unauthorized, nothing received twice
		_, isErr, again := r.call(t, "/mcp", "confirm_payment", args)
		refusedWith(t, "confirm again", isErr, again, "unauthorized")
		sessions = append(sessions, q["session"].(string))
	}
	if tot := p.check(t, "all queued"); tot.StakesIn != 300 {
		t.Fatalf("totals %+v, want 300 in", tot)
	}
	ends := make([]map[string]any, len(sessions))
	done := make(chan int)
	for i, s := range sessions {
		go func() {
			defer func() { done <- i }() // playOut's Fatalf ends this goroutine: ends[i] stays nil
			end, _, _ := r.playOut(t, "/mcp", s)
			ends[i] = end
		}()
	}
	for range sessions {
		<-done
	}
	for _, end := range ends {
		if end == nil {
			t.Fatal("a seat did not reach match_end")
		}
	}
	me, _ := ends[0]["match_end"].(map[string]any)
	set, _ := me["settlement"].(map[string]any)
	if set == nil || set["pot_sats"] != float64(300) {
		t.Fatalf("match_end settlement: %v", ends[0])
	}
	p.room.Cashier().Wait()
	tot := p.check(t, "payouts")
	if tot.StakesIn != 300 || tot.Held != 0 || tot.InPots != 0 || tot.Credited != 0 || tot.Payouts+tot.Rake != 300 || tot.Payouts == 0 {
		t.Fatalf("totals %+v", tot)
	}
}

// TestBreakroomPaidMCPRefusesAsHTTP: the same bad paid inputs sent to POST /v0/join and
// /v0/paid and to join_game and confirm_payment answer the same codes: a stake no tier
// (bad_stake), a payment hash that is no hash, one of no invoice (unknown_payment), a payout
// address that is none (bad_payout_address), an empty one, an unpaid invoice (not_paid); after
// them the invariant holds and nothing was received.
func TestBreakroomPaidMCPRefusesAsHTTP(t *testing.T) {
	p := newPaidSite(t, time.Hour, time.Hour)
	r := &mcpRig{srv: p.srv}
	k := newBrKey(71)
	if st, m := p.do(t, "POST", "/v0/join", "", p.signed(t, k, map[string]any{"game": "dilemma", "stake_sats": 7})); st != 400 || m["code"] != "bad_stake" {
		t.Fatalf("http bad stake: %d %v", st, m)
	}
	_, isErr, m := r.call(t, "/mcp", "join_game", map[string]any{"game": "dilemma", "stake_sats": 7})
	refusedWith(t, "mcp bad stake", isErr, m, "bad_stake")

	hpr := p.paidJoin(t, k, 100)
	mpr := mcpPaidJoin(t, r, 100)
	good := p.payees.addr("x")
	cases := []struct {
		name         string
		hash, lnaddr func(pr map[string]any) string
		want         string
	}{
		{"no hash", func(map[string]any) string { return "zz" }, func(map[string]any) string { return good }, ""},
		{"empty hash", func(map[string]any) string { return "" }, func(map[string]any) string { return good }, ""},
		{"unknown", func(map[string]any) string { return strings.Repeat("0", 64) }, func(map[string]any) string { return good }, "unknown_payment"},
		{"bad lnaddr", func(pr map[string]any) string { return pr["payment_hash"].(string) }, func(map[string]any) string { return "nobody" }, "bad_payout_address"},
		{"empty lnaddr", func(pr map[string]any) string { return pr["payment_hash"].(string) }, func(map[string]any) string { return "" }, ""},
		{"unpaid", func(pr map[string]any) string { return pr["payment_hash"].(string) }, func(map[string]any) string { return good }, "not_paid"},
	}
	for _, c := range cases {
		_, hm := p.do(t, "POST", "/v0/paid", "", p.signed(t, k, map[string]any{"payment_hash": c.hash(hpr), "payout_lnaddr": c.lnaddr(hpr)}))
		_, isErr, mm := r.call(t, "/mcp", "confirm_payment", map[string]any{"session": mpr["session"], "payment_hash": c.hash(mpr), "payout_lnaddr": c.lnaddr(mpr)})
		code, _ := hm["code"].(string)
		if code == "" || (c.want != "" && code != c.want) {
			t.Fatalf("%s: http answered %v, want %q", c.name, hm, c.want)
		}
		refusedWith(t, c.name+" over mcp (http: "+code+")", isErr, mm, code)
		p.check(t, c.name)
	}
	if tot := p.check(t, "end"); tot.StakesIn != 0 {
		t.Fatalf("refusals received money: %+v", tot)
	}
}
