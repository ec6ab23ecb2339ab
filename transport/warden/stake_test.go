package warden

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/labstack/echo/v4"

	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

const testStake = 1_000_000

// rig is the door over a bbolt file and a real geth --dev chain. Its clock is the wall clock
// plus skew (the chain's and the authorizations' times are real).
type rig struct {
	t       *testing.T
	chain   *evmtest.Chain
	path    string
	store   *storage.Store
	doors   *Doors
	srv     *httptest.Server
	payTo   x402.Address
	skew    atomic.Int64 // seconds
	crashAt string
}

var errCrash = errors.New("crash (test)")

func newRig(t *testing.T, chain *evmtest.Chain) *rig {
	_, payTo := evmtest.Key(0x7e)
	r := &rig{t: t, chain: chain, path: filepath.Join(t.TempDir(), "arena.db"), payTo: payTo}
	r.open()
	t.Cleanup(func() { r.close() })
	return r
}

// open opens the store and serves the doors over it (a process start).
func (r *rig) open() {
	s, err := storage.Open(r.path, storage.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	r.store = s
	r.doors = &Doors{Store: s, Token: r.chain.Token, Relayer: r.chain.Dev, BaseURL: "http://warden.test",
		Games: []string{"warden.dilemma", "warden.claims"},
		Rail: Rail{ID: "dev-exact", ChainID: r.chain.ID, Asset: r.chain.Token.Address, PayTo: r.payTo,
			DomainName: "USDC", DomainVersion: "2"},
		Now: func() time.Time { return time.Now().Add(time.Duration(r.skew.Load()) * time.Second) },
		hook: func(step string) error {
			if step == r.crashAt {
				return errCrash
			}
			return nil
		}}
	e := echo.New()
	e.HTTPErrorHandler = Answer.ErrorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.doors.mount(e)
	r.srv = httptest.NewServer(e)
}

// close stops serving and closes the store (what a kill -9 leaves is what was committed: every
// write here is a committed bbolt transaction or nothing).
func (r *rig) close() {
	if r.srv != nil {
		r.srv.Close()
		r.srv = nil
	}
	if r.store != nil {
		if err := r.store.Close(); err != nil {
			r.t.Error(err)
		}
		r.store = nil
	}
}

// restart is a crash and a start: close, reopen the same file, Recover.
func (r *rig) restart() {
	r.close()
	r.crashAt = ""
	r.open()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.doors.Recover(ctx); err != nil {
		r.t.Fatalf("recover: %v", err)
	}
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

func (r *rig) do(method, path, token string, body any, hdr map[string]string) answer {
	r.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, r.srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a.body); err != nil {
			r.t.Fatalf("%s %s: body %q", method, path, raw)
		}
	}
	return a
}

type player struct {
	key    *secp256k1.PrivateKey
	wallet x402.Address
	token  string
}

func (r *rig) register(b byte, temperament string) player {
	r.t.Helper()
	key, wallet := evmtest.Key(b)
	ch := r.do("GET", "/v1/warden/challenge", "", nil, nil)
	if ch.status != 200 {
		r.t.Fatalf("challenge: %d %v", ch.status, ch.body)
	}
	text := RegistrationText(wallet.String(), temperament, ch.body["challenge"].(string))
	sig := evmtest.Sign(key, PersonalDigest(text))
	a := r.do("POST", "/v1/warden/contenders", "", map[string]any{"wallet": wallet.String(), "temperament": temperament,
		"challenge": ch.body["challenge"], "signature": fmt.Sprintf("0x%x", sig)}, nil)
	if a.status != 201 || a.body["contender_id"] != wallet.String() {
		r.t.Fatalf("register: %d %v", a.status, a.body)
	}
	return player{key: key, wallet: wallet, token: a.body["token"].(string)}
}

// pair opens a match by a and joins it by b: STAKING.
func (r *rig) pair(a, b player) string {
	r.t.Helper()
	o := r.do("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": testStake}, nil)
	if o.status != 201 || o.body["seat"] != "A" {
		r.t.Fatalf("open: %d %v", o.status, o.body)
	}
	id := o.body["match_id"].(string)
	j := r.do("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil)
	if j.status != 200 || j.body["seat"] != "B" {
		r.t.Fatalf("join: %d %v", j.status, j.body)
	}
	return id
}

