package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/chain/x402"
	"arena/storage"
)

// num reads a JSON number member as int64 (0 when absent).
func num(m map[string]any, k string) int64 {
	f, _ := m[k].(float64)
	return int64(f)
}

// standing is a Contender's Standing as GET /v1/warden/contenders/{id} serves it.
func (r *payRig) standing(c contender) map[string]any {
	r.t.Helper()
	_, o := r.w.must("GET", "/v1/warden/contenders/"+c.wallet.String(), "", nil, nil, 200)
	s, _ := o["standing"].(map[string]any)
	if s == nil {
		r.t.Fatalf("no standing in %v", o)
	}
	return s
}

// wantTier is §13's tier for one settled match with net and result, the default bars (ELITE: a
// win rate of at least 60 % over at least 1 match with a positive net; SOLVENT: net ≥ 0).
func wantTier(net int64, result string) string {
	switch {
	case result == "win" && net > 0:
		return storage.TierElite
	case net >= 0:
		return storage.TierSolvent
	}
	return storage.TierUnderwater
}

// TestWardenGameIPaysOutOnChain: a whole Game I (warden.claims, five rounds) through a real
// `arena serve` on geth --dev with both stakes paid by x402 for real. Each round A sends a
// message in round 1 and passes after, claims its valuation and asks half of it escalating
// round−1 steps; B passes, claims 1 500 bps above its valuation (a bluff, capped at 10 000)
// and asks its whole valuation escalating 2. The seed is the server's own, so the figures are
// the engine's settlement (GET …/me) checked for consistency: Σ gross + house before rake = 2S,
// each seat's rake 5 % of its winnings, paid_out = gross − rake. Then: no Ledger row before the
// match is SETTLED, both rows carry the settlement and a payout hash, each Contender holds
// exactly its row's paid_out on chain, the Warden's wallet keeps the house's share with the
// rake, wardenpay.Audit holds, and each Standing moves from UNPROVEN to what §13 gives.
func TestWardenGameIPaysOutOnChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev")
	}
	r := newPayRig(t)
	a, b := r.w.register(0x4a), r.w.register(0x4b)
	for _, c := range []contender{a, b} {
		if s := r.standing(c); s["tier"] != storage.TierUnproven || num(s, "matches") != 0 {
			t.Fatalf("standing before play: %v", s)
		}
		r.chain.Mint(t, c.wallet, wardenTestStake)
	}
	_, o := r.w.must("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.claims", "stake": wardenTestStake}, nil, 201)
	id := o["match_id"].(string)
	r.w.must("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil, 200)
	for i, c := range []contender{a, b} {
		r.w.must("POST", "/v1/warden/matches/"+id+"/stake", c.token, nil, r.w.payment(c, id, r.chain.ID, byte(i+1)), 200)
	}
	r.until(id, "LIVE")

	seats := []contender{a, b}
	me := func(i int, after int64, wait int) map[string]any {
		_, v := r.w.must("GET", fmt.Sprintf("/v1/warden/matches/%s/me?after=%d&wait=%d", id, after, wait), seats[i].token, nil, nil, 200)
		return v
	}
	moves := 0
	var last map[string]any
	for end := time.Now().Add(3 * time.Minute); ; {
		if time.Now().After(end) {
			t.Fatalf("Game I not over in three minutes: %v", last)
		}
		acted := false
		for i := range 2 {
			v := me(i, 0, 0)
			last = v
			if v["status"] != "live" {
				break
			}
			st, _ := v["state"].(map[string]any)
			step, round := v["step"].(string), num(v, "round")
			if st == nil || st["you_acted"] == true {
				continue
			}
			val := num(st, "valuation_bps")
			var action string
			var args map[string]any
			switch step {
			case "message":
				action = "pass"
				if i == 0 && round == 1 {
					action, args = "message", map[string]any{"text": "I hold what I claim. Ask low and we both eat."}
				}
			case "claim":
				action, args = "claim", map[string]any{"claim_bps": val}
				if i == 1 {
					args["claim_bps"] = min(val+1500, 10000)
				}
			case "offer":
				action, args = "offer", map[string]any{"ask_bps": val / 2, "escalate": round - 1}
				if i == 1 {
					args = map[string]any{"ask_bps": val, "escalate": 2}
				}
			default:
				continue
			}
			body := map[string]any{"round": round, "action": action}
			if args != nil {
				body["args"] = args
			}
			_, out := r.w.must("POST", "/v1/warden/matches/"+id+"/actions", seats[i].token, body, nil, 200)
			if out["accepted"] != true {
				t.Fatalf("round %d %s seat %d: %v", round, action, i, out)
			}
			acted = true
			moves++
		}
		if last["status"] != "live" {
			break
		}
		if !acted { // both have acted, or a reveal pause: wait for the next change
			me(0, num(last, "last_seq"), 5000)
		}
	}
	if moves != 30 {
		t.Errorf("%d moves, want 30 (five rounds × three steps × two seats)", moves)
	}
	set, _ := last["settlement"].(map[string]any)
	if set == nil {
		t.Fatalf("no settlement once play ended: %v", last)
	}
	t.Logf("settlement %v", set)
	sa, _ := set["seats"].(map[string]any)
	fig := [2]map[string]any{sa["A"].(map[string]any), sa["B"].(map[string]any)}
	house, rakeBps := num(set, "house"), num(set, "rake_bps")
	if rakeBps != 500 {
		t.Errorf("rake_bps %d, want Game I's 500", rakeBps)
	}
	var gross, rake, paid int64
	for i, f := range fig {
		g, k, p := num(f, "gross_return"), num(f, "rake"), num(f, "paid_out")
		if want := max(0, g-wardenTestStake) * rakeBps / 10000; k != want || p != g-k || num(f, "net") != p-wardenTestStake {
			t.Errorf("seat %d: %v, want rake %d of its winnings and paid_out = gross − rake", i, f, want)
		}
		gross, rake, paid = gross+g, rake+k, paid+p
	}
	if gross+house-rake != 2*wardenTestStake || paid+house != 2*wardenTestStake {
		t.Fatalf("settlement %v: gross %d + house before rake %d ≠ 2S", set, gross, house-rake)
	}

	// The Ledger shows nothing until both payouts are confirmed: at the first head with rows,
	// both rows are there and both Contenders already hold their paid_out on chain.
	for end := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no Ledger row a minute after play ended")
		}
		if _, h := r.w.must("GET", "/v1/warden/ledger/head", "", nil, nil, 200); num(h, "seq") > 0 {
			if num(h, "seq") != 2 {
				t.Errorf("Ledger head %v, want both rows in one write", h)
			}
			for i, c := range []contender{a, b} {
				if got := r.chain.Balance(t, c.wallet); got != num(fig[i], "paid_out") {
					t.Errorf("a Ledger row while seat %d holds %d on chain, its paid_out %d", i, got, num(fig[i], "paid_out"))
				}
			}
			break
		}
	}
	r.until(id, "SETTLED")
	for i, c := range []contender{a, b} {
		if got := r.chain.Balance(t, c.wallet); got != num(fig[i], "paid_out") {
			t.Errorf("seat %d holds %d on chain, its paid_out is %d", i, got, num(fig[i], "paid_out"))
		}
		s := r.standing(c)
		net, res := num(fig[i], "net"), fig[i]["result"].(string)
		if s["tier"] != wantTier(net, res) || num(s, "matches") != 1 || num(s, "net_total") != net ||
			num(s, "wins")+num(s, "draws")+num(s, "losses") != 1 || (res == "win") != (num(s, "wins") == 1) {
			t.Errorf("seat %d standing %v after a %s with net %d", i, s, res, net)
		}
	}
	bk := r.audit(map[x402.Address]int64{a.wallet: wardenTestStake, b.wallet: wardenTestStake})
	if bk.StakesIn != 2*wardenTestStake || bk.PaidOut != paid || bk.House != house || bk.Refunded != 0 {
		t.Fatalf("books %+v, want stakes %d paid %d house %d", bk, 2*wardenTestStake, paid, house)
	}
	if got := r.chain.Balance(t, r.wallet); got != house {
		t.Errorf("the Warden's wallet keeps %d, want the house's %d (rake %d in it)", got, house, rake)
	}
	st, err := storage.Open(filepath.Join(r.data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.WardenMatch(id)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		f := fig[i]
		if row.Game != "warden.claims" || row.GrossReturn != num(f, "gross_return") || row.Rake != num(f, "rake") ||
			row.PaidOut != num(f, "paid_out") || row.Net != num(f, "net") || row.Result != f["result"] ||
			(row.PaidOut > 0) != (row.PayoutRef != nil) || row.SettledAt == "" || row.Stake != wardenTestStake {
			t.Errorf("row %d %+v, settlement %v", i, row, f)
		}
		if row.PayoutRef != nil {
			var hh [32]byte
			if raw, err := hex.DecodeString(strings.TrimPrefix(*row.PayoutRef, "0x")); err != nil || len(raw) != 32 {
				t.Errorf("row %d payout_ref %q", i, *row.PayoutRef)
			} else if copy(hh[:], raw); true {
				if _, mined, err := r.chain.Client.TransactionReceipt(context.Background(), hh); err != nil || !mined {
					t.Errorf("row %d payout %s not mined: %v", i, *row.PayoutRef, err)
				}
			}
		}
	}
	if rows[0].HouseShare+rows[1].HouseShare != house {
		t.Errorf("house shares %d + %d, want %d", rows[0].HouseShare, rows[1].HouseShare, house)
	}
}
