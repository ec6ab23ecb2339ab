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
