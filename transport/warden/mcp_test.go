package warden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

// Arc Testnet's read rail (warden-games §0, §10.1): USDC and Circle's GatewayWallet.
var (
	arcUSDC, _    = x402.ParseAddress("0x3600000000000000000000000000000000000000")
	arcGateway, _ = x402.ParseAddress("0x0077777d7EBA4688BDeF3E311b846F25870A19B9")
)

const arcChain = 5042002

type mcpRig struct {
	*rig
	meter *Meter
	gw    *LocalGateway
	clock atomic.Int64 // Unix seconds
	rpcID int
}

// newMCPRig serves the Warden site (doors, reads, MCP) over a fresh store, the reads metered on
// the Arc Gateway rail with a Gateway balance of faucet units per payer, on a clock the test
// moves.
func newMCPRig(t testing.TB, faucet uint64) *mcpRig {
	s, err := storage.Open(filepath.Join(t.TempDir(), "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := &mcpRig{rig: &rig{t: t, store: s}}
	r.clock.Store(1_796_006_400)
	now := func() time.Time { return time.Unix(r.clock.Load(), 0) }
	_, revenue := evmtest.Key(0x0c)
	r.payTo = revenue
	_, asset := evmtest.Key(0x0a)
	r.doors = &Doors{Store: s, Games: []string{"warden.dilemma"}, Now: now, BaseURL: "http://warden.test", NoRail: ""}
	r.doors.Rail = Rail{ID: "dev-exact", ChainID: 1337, Asset: asset, PayTo: revenue, DomainName: "USDC", DomainVersion: "2"}
	r.gw = &LocalGateway{Store: s, Wallet: arcGateway, Faucet: faucet, Interval: 5 * time.Second}
	r.meter = &Meter{Store: s, Rail: ReadRail{ChainID: arcChain, Asset: arcUSDC, PayTo: revenue, GatewayWallet: arcGateway},
		Gateway: r.gw, Global: 1, Match: 10, Origin: "mcp://warden.test", Now: now}
	site := Site{Doors: r.doors, Reads: &Reads{Store: s, Games: shapes},
		MCP: &MCP{Meter: r.meter, Views: StoredViews{Store: s}, Store: s}}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := site.Mount(e); err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(e)
	t.Cleanup(r.close)
	return r
}

// gatewayAuth is an authorization of value to payTo as Circle's client signs one: valid from
// now − 600 for 7 days and 100 s (§10.9).
func (r *mcpRig) gatewayAuth(p player, to x402.Address, value int64, n byte) x402.Authorization {
	now := r.clock.Load()
	var nonce [32]byte
	for i := range nonce {
		nonce[i] = n ^ byte(i*7) ^ p.wallet[1]
	}
	return x402.Authorization{From: p.wallet, To: to, Value: big.NewInt(value),
		ValidAfter: big.NewInt(now - 600), ValidBefore: big.NewInt(now + GatewayTimeout), Nonce: nonce}
}

var gatewayDomain = x402.Domain{Name: x402.GatewayDomainName, Version: x402.GatewayDomainVersion, ChainID: arcChain, VerifyingContract: arcGateway}

// payment is the v2 PaymentPayload object for a read offer of amount, authorization a, signed
// by key (sig overrides the signature when not nil).
func (r *mcpRig) payment(key *secp256k1.PrivateKey, amount int64, a x402.Authorization, sig []byte) map[string]any {
	if sig == nil {
		sig = evmtest.Sign(key, x402.Digest(gatewayDomain, a))
	}
	return map[string]any{"x402Version": 2,
		"accepted": map[string]any{"scheme": "exact", "network": fmt.Sprintf("eip155:%d", arcChain), "amount": fmt.Sprint(amount),
			"asset": arcUSDC.String(), "payTo": r.payTo.String(), "maxTimeoutSeconds": GatewayTimeout,
			"extra": map[string]any{"name": x402.GatewayDomainName, "version": x402.GatewayDomainVersion, "verifyingContract": arcGateway.String()}},
		"payload": map[string]any{"signature": fmt.Sprintf("0x%x", sig), "authorization": map[string]any{
			"from": a.From.String(), "to": a.To.String(), "value": a.Value.String(), "validAfter": a.ValidAfter.String(),
			"validBefore": a.ValidBefore.String(), "nonce": fmt.Sprintf("0x%x", a.Nonce)}}}
}

// pay is a correct read payment of amount by p.
func (r *mcpRig) pay(p player, amount int64, n byte) map[string]any {
	return r.payment(p.key, amount, r.gatewayAuth(p, r.payTo, amount, n), nil)
}

// toolResult is a tools/call result as the client reads it.
type toolResult struct {
	IsError    bool           `json:"isError"`
	Structured map[string]any `json:"structuredContent"`
	Content    []struct {
		Text string `json:"text"`
	} `json:"content"`
	Meta map[string]any `json:"_meta"`
}

// callTool is a JSON-RPC tools/call of tool with args, the payment in _meta when not nil.
func (r *mcpRig) callTool(tool string, args map[string]any, payment map[string]any) toolResult {
	r.t.Helper()
	r.rpcID++
	params := map[string]any{"name": tool, "arguments": args}
	if payment != nil {
		params["_meta"] = map[string]any{MetaPayment: payment}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r.rpcID, "method": "tools/call", "params": params})
	req, _ := http.NewRequest("POST", r.srv.URL+MCPPath, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Result *toolResult     `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || out.Result == nil {
		r.t.Fatalf("%s: %d %s", tool, resp.StatusCode, raw)
	}
	if len(out.Result.Content) == 0 {
		r.t.Fatalf("%s: no content: %s", tool, raw)
	}
	var text map[string]any
	if err := json.Unmarshal([]byte(out.Result.Content[0].Text), &text); err != nil || !reflect.DeepEqual(text, out.Result.Structured) {
		r.t.Fatalf("%s: content[0].text is not the structuredContent: %s", tool, raw)
	}
	return *out.Result
}

// refusedWith fails unless res is a refused payment carrying a fresh PaymentRequired whose
// error is code, for amount.
func refusedWith(t testing.TB, what string, res toolResult, code string, amount string) {
	t.Helper()
	s := res.Structured
	acc, _ := s["accepts"].([]any)
	if !res.IsError || s["x402Version"] != 2.0 || s["error"] != code || len(acc) != 1 || acc[0].(map[string]any)["amount"] != amount {
		t.Errorf("%s: %+v, want PaymentRequired %s at %s", what, s, code, amount)
	}
}

func (r *mcpRig) records() []storage.WardenPayment {
	var out []storage.WardenPayment
	if err := r.store.WardenPayments(func(p storage.WardenPayment) error { out = append(out, p); return nil }); err != nil {
		r.t.Fatal(err)
	}
	return out
}

// Metered MCP reads (§8.2, §8.3, §10.9, §10.10): a global read's challenge and its payment; the
// same authorization again (same resource: the stored success; another: payment_replayed); a
// match read's challenge at the match price; every refusal of a read payment, none of which
// writes a record or moves money; a non-seated caller refused before any charge; the payer as
// the caller without a token; Gateway running dry (insufficient_funds, a failed settlement
// response); and the money invariant: every settled read recorded once, reads_spent per seat
// adding up, the Gateway balance what the faucet less the settled reads leaves.
func TestMCPMeteredReads(t *testing.T) {
	r := newMCPRig(t, 45)
	a, b, c := r.register(0x51, "gambler"), r.register(0x52, "shark"), r.register(0x53, "mirror")
	match := r.pair(a, b)

	// A global read: its 402, then paid.
	res := r.callTool("warden_leaderboard", map[string]any{}, nil)
	refusedWith(t, "leaderboard unpaid", res, "payment_required", "1")
	acc := res.Structured["accepts"].([]any)[0].(map[string]any)
	same(t, "the read offer", acc, fmt.Sprintf(`{"scheme":"exact","network":"eip155:5042002","amount":"1","asset":"0x3600000000000000000000000000000000000000",
		"payTo":%q,"maxTimeoutSeconds":604900,"extra":{"name":"GatewayWalletBatched","version":"1","verifyingContract":"0x0077777d7EBA4688BDeF3E311b846F25870A19B9"}}`, r.payTo))
	if u := res.Structured["resource"].(map[string]any)["url"]; u != "mcp://warden.test/v1/warden/mcp/tools/warden_leaderboard" {
		t.Errorf("resource url %v", u)
	}
	pay1 := r.pay(a, 1, 1)
	res = r.callTool("warden_leaderboard", map[string]any{}, pay1)
	resp, _ := res.Meta[MetaPaymentResponse].(map[string]any)
	recs := r.records()
	if res.IsError || len(recs) != 1 || resp["success"] != true || resp["payer"] != a.wallet.String() || resp["transaction"] != TransferID(recs[0].Key) {
		t.Fatalf("paid leaderboard: %+v records %+v", res, recs)
	}
	if rows := res.Structured["rows"].([]any); len(rows) != 3 {
		t.Errorf("leaderboard rows %v: three registered Contenders", rows)
	}
	again := r.callTool("warden_leaderboard", map[string]any{}, pay1)
	if again.IsError || again.Meta[MetaPaymentResponse].(map[string]any)["transaction"] != resp["transaction"] || len(r.records()) != 1 {
		t.Errorf("the same payment again: %+v", again)
	}
	refusedWith(t, "replayed elsewhere", r.callTool("warden_ledger", map[string]any{}, pay1), "payment_replayed", "1")

	// A match read: the match price while STAKING, refusals before any record.
	args := map[string]any{"match_id": match, "token": a.token}
	res = r.callTool("warden_state", args, nil)
	refusedWith(t, "state unpaid", res, "payment_required", "10")
	if u := res.Structured["resource"].(map[string]any)["url"]; u != "mcp://warden.test/v1/warden/mcp/tools/warden_state?match="+match {
		t.Errorf("match read resource %v", u)
	}
	otherKey, _ := evmtest.Key(0x5f)
	cases := []struct {
		name, code, amount string
		payment            map[string]any
	}{
		{"paid at the global tier", "invalid_payment_requirements", "10", r.pay(a, 1, 10)},
		{"global value under a match offer", x402.CodeValue, "10", r.payment(a.key, 10, r.gatewayAuth(a, r.payTo, 1, 11), nil)},
		{"more than the price", x402.CodeValue, "10", r.payment(a.key, 10, r.gatewayAuth(a, r.payTo, 11, 12), nil)},
		{"wrong key", x402.CodeSignature, "10", r.payment(otherKey, 10, r.gatewayAuth(a, r.payTo, 10, 13), nil)},
		{"high S", x402.CodeSignature, "10", func() map[string]any {
			x := r.gatewayAuth(a, r.payTo, 10, 14)
			return r.payment(a.key, 10, x, evmtest.HighS(evmtest.Sign(a.key, x402.Digest(gatewayDomain, x))))
		}()},
		{"signed as exact (asset domain)", x402.CodeSignature, "10", func() map[string]any {
			x := r.gatewayAuth(a, r.payTo, 10, 15)
			d := gatewayDomain
			d.VerifyingContract = arcUSDC
			return r.payment(a.key, 10, x, evmtest.Sign(a.key, x402.Digest(d, x)))
		}()},
		{"wrong payTo", x402.CodeRecipient, "10", r.payment(a.key, 10, r.gatewayAuth(a, c.wallet, 10, 16), nil)},
		{"expired for Gateway", x402.CodeValidBefore, "10", func() map[string]any {
			x := r.gatewayAuth(a, r.payTo, 10, 17)
			x.ValidBefore = big.NewInt(r.clock.Load() + 600) // an exact-rail life, far below Gateway's 7 days
			return r.payment(a.key, 10, x, nil)
		}()},
		{"not yet valid", x402.CodeValidAfter, "10", func() map[string]any {
			x := r.gatewayAuth(a, r.payTo, 10, 18)
			x.ValidAfter = big.NewInt(r.clock.Load() + 30)
			return r.payment(a.key, 10, x, nil)
		}()},
		{"unknown version", "invalid_x402_version", "10", map[string]any{"x402Version": 3}},
		{"x402 v1 (Arc has no v1 name)", x402.CodeInvalidScheme, "10", func() map[string]any {
			v2 := r.pay(a, 10, 19)
			return map[string]any{"x402Version": 1, "scheme": "exact", "network": "base-sepolia", "payload": v2["payload"]}
		}()},
	}
	for _, cs := range cases {
		refusedWith(t, cs.name, r.callTool("warden_state", args, cs.payment), cs.code, cs.amount)
	}
	if bad := r.callTool("warden_state", args, map[string]any{"x402Version": 2}); !bad.IsError || bad.Structured["error"] != "invalid_payload" {
		t.Errorf("undecodable payment: %+v", bad.Structured)
	}
	if n := len(r.records()); n != 1 {
		t.Fatalf("refused payments wrote records: %d", n)
	}
	// c is not seated: refused before any charge, with its token and by its payment alike.
	if res := r.callTool("warden_state", map[string]any{"match_id": match, "token": c.token}, r.pay(c, 10, 20)); !res.IsError || res.Structured["error"] != "not_seated" {
		t.Errorf("c with a token: %+v", res.Structured)
	}
	if res := r.callTool("warden_state", map[string]any{"match_id": match}, r.pay(c, 10, 21)); !res.IsError || res.Structured["error"] != "not_seated" {
		t.Errorf("c by its payment: %+v", res.Structured)
	}
	if n := len(r.records()); n != 1 {
		t.Fatalf("a non-seated caller was charged: %d records", n)
	}
	// a by token, b by its payment: each its own seat's view.
	res = r.callTool("warden_state", args, r.pay(a, 10, 30))
	if res.IsError || res.Structured["seat"] != "A" || res.Structured["status"] != "STAKING" || res.Meta[MetaPaymentResponse].(map[string]any)["success"] != true {
		t.Fatalf("a's view: %+v", res)
	}
	res = r.callTool("warden_legal_moves", map[string]any{"match_id": match}, r.pay(b, 10, 31))
	if res.IsError || !reflect.DeepEqual(res.Structured["legal_moves"], []any{}) {
		t.Fatalf("b's legal moves: %+v", res)
	}
	res = r.callTool("warden_wait", map[string]any{"match_id": match, "token": b.token, "after_seq": 0, "wait_ms": 0}, r.pay(b, 10, 32))
	if res.IsError || res.Structured["seat"] != "B" {
		t.Fatalf("b's wait: %+v", res)
	}
	// a's Gateway balance: 45 − 1 − 10 = 34; three more match reads leave 4, the fourth is refused.
	for n := byte(40); n < 43; n++ {
		if res := r.callTool("warden_state", args, r.pay(a, 10, n)); res.IsError {
			t.Fatalf("a's read %d: %+v", n, res.Structured)
		}
	}
	res = r.callTool("warden_state", args, r.pay(a, 10, 43))
	refusedWith(t, "dry", res, "insufficient_funds", "10")
	if fail, _ := res.Meta[MetaPaymentResponse].(map[string]any); fail["success"] != false || fail["errorReason"] != "insufficient_funds" {
		t.Errorf("failed settlement response: %v", res.Meta)
	}

	// The invariant: each settled read once under its own key; reads_spent per seat; balances.
	keys := map[string]bool{}
	settled := map[string]uint64{}
	status := map[string]int{}
	for _, p := range r.records() {
		status[p.Status]++
		if keys[p.Key] {
			t.Errorf("key %s recorded twice", p.Key)
		}
		keys[p.Key] = true
		if p.Status == storage.WardenPaySettled {
			settled[p.Payer] += p.Amount
			if p.Tx != TransferID(p.Key) {
				t.Errorf("%s: transfer %s", p.ID, p.Tx)
			}
		}
	}
	if !reflect.DeepEqual(status, map[string]int{"settled": 7, "failed": 1}) {
		t.Errorf("records by status %v", status)
	}
	if !reflect.DeepEqual(settled, map[string]uint64{a.wallet.String(): 41, b.wallet.String(): 20}) {
		t.Errorf("settled per payer %v", settled)
	}
	spent, err := ReadsSpent(r.store, match)
	if err != nil || !reflect.DeepEqual(spent, map[string]int64{"A": 40, "B": 20}) {
		t.Errorf("reads spent %v %v: A four match reads, B two", spent, err)
	}
	for p, want := range map[player]uint64{a: 4, b: 25, c: 45} {
		if got, err := r.gw.Balance(p.wallet.String()); err != nil || got != want {
			t.Errorf("%s's Gateway balance %d %v, want %d", p.wallet, got, err, want)
		}
	}
}

// Gateway's batching as the local facilitator simulates it (§10.7.2, §10.9): each read settles
// on its own at once (its transfer received); the transfers of one 5 s window form one batch,
// netted per (payer, payTo); a batch is batched in the next window and completed after.
func TestGatewayBatching(t *testing.T) {
	r := newMCPRig(t, 1000)
	a, b := r.register(0x61, "gambler"), r.register(0x62, "shark")
	start := r.clock.Load() // a multiple of 5
	for i, p := range []player{a, a, b} {
		if res := r.callTool("warden_leaderboard", map[string]any{}, r.pay(p, 1, byte(i))); res.IsError {
			t.Fatalf("read %d: %+v", i, res.Structured)
		}
	}
	r.clock.Add(5)
	if res := r.callTool("warden_temperaments", map[string]any{}, r.pay(b, 1, 9)); res.IsError {
		t.Fatalf("late read: %+v", res.Structured)
	}
	now := time.Unix(r.clock.Load(), 0)
	batches, err := r.gw.Batches(r.payTo, now)
	if err != nil || len(batches) != 2 {
		t.Fatalf("batches %+v %v", batches, err)
	}
	first, second := batches[0], batches[1]
	wantNet := map[string]uint64{a.wallet.String() + "→" + r.payTo.String(): 2, b.wallet.String() + "→" + r.payTo.String(): 1}
	if first.Window != start/5 || first.Transfers != 3 || first.Total != 3 || !reflect.DeepEqual(first.Net, wantNet) || first.Status != TransferBatched {
		t.Errorf("first batch %+v", first)
	}
	if second.Transfers != 1 || second.Total != 1 || second.Status != TransferReceived || second.Tx == first.Tx {
		t.Errorf("second batch %+v", second)
	}
	if done, pending, err := r.gw.Revenue(r.payTo, now); err != nil || done != 0 || pending != 4 {
		t.Errorf("revenue while batching: %d completed, %d pending (%v)", done, pending, err)
	}
	r.clock.Add(10)
	batches, _ = r.gw.Batches(r.payTo, time.Unix(r.clock.Load(), 0))
	if batches[0].Status != TransferCompleted || batches[1].Status != TransferCompleted {
		t.Errorf("after two windows: %+v", batches)
	}
	if done, pending, _ := r.gw.Revenue(r.payTo, time.Unix(r.clock.Load(), 0)); done != 4 || pending != 0 {
		t.Errorf("revenue after two windows: %d completed, %d pending", done, pending)
	}
	// A Standing read over MCP is the profile's standing member.
	res := r.callTool("warden_standing", map[string]any{"contender_id": strings.ToLower(a.wallet.String())}, r.pay(a, 1, 20))
	if res.IsError || res.Structured["contender_id"] != a.wallet.String() || res.Structured["tier"] != "UNPROVEN" || res.Structured["matches"] != 0.0 {
		t.Errorf("warden_standing: %+v", res.Structured)
	}
}

// The free tools (§8.2) are the REST doors called in process: a challenge, registration with
// its EIP-191 signature, opening and joining a match, queueing; each refusal is the door's code;
// arguments are decoded strictly (an unknown member is bad_request); warden_pricing and GET
// /v1/warden/pricing give the tiers and the read rail. None of them is charged.
func TestMCPFreeTools(t *testing.T) {
	r := newMCPRig(t, 10)
	ch := r.callTool("warden_challenge", map[string]any{}, nil)
	if ch.IsError || len(ch.Structured["challenge"].(string)) != 64 {
		t.Fatalf("challenge: %+v", ch.Structured)
	}
	key, wallet := evmtest.Key(0x91)
	text := RegistrationText(wallet.String(), "diplomat", ch.Structured["challenge"].(string))
	reg := r.callTool("warden_register", map[string]any{"wallet": wallet.String(), "temperament": "diplomat", "name": "Dee",
		"challenge": ch.Structured["challenge"], "signature": fmt.Sprintf("0x%x", evmtest.Sign(key, PersonalDigest(text)))}, nil)
	if reg.IsError || reg.Structured["contender_id"] != wallet.String() {
		t.Fatalf("register: %+v", reg.Structured)
	}
	again := r.callTool("warden_register", map[string]any{"wallet": wallet.String(), "temperament": "diplomat",
		"challenge": ch.Structured["challenge"], "signature": fmt.Sprintf("0x%x", evmtest.Sign(key, PersonalDigest(text)))}, nil)
	if !again.IsError || again.Structured["error"] != "challenge_expired" {
		t.Errorf("the challenge again: %+v", again.Structured)
	}
	tok := reg.Structured["token"].(string)
	other := r.register(0x92, "mirror")
	open := r.callTool("warden_open_match", map[string]any{"token": tok, "game": "warden.dilemma", "stake": testStake}, nil)
	if open.IsError || open.Structured["seat"] != "A" {
		t.Fatalf("open: %+v", open.Structured)
	}
	join := r.callTool("warden_join_match", map[string]any{"token": other.token, "match_id": open.Structured["match_id"]}, nil)
	if join.IsError || join.Structured["seat"] != "B" {
		t.Fatalf("join: %+v", join.Structured)
	}
	if q := r.callTool("warden_queue", map[string]any{"token": other.token, "game": "warden.dilemma", "stake": testStake}, nil); !q.IsError || q.Structured["error"] != "too_many_matches" {
		t.Errorf("queue while staking: %+v", q.Structured)
	}
	if bad := r.callTool("warden_open_match", map[string]any{"token": tok, "game": "warden.dilemma", "stake": testStake, "extra": 1}, nil); !bad.IsError || bad.Structured["error"] != "bad_request" {
		t.Errorf("an unknown argument: %+v", bad.Structured)
	}
	if bad := r.callTool("warden_act", map[string]any{"token": tok, "match_id": "wm_1", "round": 1, "action": "commit", "args": map[string]any{}}, nil); !bad.IsError || bad.Structured["error"] != "bad_request" {
		t.Errorf("act on a malformed id: %+v", bad.Structured)
	}
	p := r.callTool("warden_pricing", map[string]any{}, nil)
	same(t, "pricing", p.Structured, fmt.Sprintf(`{"v":1,"x402_versions":[1,2],"tiers":{"free":0,"global":1,"match":10},
		"read_rail":{"kind":"gateway","network":"eip155:5042002","asset":"0x3600000000000000000000000000000000000000","pay_to":%q,
		"gateway_contract":"0x0077777d7EBA4688BDeF3E311b846F25870A19B9","max_timeout_seconds":604900,"min_validity_seconds":604800}}`, r.payTo))
	if got := r.do("GET", "/v1/warden/pricing", "", nil, nil); got.status != 200 || !reflect.DeepEqual(got.body, p.Structured) {
		t.Errorf("GET /pricing: %d %v", got.status, got.body)
	}
	if n := len(r.records()); n != 0 {
		t.Errorf("free tools wrote %d payment records", n)
	}
}

// A crash between the nonce claim and Gateway's settle leaves the read's record settling and
// nothing charged (the local Gateway's book counts settled records only); the same payment
// sent again resumes it: settled once, served, the balance debited once; sent a third time it
// answers the same settlement and debits nothing more.
func TestReadPaymentResumesAfterCrash(t *testing.T) {
	r := newMCPRig(t, 50)
	a := r.register(0xa1, "gambler")
	pay := r.pay(a, 1, 7)
	raw, _ := json.Marshal(pay) // what the door reads back from mcp-go's decoded _meta
	p, err := x402.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	read := Read{Tool: "warden_leaderboard", Tier: TierGlobal}
	v, err := r.meter.Challenge(read).Verify(p, r.clock.Load())
	if err != nil {
		t.Fatal(err)
	}
	// What Pay wrote before the crash: the claim and its settling record, nothing more.
	crashed := storage.WardenPayment{ID: "wp_00000000000000c1", Resource: read.Resource(), Payer: a.wallet.String(), Amount: 1,
		Network: "eip155:5042002", Key: v.Key.String(), Version: 2, Payload: raw, Status: storage.WardenPaySettling, Created: r.clock.Load()}
	if _, claimed, err := r.store.ClaimWardenPayment(v.Key, crashed); err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	if bal, _ := r.gw.Balance(a.wallet.String()); bal != 50 {
		t.Fatalf("a settling record charged: balance %d", bal)
	}
	for i := range 2 {
		res := r.callTool("warden_leaderboard", map[string]any{}, pay)
		resp, _ := res.Meta[MetaPaymentResponse].(map[string]any)
		if res.IsError || resp["transaction"] != TransferID(v.Key.String()) {
			t.Fatalf("send %d: %+v", i+2, res)
		}
		recs := r.records()
		if len(recs) != 1 || recs[0].ID != crashed.ID || recs[0].Status != storage.WardenPaySettled {
			t.Fatalf("send %d: records %+v", i+2, recs)
		}
		if bal, _ := r.gw.Balance(a.wallet.String()); bal != 49 {
			t.Fatalf("send %d: balance %d, want 49", i+2, bal)
		}
	}
}
