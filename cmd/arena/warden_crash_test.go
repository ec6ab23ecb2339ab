package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
	"arena/transport/warden"
)

const wardenTestStake = 1_000_000

// sendGate is a JSON-RPC proxy in front of a real geth: every call passes through, and while
// armed the first eth_sendTransaction is forwarded to the node, its answer withheld, and sent
// signalled: the transfer is on the chain and the Warden has not heard it was.
type sendGate struct {
	armed atomic.Bool
	sent  chan struct{}
}

func newSendGate(t *testing.T, node string) (*sendGate, string) {
	g := &sendGate{sent: make(chan struct{})}
	target, _ := url.Parse(node)
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var call struct {
			Method string `json:"method"`
		}
		json.Unmarshal(raw, &call)
		if call.Method == "eth_sendTransaction" && g.armed.CompareAndSwap(true, false) {
			req, _ := http.NewRequest(http.MethodPost, node, bytes.NewReader(raw))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("gate: forward eth_sendTransaction: %v", err)
				return
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Contains(answer, []byte(`"result":"0x`)) {
				t.Errorf("gate: geth refused the transfer: %s", answer)
			}
			close(g.sent)
			<-r.Context().Done() // the Warden is killed before it hears the hash
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return g, srv.URL
}

// wardenClient speaks to the Warden site of a running `arena serve` (by its Host name).
type wardenClient struct {
	t    *testing.T
	base string
}

// do sends a request; err is a transport error (no answer).
func (w *wardenClient) do(method, path, token string, body any, hdr map[string]string) (int, http.Header, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.base+path, rd)
	req.Host = "warden.localhost"
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
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return resp.StatusCode, resp.Header, out, nil
}

func (w *wardenClient) must(method, path, token string, body any, hdr map[string]string, status int) (http.Header, map[string]any) {
	w.t.Helper()
	st, h, out, err := w.do(method, path, token, body, hdr)
	if err != nil || st != status {
		w.t.Fatalf("%s %s: %d %v %v, want %d", method, path, st, out, err, status)
	}
	return h, out
}

type contender struct {
	key    *secp256k1.PrivateKey
	wallet x402.Address
	token  string
}

func (w *wardenClient) register(b byte) contender {
	w.t.Helper()
	key, wallet := evmtest.Key(b)
	_, ch := w.must("GET", "/v1/warden/challenge", "", nil, nil, 200)
	sig := evmtest.Sign(key, warden.PersonalDigest(warden.RegistrationText(wallet.String(), "steadfast", ch["challenge"].(string))))
	_, out := w.must("POST", "/v1/warden/contenders", "", map[string]any{"wallet": wallet.String(), "temperament": "steadfast",
		"challenge": ch["challenge"], "signature": fmt.Sprintf("0x%x", sig)}, nil, 201)
	return contender{key: key, wallet: wallet, token: out["token"].(string)}
}

// payment is what an x402 v2 client sends for the 402 of match id: it asks for the stake,
// takes the one offer of PAYMENT-REQUIRED, and signs an EIP-3009 authorization of it with nonce n.
func (w *wardenClient) payment(c contender, id string, chainID uint64, n byte) map[string]string {
	w.t.Helper()
	h, body := w.must("POST", "/v1/warden/matches/"+id+"/stake", c.token, nil, nil, 402)
	if body["error"] != "payment_required" {
		w.t.Fatalf("402 body %v", body)
	}
	raw, err := base64.StdEncoding.DecodeString(h.Get("PAYMENT-REQUIRED"))
	var req struct {
		Accepts []json.RawMessage `json:"accepts"`
	}
	if err != nil || json.Unmarshal(raw, &req) != nil || len(req.Accepts) != 1 {
		w.t.Fatalf("PAYMENT-REQUIRED %q: %v", raw, err)
	}
	var offer struct {
		Asset, PayTo, Amount string
	}
	json.Unmarshal(req.Accepts[0], &offer)
	asset, _ := x402.ParseAddress(offer.Asset)
	payTo, _ := x402.ParseAddress(offer.PayTo)
	value, _ := new(big.Int).SetString(offer.Amount, 10)
	now := time.Now().Unix()
	var nonce [32]byte
	for i := range nonce {
		nonce[i] = n ^ byte(i) ^ c.wallet[0]
	}
	a := x402.Authorization{From: c.wallet, To: payTo, Value: value, ValidAfter: big.NewInt(now - 60),
		ValidBefore: big.NewInt(now + 600), Nonce: nonce}
	sig := evmtest.Sign(c.key, x402.Digest(x402.Domain{Name: "USDC", Version: "2", ChainID: chainID, VerifyingContract: asset}, a))
	p := fmt.Appendf(nil, `{"x402Version":2,"accepted":%s,"payload":{"authorization":{"from":"%s","to":"%s","value":"%s","validAfter":"%s","validBefore":"%s","nonce":"0x%x"},"signature":"0x%x"}}`,
		req.Accepts[0], a.From, a.To, a.Value, a.ValidAfter, a.ValidBefore, a.Nonce, sig)
	return map[string]string{"PAYMENT-SIGNATURE": base64.StdEncoding.EncodeToString(p)}
}

