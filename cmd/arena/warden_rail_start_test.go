package main

import (
	"context"
	"encoding/hex"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arena/chain/evm"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
)

// nodeGate stands where the Warden's node is configured: while down it drops every connection
// it accepts (the node is unreachable: the client's request fails at the transport), once up
// it forwards to a real geth.
type nodeGate struct {
	up  atomic.Bool
	url string
}

func newNodeGate(t *testing.T, node string) *nodeGate {
	g := &nodeGate{}
	target, _ := url.Parse(node)
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.up.Load() {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	g.url = srv.URL
	return g
}

// get answers a GET of path on host (a site's name) with its status and body.
func siteGet(t *testing.T, base, host, path string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s%s: %v", host, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeWardenNodeDownThenUp: `arena serve` starts while the Warden's stake rail node is
// unreachable. It serves: /healthz, Break Room, the Market, DOTDOTDOT and the Warden's
// registration and reads answer, and the Warden's money doors answer facilitator_unavailable
// (503, the detail saying the node is unreachable and retried) without writing a match. When
// the node comes up, the background retry connects, and a match opened afterwards is staked
// for real by both Contenders and goes LIVE; the books agree with the chain.
func TestServeWardenNodeDownThenUp(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev")
	}
	bin := buildArena(t)
	chain := evmtest.Start(t)
	gate := newNodeGate(t, chain.URL)
	key, wallet := evmtest.Key(0x7e)
	ctx := context.Background()
	h, err := chain.Client.SendTransaction(ctx, evm.Tx{From: chain.Dev, To: &wallet, Value: big.NewInt(1e18)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Client.WaitReceipt(ctx, h); err != nil {
		t.Fatal(err)
	}
	r := &payRig{t: t, bin: bin, chain: chain, data: filepath.Join(t.TempDir(), "data"), wallet: wallet,
		args: []string{"--warden-evm-rpc", gate.url, "--warden-evm-chain-id", strconv.FormatUint(chain.ID, 10),
			"--warden-evm-token", chain.Token.Address.String(), "--warden-evm-relayer", chain.Dev.String(),
			"--warden-evm-pay-to", wallet.String()},
		env: []string{"ARENA_WARDEN_EVM_WALLET_KEY=" + hex.EncodeToString(key.Serialize())}}
	r.start()

	// The node is down: every other site serves.
	if st, body := siteGet(t, r.s.url, "localhost", "/healthz"); st != 200 || !strings.Contains(body, `"ok"`) {
		t.Errorf("/healthz: %d %s", st, body)
	}
	if st, body := siteGet(t, r.s.url, "breakroom.localhost", "/v0/games"); st != 200 || !strings.Contains(body, "games") {
		t.Errorf("breakroom /v0/games: %d %s", st, body)
	}
	if st, body := siteGet(t, r.s.url, "market.localhost", "/.well-known/agent-card.json"); st != 200 || !strings.Contains(body, "name") {
		t.Errorf("market agent card: %d %s", st, body)
	}
	if st, body := siteGet(t, r.s.url, "localhost", "/"); st != 200 {
		t.Errorf("dotdotdot /: %d %s", st, body)
	}
	if st, body := siteGet(t, r.s.url, "warden.localhost", "/v1/warden/temperaments"); st != 200 || !strings.Contains(body, "steadfast") {
		t.Errorf("warden temperaments: %d %s", st, body)
	}
	a, b := r.w.register(0x47), r.w.register(0x48)
	st, _, out, err := r.w.do("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil)
	if err != nil || st != 503 || out["error"] != "facilitator_unavailable" || !strings.Contains(out["detail"].(string), "unreachable") ||
		!strings.Contains(out["detail"].(string), "retrying") {
		t.Fatalf("open with the node down: %d %v %v, want 503 facilitator_unavailable saying unreachable and retrying", st, out, err)
	}
	if _, o := r.w.must("GET", "/v1/warden/contenders/"+a.wallet.String(), "", nil, nil, 200); o["registered"] != true {
		t.Errorf("A's profile with the node down: %v", o)
	}

	// The node comes up: the doors open once the retry has connected (polled on the door).
	gate.up.Store(true)
	for _, c := range []contender{a, b} {
		chain.Mint(t, c.wallet, wardenTestStake)
	}
	var id string
	for end := time.Now().Add(2 * time.Minute); id == "" && time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		st, _, out, err = r.w.do("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil)
		switch {
		case err == nil && st == 201:
			id = out["match_id"].(string)
		case err != nil || st != 503 || out["error"] != "facilitator_unavailable":
			t.Fatalf("open while the rail comes up: %d %v %v", st, out, err)
		}
	}
	if id == "" {
		t.Fatalf("the money doors still answer %v two minutes after the node came up", out)
	}
	r.w.must("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil, 200)
	for i, c := range []contender{a, b} {
		r.w.must("POST", "/v1/warden/matches/"+id+"/stake", c.token, nil, r.w.payment(c, id, chain.ID, byte(i+1)), 200)
	}
	r.until(id, "LIVE")
	if !strings.Contains(r.s.logs.String(), "unreachable") {
		t.Errorf("no log of the unreachable node")
	}
	bk := r.audit(map[x402.Address]int64{a.wallet: wardenTestStake, b.wallet: wardenTestStake})
	if bk.StakesIn != 2*wardenTestStake || bk.PaidOut != 0 || bk.Refunded != 0 {
		t.Fatalf("books %+v", bk)
	}
}

// TestServeWardenNodeWrongChain: the Warden's node answers on another chain than
// warden.evm.chain_id. serve does not exit: it logs the mismatch at error level, the money doors
// answer facilitator_unavailable naming both chains, and the rest of the Warden serves.
func TestServeWardenNodeWrongChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev")
	}
	bin := buildArena(t)
	chain := evmtest.Start(t)
	_, wallet := evmtest.Key(0x7e)
	r := &payRig{t: t, bin: bin, chain: chain, data: filepath.Join(t.TempDir(), "data"), wallet: wallet,
		args: []string{"--warden-evm-rpc", chain.URL, "--warden-evm-chain-id", strconv.FormatUint(chain.ID+1, 10),
			"--warden-evm-token", chain.Token.Address.String(), "--warden-evm-relayer", chain.Dev.String(),
			"--warden-evm-pay-to", wallet.String()}}
	r.start()
	a := r.w.register(0x49)
	st, _, out, err := r.w.do("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil)
	want := "on chain " + strconv.FormatUint(chain.ID, 10) + ", not the configured chain " + strconv.FormatUint(chain.ID+1, 10)
	if err != nil || st != 503 || out["error"] != "facilitator_unavailable" || !strings.Contains(out["detail"].(string), want) {
		t.Fatalf("open on the wrong chain: %d %v %v, want 503 naming %q", st, out, err, want)
	}
	if st, body := siteGet(t, r.s.url, "breakroom.localhost", "/v0/games"); st != 200 {
		t.Errorf("breakroom /v0/games: %d %s", st, body)
	}
	logs := r.s.logs.String()
	if !strings.Contains(logs, `"level":"ERROR"`) || !strings.Contains(logs, "on another chain") {
		t.Errorf("no error-level log of the wrong chain:\n%s", logs)
	}
}
