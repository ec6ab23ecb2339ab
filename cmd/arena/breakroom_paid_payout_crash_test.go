package main

import (
	"context"
	"encoding/hex"
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

// brBearer is one request to a child serve's Break Room site with a seat's bearer token; a
// connection error answers 0.
func brBearer(base, method, path, tok, body string) (int, map[string]any) {
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

// brPlayOut plays match to its end for every seat's token (each takes its turn as it comes,
// cooperating and defecting by turns) and answers each seat's match_end.
func brPlayOut(t *testing.T, base, match string, toks []string) []map[string]any {
	t.Helper()
	ends := make([]map[string]any, len(toks))
	deadline := time.Now().Add(120 * time.Second)
	for n := 0; ; n++ {
		if time.Now().After(deadline) {
			t.Fatal("the match did not end")
		}
		done := 0
		for i, tok := range toks {
			_, st := brBearer(base, "GET", "/v0/matches/"+match+"/state", tok, "")
			switch st["status"] {
			case "ended":
				ends[i], _ = st["match_end"].(map[string]any)
				done++
			case "your_turn":
				mv, _ := json.Marshal(map[string]any{"round": st["round"], "turn": st["turn"], "action": []string{"cooperate", "defect"}[(i+n)%2]})
				brBearer(base, "POST", "/v0/matches/"+match+"/move", tok, string(mv))
			}
		}
		if done == len(toks) {
			return ends
		}
		time.Sleep(20 * time.Millisecond) // a poll interval, not a sync: the loop ends on "ended"
	}
}

// storedTotals is the paid tables' invariant checked on a stopped server's stored ledger
// (cashier.Check: stakes in = payouts + refunds + rake + credited-but-unpaid + held + in pots).
func storedTotals(t *testing.T, data string) cashier.Totals {
	t.Helper()
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
	tot, err := c.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tot
}

// TestBreakroomPaidPayoutSurvivesKill9: three agents pay 10-sat stakes to a real `arena serve` on
// its development wallet and play a paid Dilemma to match_end. The winners' Lightning-address
// service holds its invoice fetch unanswered, so the server is killed (SIGKILL) with the
// settlement durable and no payout made: the match log then has the settlement (rake_taken) and
// no payout line, and the stored ledger holds every winner's sats credited, none paid. The server
// comes back on the same data and pays each payout once: one invoice fetched per payout after
// the restart (the held fetch never answered), each payout line naming a distinct invoice the
// service issued, and the stored ledger balanced with every payout paid and nothing credited.
func TestBreakroomPaidPayoutSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: kills and restarts the binary between settlement and payout")
	}
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	args := append(append([]string{}, breakroomFast...), "--addr", freeAddr(t))
	s := startServeArgs(t, bin, data, args, nil)
	svc := newLNService(t)
	svc.holdCallbacks(true)
	keys := []brKey{newBrKey(91), newBrKey(92), newBrKey(93)}
	tokens := make([]string, 3)
	for i, k := range keys {
		st, pr := brCall(t, s.url, "POST", "/v0/join", brSigned(t, s.url, k, map[string]any{"game": "dilemma", "stake_sats": 10}))
		if st != 402 {
			t.Fatalf("paid join: %d %v", st, pr)
		}
		if st, m := brCall(t, s.url, "POST", devwallet.PayPath, `{"bolt11":"`+pr["bolt11"].(string)+`"}`); st != 200 || m["state"] != "ACCEPTED" {
			t.Fatalf("dev pay: %d %v", st, m)
		}
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
	ends := brPlayOut(t, s.url, match, tokens)
	set, _ := ends[0]["settlement"].(map[string]any)
	if set == nil || set["pot_sats"].(float64) != 30 {
		t.Fatalf("match_end: %v", ends[0])
	}
	payouts := set["payouts"].([]any)
	var paid int64
	for _, po := range payouts {
		paid += int64(po.(map[string]any)["sats"].(float64))
	}
	if len(payouts) == 0 || paid == 0 {
		t.Fatalf("a settlement with nothing to pay: %v", set)
	}
	select {
	case <-svc.arrived:
	case <-time.After(60 * time.Second):
		t.Fatalf("no payout invoice fetched within 60 s; logs:\n%s", s.logs)
	}
	// The fetch is held: the settlement is durable and no payout has been made.
	_, _, log := getRawHost(t, s.url, "/r/"+match+".jsonl")
	if !strings.Contains(log, `"type":"rake_taken"`) || strings.Contains(log, `"type":"payout"`) {
		t.Fatalf("the money lines with the payout held:\n%s", log)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	svc.mu.Lock()
	blocked, issued := svc.blocked, svc.n
	svc.mu.Unlock()
	if blocked != 1 || issued != 0 {
		t.Fatalf("before the kill: %d fetches held, %d answered; want 1 held, none answered", blocked, issued)
	}
	tot := storedTotals(t, data)
	if tot.StakesIn != 30 || tot.Credited != paid || tot.Payouts != 0 || tot.Rake != 30-paid || tot.Refunds != 0 || tot.Held != 0 || tot.InPots != 0 {
		t.Fatalf("the stored ledger after the kill %+v, the settlement %v", tot, set)
	}

	svc.holdCallbacks(false)
	s2 := startServeArgs(t, bin, data, args, nil)
	var lines []map[string]any
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, _, log := getRawHost(t, s2.url, "/r/"+match+".jsonl")
		lines = lines[:0]
		for _, l := range strings.Split(log, "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["type"] == "payout" {
				lines = append(lines, m)
			}
		}
		if len(lines) == len(payouts) {
			if strings.Index(log, `"type":"rake_taken"`) > strings.Index(log, `"type":"payout"`) {
				t.Fatalf("the payout line before the settlement's:\n%s", log)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d payouts within 60 s of the restart; logs:\n%s", len(lines), len(payouts), s2.logs)
		}
		time.Sleep(50 * time.Millisecond) // a poll interval: the loop ends on the payout lines
	}
	s2.stop()
	svc.mu.Lock()
	blocked, issued = svc.blocked, svc.n
	seen := map[string]bool{}
	for _, l := range lines {
		hx, _ := l["payment_hash"].(string)
		raw, _ := hex.DecodeString(hx)
		var h [32]byte
		copy(h[:], raw)
		if _, ok := svc.issued[h]; !ok || seen[hx] {
			t.Errorf("payout line %v: its invoice issued by the service %v, seen before %v", l, ok, seen[hx])
		}
		seen[hx] = true
	}
	svc.mu.Unlock()
	if blocked != 1 || issued != len(payouts) {
		t.Fatalf("invoice fetches: %d held, %d answered for %d payouts", blocked, issued, len(payouts))
	}
	tot = storedTotals(t, data)
	if tot.StakesIn != 30 || tot.Payouts != paid || tot.Rake != 30-paid || tot.Credited != 0 || tot.Refunds != 0 || tot.Held != 0 || tot.InPots != 0 {
		t.Fatalf("the stored ledger after the restart %+v, the settlement %v", tot, set)
	}
}