// auth is an authorization of value from p to to, valid from now−60 to now+600, with nonce n.
func auth(p player, to x402.Address, value int64, n byte) x402.Authorization {
	now := time.Now().Unix()
	var nonce [32]byte
	for i := range nonce {
		nonce[i] = n ^ byte(i) ^ p.wallet[0]
	}
	return x402.Authorization{From: p.wallet, To: to, Value: big.NewInt(value),
		ValidAfter: big.NewInt(now - 60), ValidBefore: big.NewInt(now + 600), Nonce: nonce}
}

// v2Header is the PAYMENT-SIGNATURE header of a v2 payment of the rig's offer.
func (r *rig) v2Header(a x402.Authorization, sig []byte) map[string]string {
	raw := fmt.Appendf(nil, `{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:%d","amount":"%d","asset":"%s","payTo":"%s","maxTimeoutSeconds":300,"extra":{"name":"USDC","version":"2"}},"payload":{"authorization":{"from":"%s","to":"%s","value":"%s","validAfter":"%s","validBefore":"%s","nonce":"0x%x"},"signature":"0x%x"}}`,
		r.chain.ID, testStake, r.chain.Token.Address, r.payTo, a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, sig)
	return map[string]string{"PAYMENT-SIGNATURE": base64.StdEncoding.EncodeToString(raw)}
}

func (r *rig) domain() x402.Domain {
	return x402.Domain{Name: "USDC", Version: "2", ChainID: r.chain.ID, VerifyingContract: r.chain.Token.Address}
}

// pay is a correctly signed stake payment of p.
func (r *rig) pay(p player, n byte) map[string]string {
	a := auth(p, r.payTo, testStake, n)
	return r.v2Header(a, evmtest.Sign(p.key, x402.Digest(r.domain(), a)))
}

func (r *rig) matchRec(id string) Match {
	r.t.Helper()
	m, err := r.doors.match(id)
	if err != nil {
		r.t.Fatal(err)
	}
	return m
}

// payments counts the payment records by status.
func (r *rig) payments() map[string]int {
	n := map[string]int{}
	if err := r.store.WardenPayments(func(p storage.WardenPayment) error { n[p.Status]++; return nil }); err != nil {
		r.t.Fatal(err)
	}
	return n
}

