package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/breakroom/cashier"
	"arena/actors/ledger"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
	"arena/chain/lightning/lnurl"
	"arena/storage"
)

// brCall is one request to a child serve's Break Room site (Host breakroom.localhost).
func brCall(t *testing.T, base, method, path, body string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Host = "breakroom.localhost"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// brSigned is fields signed over a fresh challenge of the child serve.
func brSigned(t *testing.T, base string, k brKey, fields map[string]any) string {
	t.Helper()
	_, ch := brCall(t, base, "GET", "/v0/challenge", "")
	nonce, _ := ch["nonce"].(string)
	fields["author_pubkey"], fields["nonce"], fields["sig"] = k.pub, nonce, k.sign(nonce)
	b, _ := json.Marshal(fields)
	return string(b)
}

// TestBreakroomPaidStakesSurviveKill9: a real `arena serve` on its development wallet; one agent
// pays its stake and is queued (alone: a paid table needs three), another pays its invoice but
// the server is killed (SIGKILL) before its paid arrives. The server comes back on the same data:
// the queued stake is refunded in full (queues are memory; the ledger is not), the unrecorded one
// was never taken, nothing is counted twice, and the paid tables' invariant holds on the stored
// ledger; the first agent's paid replayed after the restart is auth_failed (its nonce was spent).
func TestBreakroomPaidStakesSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: kills and restarts the binary")
	}
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	args := append(append([]string{}, breakroomFast...), "--addr", freeAddr(t))
	s := startServeArgs(t, bin, data, args, nil)
	queued, unrecorded := newBrKey(71), newBrKey(72)
	var paidBody string
	for i, k := range []brKey{queued, unrecorded} {
		st, pr := brCall(t, s.url, "POST", "/v0/join", brSigned(t, s.url, k, map[string]any{"game": "dilemma", "stake_sats": 100}))
		if st != 402 || pr["type"] != "payment_required" {
			t.Fatalf("paid join: %d %v", st, pr)
		}
		if st, m := brCall(t, s.url, "POST", devwallet.PayPath, `{"bolt11":"`+pr["bolt11"].(string)+`"}`); st != 200 || m["state"] != "ACCEPTED" {
			t.Fatalf("dev pay: %d %v", st, m)
		}
		if i == 1 {
			break // paid at the wallet; the server dies before its paid
		}
		paidBody = brSigned(t, s.url, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": "agent@wallet.example"})
		if st, q := brCall(t, s.url, "POST", "/v0/paid", paidBody); st != 200 || q["type"] != "queued" || q["waiting_here"].(float64) != 1 {
			t.Fatalf("paid: %d %v", st, q)
		}
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()

	s2 := startServeArgs(t, bin, data, args, nil)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s2.logs.String(), "breakroom paid tables resumed") {
		if time.Now().After(deadline) {
			t.Fatalf("no resume within 30 s; logs:\n%s", s2.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, m := brCall(t, s2.url, "POST", "/v0/paid", paidBody); st != 401 || m["code"] != "auth_failed" {
		t.Fatalf("the replayed paid after the restart: %d %v", st, m)
	}
	s2.stop()

	store, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	defer sys.Shutdown()
	led, err := ledger.Start(sys, store, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := devwallet.New(devwallet.Options{})
	c, err := cashier.New(cashier.Options{Ledger: led, Wallet: w, Currency: bolt11.Regtest, Resolver: &lnurl.Resolver{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tot, err := c.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tot.StakesIn != 100 || tot.Refunds != 100 || tot.Held != 0 || tot.InPots != 0 {
		t.Fatalf("after the crash: %+v (want the queued stake in and refunded, the unrecorded one never taken)", tot)
	}
	ag, err := c.Agent(ctx, queued.pub)
	if err != nil || ag.StakedIn != 100 || ag.Refunded != 100 {
		t.Fatalf("the queued agent's ledger %+v %v", ag, err)
	}
	if ag, _ := c.Agent(ctx, unrecorded.pub); ag.StakedIn != 0 {
		t.Fatalf("the unrecorded stake was taken: %+v", ag)
	}
}

// TestBreakroomPaidMatchSurvivesKill9: three agents pay 10-sat stakes to a real `arena serve` on
// its development wallet and sit at a paid Dilemma; the server is killed (SIGKILL) mid-match and
// comes back on the same data; the agents join again (signed joins without a stake: the
// reconnect), are re-seated and play it out; match_end carries the settlement; each winner's
// payout invoice is fetched from its Lightning address once (nothing paid twice), and the stored
// ledger's invariant holds with every payout paid.
func TestBreakroomPaidMatchSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: kills and restarts the binary mid-match")
	}
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	args := append(append([]string{}, breakroomFast...), "--addr", freeAddr(t))
	s := startServeArgs(t, bin, data, args, nil)
	svc := newLNService(t)
	keys := []brKey{newBrKey(81), newBrKey(82), newBrKey(83)}
	tokens := make([]string, 3)
	for i, k := range keys {
		st, pr := brCall(t, s.url, "POST", "/v0/join", brSigned(t, s.url, k, map[string]any{"game": "dilemma", "stake_sats": 10}))
		if st != 402 {
			t.Fatalf("paid join: %d %v", st, pr)
		}
		brCall(t, s.url, "POST", devwallet.PayPath, `{"bolt11":"`+pr["bolt11"].(string)+`"}`)
		st, q := brCall(t, s.url, "POST", "/v0/paid", brSigned(t, s.url, k, map[string]any{"payment_hash": pr["payment_hash"], "payout_lnaddr": svc.addr(k.pub[:8])}))
		if st != 200 || q["type"] != "queued" {
			t.Fatalf("paid: %d %v", st, q)
		}
		tokens[i] = q["token"].(string)
	}
	match := ""
	for match == "" {
		_, m := brCall(t, s.url, "GET", "/v0/join/"+tokens[0]+"?wait=2000", "")
		if m["type"] == "seated" {
			match = m["match_id"].(string)
		}
	}
	bearer := func(base, method, path, tok, body string) (int, map[string]any) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Host = "breakroom.localhost"
		req.Header.Set("Authorization", "Bearer "+tok)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m
	}
	// play until every agent has moved once, then kill
	play := func(base string, toks []string, stopAfter int) []map[string]any {
		ends := make([]map[string]any, len(toks))
		moves := 0
		deadline := time.Now().Add(120 * time.Second)
		for n := 0; ; n++ {
			if time.Now().After(deadline) {
				t.Fatal("the match did not end")
			}
			done := 0
			for i, tok := range toks {
				_, st := bearer(base, "GET", "/v0/matches/"+match+"/state", tok, "")
				switch st["status"] {
				case "ended":
					ends[i], _ = st["match_end"].(map[string]any)
					done++
				case "your_turn":
					mv, _ := json.Marshal(map[string]any{"round": st["round"], "turn": st["turn"], "action": []string{"cooperate", "defect"}[(i+n)%2]})
					if code, _ := bearer(base, "POST", "/v0/matches/"+match+"/move", tok, string(mv)); code == 200 {
						moves++
					}
				}
			}
			if done == len(toks) || (stopAfter > 0 && moves >= stopAfter) {
				return ends
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	play(s.url, tokens, 3)
	if _, st := bearer(s.url, "GET", "/v0/matches/"+match+"/state", tokens[0], ""); st["status"] == "ended" {
		t.Fatalf("the match ended before the kill: %v", st)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	s2 := startServeArgs(t, bin, data, args, nil)
	for i, k := range keys {
		var seated map[string]any
		for seated == nil {
			_, m := brCall(t, s2.url, "POST", "/v0/join", brSigned(t, s2.url, k, map[string]any{"game": "dilemma"}))
			if m["type"] == "seated" {
				seated = m
			} else {
				time.Sleep(50 * time.Millisecond)
			}
		}
		if seated["match_id"] != match || seated["stake_sats"].(float64) != 10 {
			t.Fatalf("re-seated %v, want the paid match %s", seated, match)
		}
		tokens[i] = seated["token"].(string)
	}
	ends := play(s2.url, tokens, 0)
	set, _ := ends[0]["settlement"].(map[string]any)
	if set == nil || set["pot_sats"].(float64) != 30 {
		t.Fatalf("match_end after the restart: %v", ends[0])
	}
	var paid int64
	for _, po := range set["payouts"].([]any) {
		paid += int64(po.(map[string]any)["sats"].(float64))
	}
	// The payouts go out in the background: wait for the log's payout lines.
	for {
		_, _, log := getRawHost(t, s2.url, "/r/"+match+".jsonl")
		if strings.Count(log, `"type":"payout"`) == len(set["payouts"].([]any)) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	s2.stop()
	svc.mu.Lock()
	fetched := len(svc.issued)
	svc.mu.Unlock()
	if fetched != len(set["payouts"].([]any)) {
		t.Fatalf("%d payout invoices fetched for %d payouts", fetched, len(set["payouts"].([]any)))
	}
	store, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	defer sys.Shutdown()
	led, err := ledger.Start(sys, store, ledger.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := devwallet.New(devwallet.Options{})
	c, _ := cashier.New(cashier.Options{Ledger: led, Wallet: w, Currency: bolt11.Regtest, Resolver: &lnurl.Resolver{}})
	tot, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tot.StakesIn != 30 || tot.Payouts != paid || tot.Rake != 30-paid || tot.Credited != 0 || tot.Refunds != 0 {
		t.Fatalf("the stored ledger %+v, the settlement %v", tot, set)
	}
}

// getRawHost is GET path on a child serve's Break Room site.
func getRawHost(t *testing.T, base, path string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}