// TestWardenStakeSurvivesKill9: `arena serve` with a stake rail on a real geth --dev. Two
// Contenders register and pair; A pays its stake, and the server is killed (SIGKILL) right
// after the node accepted the transferWithAuthorization and before the Warden heard its hash.
// Restarted on the same data, serve recovers the payment before it answers: the transfer is on
// chain exactly once, A's retry of the same payment answers the one settlement, B's stake
// clears the match to LIVE, and the Ledger of payments agrees with the chain (each settled
// record is one stake on payTo and one off its payer, and clears its seat).
func TestWardenStakeSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev and kills the binary mid-payment")
	}
	bin := buildArena(t)
	chain := evmtest.Start(t)
	gate, rpc := newSendGate(t, chain.URL)
	_, payTo := evmtest.Key(0x7e)
	data := filepath.Join(t.TempDir(), "data")
	args := []string{"--warden-evm-rpc", rpc, "--warden-evm-chain-id", strconv.FormatUint(chain.ID, 10),
		"--warden-evm-token", chain.Token.Address.String(), "--warden-evm-relayer", chain.Dev.String(),
		"--warden-evm-pay-to", payTo.String()}
	s := startServeArgs(t, bin, data, args, nil)
	w := &wardenClient{t: t, base: s.url}

	a, b := w.register(0x41), w.register(0x42)
	const minted = 5 * wardenTestStake
	chain.Mint(t, a.wallet, minted)
	chain.Mint(t, b.wallet, minted)
	_, o := w.must("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil, 201)
	id := o["match_id"].(string)
	w.must("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil, 200)

	payA := w.payment(a, id, chain.ID, 1)
	gate.armed.Store(true)
	answered := make(chan error, 1)
	go func() {
		st, _, out, err := w.do("POST", "/v1/warden/matches/"+id+"/stake", a.token, nil, payA)
		if err == nil {
			err = fmt.Errorf("answered %d %v", st, out)
		}
		answered <- err
	}()
	select {
	case <-gate.sent:
	case err := <-answered:
		t.Fatalf("the stake was answered before its transfer was sent: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("no eth_sendTransaction within 2m")
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	if err := <-answered; err == nil || bytes.Contains([]byte(err.Error()), []byte("answered")) {
		t.Fatalf("the killed server answered the stake: %v", err)
	}

	s = startServeArgs(t, bin, data, args, nil)
	w.base = s.url
	// Recovered before the first answer: the seat is cleared already, and the retry of the same
	// payment is its one settlement.
	_, pub := w.must("GET", "/v1/warden/matches/"+id, "", nil, nil, 200)
	if staked, _ := pub["staked"].([]any); pub["status"] != "STAKING" || len(staked) != 1 || staked[0] != "A" {
		t.Errorf("after restart, before any retry: %v, want A staked (recovered at start)", pub)
	}
	if got := chain.Balance(t, payTo); got != wardenTestStake {
		t.Fatalf("payTo holds %d after the crash, want one stake %d", got, wardenTestStake)
	}
	_, first := w.must("POST", "/v1/warden/matches/"+id+"/stake", a.token, nil, payA, 200)
	_, again := w.must("POST", "/v1/warden/matches/"+id+"/stake", a.token, nil, payA, 200)
	if first["seat"] != "A" || first["ref"] == nil || first["ref"] != again["ref"] || first["amount"] != float64(wardenTestStake) {
		t.Errorf("A's retries: %v then %v", first, again)
	}
	if got := chain.Balance(t, payTo); got != wardenTestStake {
		t.Fatalf("payTo holds %d after one stake, want %d", got, wardenTestStake)
	}
	_, cleared := w.must("POST", "/v1/warden/matches/"+id+"/stake", b.token, nil, w.payment(b, id, chain.ID, 2), 200)
	if cleared["seat"] != "B" || cleared["ref"] == first["ref"] {
		t.Errorf("B's stake: %v", cleared)
	}
	if _, pub = w.must("GET", "/v1/warden/matches/"+id, "", nil, nil, 200); pub["status"] != "LIVE" {
		t.Errorf("after both stakes: %v", pub)
	}
	s.stop()

	// The invariant, over the store serve left and the chain.
	st, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var recs []storage.WardenPayment
	if err := st.WardenPayments(func(p storage.WardenPayment) error { recs = append(recs, p); return nil }); err != nil {
		t.Fatal(err)
	}
	settled, perPayer, n := int64(0), map[string]int64{}, map[string]int{}
	for _, p := range recs {
		n[p.Status]++
		if p.Status == storage.WardenPaySettled {
			settled += int64(p.Amount)
			perPayer[p.Payer] += int64(p.Amount)
			var m warden.Match
			if err := st.WardenView(func(tx storage.WardenTx) error { _, err := tx.Get("match/"+p.Match, &m); return err }); err != nil {
				t.Fatal(err)
			}
			if m.Stakes[p.Seat] != p.ID {
				t.Errorf("settled %s: seat %s cleared by %q", p.ID, p.Seat, m.Stakes[p.Seat])
			}
		}
	}
	if n[storage.WardenPaySettled] != 2 || len(n) != 1 {
		t.Errorf("payment records by status: %v, want 2 settled", n)
	}
	if got := chain.Balance(t, payTo); got != settled || settled != 2*wardenTestStake {
		t.Errorf("payTo holds %d, settled records %d", got, settled)
	}
	for _, c := range []contender{a, b} {
		if paid := minted - chain.Balance(t, c.wallet); paid != perPayer[c.wallet.String()] || paid != wardenTestStake {
			t.Errorf("%s paid %d on chain, settled records %d", c.wallet, paid, perPayer[c.wallet.String()])
		}
	}
	if err := st.Check(); err != nil {
		t.Errorf("store check: %v", err)
	}
}