// invariant is the money check: the stake account holds exactly one stake per settled payment
// record, every settled record's seat is cleared by it in its match, and each payer paid
// exactly its settled stakes (minted − balance).
func (r *rig) invariant(minted map[x402.Address]int64) {
	r.t.Helper()
	settled, perPayer := int64(0), map[string]int64{}
	if err := r.store.WardenPayments(func(p storage.WardenPayment) error {
		if p.Status == storage.WardenPaySettled {
			settled += int64(p.Amount)
			perPayer[p.Payer] += int64(p.Amount)
			if m := r.matchRec(p.Match); m.Stakes[p.Seat] != p.ID {
				r.t.Errorf("settled %s: seat %s of %s cleared by %q", p.ID, p.Seat, p.Match, m.Stakes[p.Seat])
			}
		}
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
	if got := r.chain.Balance(r.t, r.payTo); got != settled {
		r.t.Errorf("stake account holds %d, settled records %d", got, settled)
	}
	for a, m := range minted {
		if paid := m - r.chain.Balance(r.t, a); paid != perPayer[a.String()] {
			r.t.Errorf("%s paid %d on chain, settled records %d", a, paid, perPayer[a.String()])
		}
	}
	if err := r.store.Check(); err != nil {
		r.t.Errorf("store check: %v", err)
	}
}

// TestStakeDoorOnDevChain: two Contenders register with signatures, pair, and stake through
// the 402 door on a real geth --dev chain; every refusal of §10.3 step 4 and §10.10 comes first
// and changes nothing; both stakes clear, balances move, the match goes LIVE.
func TestStakeDoorOnDevChain(t *testing.T) {
	chain := evmtest.Start(t)
	r := newRig(t, chain)
	a, b := r.register(0x31, "steadfast"), r.register(0x32, "shark")
	minted := map[x402.Address]int64{a.wallet: 5 * testStake, b.wallet: 5 * testStake}
	for w, v := range minted {
		chain.Mint(t, w, v)
	}
	id := r.pair(a, b)
	path := "/v1/warden/matches/" + id + "/stake"

	// No payment: 402 with the challenge in both shapes.
	q := r.do("POST", path, a.token, nil, nil)
	if q.status != 402 || q.body["error"] != "payment_required" {
		t.Fatalf("no payment: %d %v", q.status, q.body)
	}
	hdr, err := base64.StdEncoding.DecodeString(q.header.Get("PAYMENT-REQUIRED"))
	if err != nil {
		t.Fatal(err)
	}
	var v2 struct {
		X402Version int              `json:"x402Version"`
		Accepts     []map[string]any `json:"accepts"`
		Resource    map[string]any   `json:"resource"`
	}
	if err := json.Unmarshal(hdr, &v2); err != nil || v2.X402Version != 2 || len(v2.Accepts) != 1 ||
		v2.Accepts[0]["amount"] != "1000000" || v2.Accepts[0]["payTo"] != r.payTo.String() ||
		v2.Resource["url"] != "http://warden.test"+path {
		t.Fatalf("PAYMENT-REQUIRED %s (%v)", hdr, err)
	}

	_, other := evmtest.Key(0x99)
	otherKey, _ := evmtest.Key(0x99)
	now := time.Now().Unix()
	refusals := []struct {
		name, code string
		hdr        map[string]string
		token      string
	}{}
	add := func(name, code, token string, h map[string]string) {
		refusals = append(refusals, struct {
			name, code string
			hdr        map[string]string
			token      string
		}{name, code, h, token})
	}
	{ // signed by another key
		x := auth(a, r.payTo, testStake, 1)
		add("wrong signer", x402.CodeSignature, a.token, r.v2Header(x, evmtest.Sign(otherKey, x402.Digest(r.domain(), x))))
	}
	{ // the high-S twin of a good signature
		x := auth(a, r.payTo, testStake, 2)
		add("high S", x402.CodeSignature, a.token, r.v2Header(x, evmtest.HighS(evmtest.Sign(a.key, x402.Digest(r.domain(), x)))))
	}
	{
		x := auth(a, r.payTo, testStake, 3)
		x.ValidBefore = big.NewInt(now + 3)
		add("expired", x402.CodeValidBefore, a.token, r.v2Header(x, evmtest.Sign(a.key, x402.Digest(r.domain(), x))))
	}
	{
		x := auth(a, r.payTo, testStake, 4)
		x.ValidAfter = big.NewInt(now + 120)
		add("not yet valid", x402.CodeValidAfter, a.token, r.v2Header(x, evmtest.Sign(a.key, x402.Digest(r.domain(), x))))
	}
	{
		x := auth(a, other, testStake, 5)
		add("wrong payTo", x402.CodeRecipient, a.token, r.v2Header(x, evmtest.Sign(a.key, x402.Digest(r.domain(), x))))
	}
	{
		x := auth(a, r.payTo, 2*testStake, 6)
		add("wrong amount", x402.CodeValue, a.token, r.v2Header(x, evmtest.Sign(a.key, x402.Digest(r.domain(), x))))
	}
	add("another seat's wallet", "payer_mismatch", a.token, r.pay(b, 7))
	add("both headers", "bad_payment", a.token, map[string]string{"X-PAYMENT": "e30=", "PAYMENT-SIGNATURE": "e30="})
	add("not base64", "invalid_payload", a.token, map[string]string{"PAYMENT-SIGNATURE": "!!"})
	add("no token", "unauthorized", "", r.pay(a, 8))
	for _, c := range refusals {
		got := r.do("POST", path, c.token, nil, c.hdr)
		if got.body["error"] != c.code || got.status != Statuses.Status(c.code) {
			t.Errorf("%s: %d %v, want %d %s", c.name, got.status, got.body, Statuses.Status(c.code), c.code)
		}
	}
	if n := r.payments(); len(n) != 0 {
		t.Fatalf("refusals wrote payments: %v", n)
	}
	r.invariant(minted)

	// A pays: cleared, the match still STAKING.
	good := r.pay(a, 9)
	ok := r.do("POST", path, a.token, nil, good)
	if ok.status != 200 || ok.body["status"] != "cleared" || ok.body["seat"] != "A" || ok.body["match_status"] != StatusStaking {
		t.Fatalf("A's stake: %d %v", ok.status, ok.body)
	}
	resp, _ := base64.StdEncoding.DecodeString(ok.header.Get("PAYMENT-RESPONSE"))
	var pr map[string]any
	if err := json.Unmarshal(resp, &pr); err != nil || pr["success"] != true || pr["transaction"] != ok.body["ref"] {
		t.Fatalf("PAYMENT-RESPONSE %s", resp)
	}
	if got := chain.Balance(t, a.wallet); got != 4*testStake {
		t.Fatalf("A's balance %d", got)
	}
	// The same payment again is the same answer; nothing moves.
	again := r.do("POST", path, a.token, nil, good)
	if again.status != 200 || again.body["payment_id"] != ok.body["payment_id"] || again.body["ref"] != ok.body["ref"] {
		t.Fatalf("repeat: %d %v", again.status, again.body)
	}
	// Another authorization for a seat that staked: already_staked.
	if got := r.do("POST", path, a.token, nil, r.pay(a, 10)); got.status != 409 || got.body["error"] != "already_staked" {
		t.Fatalf("second stake: %d %v", got.status, got.body)
	}
	r.invariant(minted)

	// B's stake clears; the match is LIVE.
	okB := r.do("POST", path, b.token, nil, r.pay(b, 11))
	if okB.status != 200 || okB.body["match_status"] != StatusLive {
		t.Fatalf("B's stake: %d %v", okB.status, okB.body)
	}
	if got := chain.Balance(t, r.payTo); got != 2*testStake {
		t.Fatalf("stake account %d", got)
	}
	if n := r.payments(); n[storage.WardenPaySettled] != 2 || len(n) != 1 {
		t.Fatalf("payments %v", n)
	}
	r.invariant(minted)
}

// TestStakeReplayAndSettlementFailure: a stake the chain refuses (no balance) is recorded
// failed (402 settlement_failed, nothing moved); another authorization with the failed one's
// nonce is payment_replayed and writes nothing; a stake after the window is
// stake_window_closed before any payment check.
func TestStakeReplayAndSettlementFailure(t *testing.T) {
	chain := evmtest.Start(t)
	r := newRig(t, chain)
	a, b := r.register(0x41, "gambler"), r.register(0x42, "mirror")
	id := r.pair(a, b)
	path := "/v1/warden/matches/" + id + "/stake"
	minted := map[x402.Address]int64{a.wallet: 0, b.wallet: 0}

	first := auth(a, r.payTo, testStake, 1)
	fail := r.do("POST", path, a.token, nil, r.v2Header(first, evmtest.Sign(a.key, x402.Digest(r.domain(), first))))
	if fail.status != 402 || fail.body["error"] != "settlement_failed" {
		t.Fatalf("unfunded stake: %d %v", fail.status, fail.body)
	}
	if n := r.payments(); n[storage.WardenPayFailed] != 1 || len(n) != 1 {
		t.Fatalf("payments %v", n)
	}
	chain.Mint(t, a.wallet, 3*testStake)
	minted[a.wallet] = 3 * testStake
	replay := first
	replay.ValidBefore = new(big.Int).Add(first.ValidBefore, big.NewInt(1)) // another payload, one nonce
	rep := r.do("POST", path, a.token, nil, r.v2Header(replay, evmtest.Sign(a.key, x402.Digest(r.domain(), replay))))
	if rep.status != 402 || rep.body["error"] != "payment_replayed" {
		t.Fatalf("replay: %d %v", rep.status, rep.body)
	}
	if n := r.payments(); n[storage.WardenPayFailed] != 1 || len(n) != 1 {
		t.Fatalf("the replay wrote: %v", n)
	}
	if got := chain.Balance(t, a.wallet); got != 3*testStake {
		t.Fatalf("A's balance after the replay %d", got)
	}
	r.invariant(minted)

	r.skew.Store(int64(StakeWindow/time.Second) + 1)
	late := r.do("POST", path, a.token, nil, r.pay(a, 2))
	if late.status != 409 || late.body["error"] != "stake_window_closed" {
		t.Fatalf("late stake: %d %v", late.status, late.body)
	}
	if m := r.matchRec(id); len(m.Stakes) != 0 || m.Status != StatusStaking {
		t.Fatalf("match after refusals %+v", m)
	}
	r.invariant(minted)
}

// TestStakeCrashAtEveryStep stops the stake request at each money step as a crash would (no
// write after it), then restarts over the same bbolt file: Recover finishes the settlement
// without a second transfer, the seat is cleared once, and the invariant holds. The payer's
// retry of the same payment then answers the one settlement.
func TestStakeCrashAtEveryStep(t *testing.T) {
	chain := evmtest.Start(t)
	r := newRig(t, chain)
	minted := map[x402.Address]int64{}
	// step → the record's status the crash leaves.
	steps := []struct{ step, left string }{{"claimed", storage.WardenPaySettling}, {"sent", storage.WardenPaySettling},
		{"submitted", storage.WardenPaySubmitted}, {"mined", storage.WardenPaySubmitted}}
	for i, st := range steps {
		step := st.step
		a, b := r.register(byte(0x51+2*i), "wildcard"), r.register(byte(0x52+2*i), "diplomat")
		for _, p := range []player{a, b} {
			chain.Mint(t, p.wallet, 2*testStake)
			minted[p.wallet] = 2 * testStake
		}
		id := r.pair(a, b)
		path := "/v1/warden/matches/" + id + "/stake"
		pay := r.pay(a, 1)
		r.crashAt = step
		if got := r.do("POST", path, a.token, nil, pay); got.status != 500 {
			t.Fatalf("%s: crashed request answered %d %v", step, got.status, got.body)
		}
		if n := r.payments(); n[st.left] != 1 {
			t.Fatalf("%s: payments left %v, want one %s", step, n, st.left)
		}
		r.restart()
		if got, want := chain.Balance(t, r.payTo), int64(2*i+1)*testStake; got != want {
			t.Fatalf("%s: stake account %d after recovery, want %d", step, got, want)
		}
		if m := r.matchRec(id); m.Stakes["A"] == "" || m.Status != StatusStaking {
			t.Fatalf("%s: match after recovery %+v", step, m)
		}
		again := r.do("POST", path, a.token, nil, pay)
		if again.status != 200 || again.body["payment_id"] != r.matchRec(id).Stakes["A"] {
			t.Fatalf("%s: retry after recovery %d %v", step, again.status, again.body)
		}
		if got := chain.Balance(t, a.wallet); got != testStake {
			t.Fatalf("%s: A paid %d", step, 2*testStake-got)
		}
		r.invariant(minted)
		// Seat B clears normally: LIVE.
		if okB := r.do("POST", path, b.token, nil, r.pay(b, 2)); okB.body["match_status"] != StatusLive {
			t.Fatalf("%s: B's stake %d %v", step, okB.status, okB.body)
		}
		r.invariant(minted)
	}
}

// TestStakeX402FetchV1 pays both stakes of a match with the real x402 v1 client (x402-fetch
// 1.2.0, a viem wallet client as the signer) against the door and a geth dev chain whose chain
// id is Base Sepolia's (84532: x402 v1 signs under its network name's id). Both stakes clear on
// chain, the balances move by the stake, the match goes LIVE, and each client reads its
// settlement from X-PAYMENT-RESPONSE.
func TestStakeX402FetchV1(t *testing.T) {
	chain := evmtest.StartChain(t, 84532)
	r := newRig(t, chain)
	r.doors.Rail.V1Network = "base-sepolia" // the v1 rail: x402-fetch pays only named networks
	a, b := r.register(0x61, "steadfast"), r.register(0x62, "gambler")
	minted := map[x402.Address]int64{a.wallet: 3 * testStake, b.wallet: 3 * testStake}
	for w, v := range minted {
		chain.Mint(t, w, v)
	}
	id := r.pair(a, b)
	for i, p := range []player{a, b} {
		res, out := runClient(t, "pay.mjs", map[string]any{"url": r.srv.URL + "/v1/warden/matches/" + id + "/stake",
			"token": p.token, "privateKey": fmt.Sprintf("0x%x", p.key.Serialize()), "rpc": chain.URL, "maxValue": testStake})
		want := StatusStaking
		if i == 1 {
			want = StatusLive
		}
		if res.Status != 200 || res.Body["status"] != "cleared" || res.Body["match_status"] != want ||
			res.PaymentResponse["success"] != true || res.PaymentResponse["transaction"] != res.Body["ref"] ||
			res.PaymentResponse["payer"] != p.wallet.String() {
			t.Fatalf("seat %d: %s", i, out)
		}
		if got := chain.Balance(t, p.wallet); got != 2*testStake {
			t.Fatalf("seat %d balance %d", i, got)
		}
	}
	if got := chain.Balance(t, r.payTo); got != 2*testStake {
		t.Fatalf("stake account %d", got)
	}
	var versions []int
	if err := r.store.WardenPayments(func(p storage.WardenPayment) error { versions = append(versions, p.Version); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(versions) != 2 || versions[0] != 1 || versions[1] != 1 {
		t.Fatalf("payment versions %v, want two x402 v1", versions)
	}
	r.invariant(minted)
}

// TestStakeX402FetchV2 pays both stakes with the real x402 v2 client (@x402/fetch 2.27.0 and
// @x402/evm's ExactEvmScheme over a viem account) on geth --dev (eip155:1337, a network x402 v1
// has no name for, so the 402's v1 body is {}): the client pays the PAYMENT-REQUIRED header with
// PAYMENT-SIGNATURE, both stakes clear on chain and the match goes LIVE.
func TestStakeX402FetchV2(t *testing.T) {
	chain := evmtest.Start(t)
	r := newRig(t, chain)
	a, b := r.register(0x63, "diplomat"), r.register(0x64, "mirror")
	minted := map[x402.Address]int64{a.wallet: 3 * testStake, b.wallet: 3 * testStake}
	for w, v := range minted {
		chain.Mint(t, w, v)
	}
	id := r.pair(a, b)
	for i, p := range []player{a, b} {
		res, out := runClient(t, "pay2.mjs", map[string]any{"url": r.srv.URL + "/v1/warden/matches/" + id + "/stake",
			"token": p.token, "privateKey": fmt.Sprintf("0x%x", p.key.Serialize()),
			"network": fmt.Sprintf("eip155:%d", chain.ID), "asset": chain.Token.Address.String()})
		want := StatusStaking
		if i == 1 {
			want = StatusLive
		}
		if res.Status != 200 || res.Body["status"] != "cleared" || res.Body["match_status"] != want ||
			res.PaymentResponse["success"] != true || res.PaymentResponse["transaction"] != res.Body["ref"] {
			t.Fatalf("seat %d: %s", i, out)
		}
		if got := chain.Balance(t, p.wallet); got != 2*testStake {
			t.Fatalf("seat %d balance %d", i, got)
		}
	}
	var versions []int
	if err := r.store.WardenPayments(func(p storage.WardenPayment) error { versions = append(versions, p.Version); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(versions) != 2 || versions[0] != 2 || versions[1] != 2 {
		t.Fatalf("payment versions %v, want two x402 v2", versions)
	}
	r.invariant(minted)
}

// clientResult is what testclient's scripts print.
type clientResult struct {
	Status          int            `json:"status"`
	Body            map[string]any `json:"body"`
	PaymentResponse map[string]any `json:"paymentResponse"`
}

// runClient runs a testclient script with input on stdin and reads its result.
func runClient(t *testing.T, script string, input map[string]any) (clientResult, []byte) {
	t.Helper()
	dir := clientDir(t)
	in, _ := json.Marshal(input)
	cmd := exec.Command("node", filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	var res clientResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s printed %q", script, out)
	}
	return res, out
}

// clientDir is testclient/, installed from its lock (npm ci) when node_modules is missing, as
// scripts/install-test-deps.sh does.
func clientDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testclient")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "fetch")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	return dir
}
