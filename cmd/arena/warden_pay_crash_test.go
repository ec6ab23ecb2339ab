package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
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
	"syscall"
	"testing"
	"time"

	"arena/actors/warden/wardenpay"
	"arena/chain/evm"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

// rawGate is a JSON-RPC proxy in front of a real geth that watches eth_sendRawTransaction (the
// Warden wallet's payouts and refunds). Armed with hold, the next one is forwarded to the node
// and its answer withheld (the transfer is on chain, the Warden has not heard so); armed with
// drop, it is not forwarded at all (signed and stored, never sent). Either way sent is
// signalled and the Warden is then killed.
type rawGate struct {
	mode atomic.Value // "", "hold" or "drop"
	sent chan struct{}
}

func newRawGate(t *testing.T, node string) (*rawGate, string) {
	g := &rawGate{sent: make(chan struct{})}
	g.mode.Store("")
	target, _ := url.Parse(node)
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var call struct {
			Method string `json:"method"`
		}
		json.Unmarshal(raw, &call)
		if call.Method == "eth_sendRawTransaction" {
			if mode := g.mode.Load().(string); mode != "" && g.mode.CompareAndSwap(mode, "") {
				if mode == "hold" {
					req, _ := http.NewRequest(http.MethodPost, node, bytes.NewReader(raw))
					req.Header.Set("Content-Type", "application/json")
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Errorf("gate: forward: %v", err)
						return
					}
					answer, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if !bytes.Contains(answer, []byte(`"result":"0x`)) {
						t.Errorf("gate: geth refused the payout: %s", answer)
					}
				}
				close(g.sent)
				<-r.Context().Done() // the Warden is killed before it hears anything
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return g, srv.URL
}

// payRig is `arena serve` with a stake rail and the Warden's wallet (evmtest.Key(0x7e), given
// as warden.evm.wallet_key in the environment, funded with gas) on a real geth --dev, behind
// a rawGate.
type payRig struct {
	t      *testing.T
	bin    string
	chain  *evmtest.Chain
	gate   *rawGate
	data   string
	args   []string
	env    []string
	wallet x402.Address
	s      *server
	w      *wardenClient
}

func newPayRig(t *testing.T) *payRig {
	t.Helper()
	bin := buildArena(t)
	chain := evmtest.Start(t)
	gate, rpc := newRawGate(t, chain.URL)
	key, wallet := evmtest.Key(0x7e)
	ctx := context.Background()
	h, err := chain.Client.SendTransaction(ctx, evm.Tx{From: chain.Dev, To: &wallet, Value: big.NewInt(1e18)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Client.WaitReceipt(ctx, h); err != nil {
		t.Fatal(err)
	}
	r := &payRig{t: t, bin: bin, chain: chain, gate: gate, data: filepath.Join(t.TempDir(), "data"), wallet: wallet,
		args: []string{"--warden-evm-rpc", rpc, "--warden-evm-chain-id", strconv.FormatUint(chain.ID, 10),
			"--warden-evm-token", chain.Token.Address.String(), "--warden-evm-relayer", chain.Dev.String(),
			"--warden-evm-pay-to", wallet.String()},
		env: []string{"ARENA_WARDEN_EVM_WALLET_KEY=" + hex.EncodeToString(key.Serialize())}}
	r.start()
	return r
}

func (r *payRig) start() {
	r.s = startServeArgs(r.t, r.bin, r.data, r.args, r.env)
	if r.w == nil {
		r.w = &wardenClient{t: r.t}
	}
	r.w.base = r.s.url
}

func (r *payRig) kill() {
	r.t.Helper()
	if err := r.s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		r.t.Fatal(err)
	}
	r.s.cmd.Wait()
}

// staked is a match a and b opened, joined and, for each seat in stakes, staked for real.
func (r *payRig) staked(a, b contender, stakes string) string {
	r.t.Helper()
	for _, c := range []contender{a, b} {
		r.chain.Mint(r.t, c.wallet, wardenTestStake)
	}
	_, o := r.w.must("POST", "/v1/warden/matches", a.token, map[string]any{"game": "warden.dilemma", "stake": wardenTestStake}, nil, 201)
	id := o["match_id"].(string)
	r.w.must("POST", "/v1/warden/matches/"+id+"/join", b.token, nil, nil, 200)
	for i, c := range []contender{a, b} {
		if strings.Contains(stakes, "AB"[i:i+1]) {
			r.w.must("POST", "/v1/warden/matches/"+id+"/stake", c.token, nil, r.w.payment(c, id, r.chain.ID, byte(i+1)), 200)
		}
	}
	return id
}

// offline runs fn on the store while serve is stopped.
func (r *payRig) offline(fn func(*storage.Store)) {
	r.t.Helper()
	r.s.stop()
	st, err := storage.Open(filepath.Join(r.data, "arena.db"), storage.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	fn(st)
	if err := st.Close(); err != nil {
		r.t.Fatal(err)
	}
}

// until polls the public match view until the match is status (a minute at most).
func (r *payRig) until(id, status string) {
	r.t.Helper()
	var last map[string]any
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, last = r.w.must("GET", "/v1/warden/matches/"+id, "", nil, nil, 200); last["status"] == status {
			return
		}
	}
	r.t.Fatalf("match %s: %v, want %s", id, last, status)
}

// audit stops serve and checks the ledger invariant on its store and the chain: for every
// match stakes in = payouts + refunds + house (wardenpay.Audit), the wallet holds exactly the
// stakes in less what left, and each contender holds what it was minted, less its stakes,
// plus its confirmed payouts and refunds.
func (r *payRig) audit(minted map[x402.Address]int64) wardenpay.Books {
	r.t.Helper()
	r.s.stop()
	st, err := storage.Open(filepath.Join(r.data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		r.t.Fatal(err)
	}
	defer st.Close()
	b, err := wardenpay.Audit(st)
	if err != nil {
		r.t.Fatalf("ledger invariant: %v", err)
	}
	if got, want := r.chain.Balance(r.t, r.wallet), b.StakesIn-b.PaidOut-b.Refunded; got != want {
		r.t.Fatalf("the wallet holds %d on chain, the books %d (%+v)", got, want, b)
	}
	staked, back := map[string]int64{}, map[string]int64{}
	if err := st.WardenPayments(func(p storage.WardenPayment) error {
		if p.Status == storage.WardenPaySettled {
			staked[p.Payer] += int64(p.Amount)
		}
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
	if err := st.WardenKeys("payoutq/", func(_ string, v []byte) error {
		var j wardenpay.Job
		if err := json.Unmarshal(v, &j); err != nil {
			return err
		}
		if j.Status == wardenpay.JobSigned {
			r.t.Errorf("job %s/%s still in flight at the audit", j.Match, j.Seat)
		}
		if j.Status == wardenpay.JobConfirmed {
			back[j.To] += int64(j.Amount)
		}
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
	for a, m := range minted {
		if got, want := r.chain.Balance(r.t, a), m-staked[a.String()]+back[a.String()]; got != want {
			r.t.Errorf("%s holds %d on chain, want minted %d − staked %d + paid back %d", a, got, m, staked[a.String()], back[a.String()])
		}
	}
	if err := st.Check(); err != nil {
		r.t.Errorf("store check: %v", err)
	}
	return b
}

// accord is the settlement of a Game II ACCORD (both cooperate, 45/45 of the bank 2S, rake 0,
// §4.2): each seat's gross 900 000 paid out, the house 200 000.
func accord(id string, a, b contender, startedAt string) wardenpay.Settlement {
	s := wardenpay.Settlement{Match: id, Network: "eip155:1337"}
	for i, c := range []contender{a, b} {
		seat, opp := "AB"[i:i+1], []contender{b, a}[i]
		s.Rows[i] = storage.WardenRow{RowID: "wl_" + id + "_" + seat, MatchID: id, Game: "warden.dilemma", RulesVersion: "warden.dilemma/1",
			Seat: seat, ContenderID: c.wallet.String(), Name: seat, Temperament: "steadfast", OpponentID: opp.wallet.String(),
			OpponentTemperament: "steadfast", Stake: wardenTestStake, StakeRail: "exact", StakeRef: "0x" + strings.Repeat("1", 64),
			GrossReturn: 900_000, PaidOut: 900_000, Net: -100_000, Result: "draw", HouseShare: 100_000,
			StartedAt: startedAt, FinishedAt: startedAt, SeedHash: "sha256:" + strings.Repeat("6", 64),
			LogHash: "sha256:" + strings.Repeat("7", 64), Network: "eip155:1337"}
	}
	return s
}

// finish does what the match actor does when a match ends: FINISHED → SETTLING with its
// settlement queued, one write (here on the store of the stopped server).
func finish(t *testing.T, st *storage.Store, s wardenpay.Settlement) {
	t.Helper()
	if err := st.WardenUpdate(func(tx storage.WardenTx) error {
		var m map[string]any
		if _, err := tx.Get("match/"+s.Match, &m); err != nil {
			return err
		}
		if m["status"] != "LIVE" {
			t.Errorf("match %s is %v, want LIVE", s.Match, m["status"])
		}
		m["status"] = "SETTLING"
		if err := tx.Put("match/"+s.Match, m); err != nil {
			return err
		}
		return wardenpay.QueueSettlement(tx, s)
	}); err != nil {
		t.Fatal(err)
	}
}

// TestWardenPayoutsSurviveKill9: a match both Contenders staked for real is finished and its
// payouts queued; `arena serve` is killed (SIGKILL) at the first payout, either after it was
// signed and stored and before it reached the node ("before payout"), or after the node took
// it and before the Warden heard its hash or receipt ("between submission and receipt").
// Restarted on the same data, serve sends the stored transaction again (the same hash): each
// Contender is paid 900 000 exactly once, both Ledger rows appear only once every payout has
// confirmed, the match is SETTLED, and the books agree with the chain.
func TestWardenPayoutsSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev and kills the binary mid-payout")
	}
	for _, mode := range []string{"drop", "hold"} {
		name := map[string]string{"drop": "before payout", "hold": "between submission and receipt"}[mode]
		t.Run(name, func(t *testing.T) {
			r := newPayRig(t)
			a, b := r.w.register(0x41), r.w.register(0x42)
			id := r.staked(a, b, "AB")
			r.until(id, "LIVE")
			r.offline(func(st *storage.Store) {
				finish(t, st, accord(id, a, b, time.Now().UTC().Format("2006-01-02T15:04:05.000Z")))
				if h, _ := st.WardenHead(); h.Seq != 0 {
					t.Fatal("a Ledger row before any payout")
				}
			})
			r.gate.mode.Store(mode)
			r.start()
			select {
			case <-r.gate.sent:
			case <-time.After(time.Minute):
				t.Fatal("no payout sent within a minute")
			}
			r.kill()

			var before wardenpay.Job
			var seat string
			r.offline0(func(st *storage.Store) {
				if h, _ := st.WardenHead(); h.Seq != 0 {
					t.Fatal("a Ledger row with a payout unconfirmed")
				}
				if _, err := wardenpay.Audit(st); err != nil {
					t.Fatalf("ledger invariant after the kill: %v", err)
				}
				if err := st.WardenKeys("payoutq/"+id+"/", func(_ string, v []byte) error {
					var j wardenpay.Job
					json.Unmarshal(v, &j)
					if j.Status == wardenpay.JobSigned {
						before, seat = j, j.Seat
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			})
			if before.Tx == "" {
				t.Fatal("no signed job stored before the send")
			}
			var mined bool
			if h, err := hex.DecodeString(before.Tx[2:]); err == nil {
				var hh [32]byte
				copy(hh[:], h)
				_, mined, _ = r.chain.Client.TransactionReceipt(context.Background(), hh)
			}
			if mined != (mode == "hold") {
				t.Fatalf("mode %s: the payout is mined %v", mode, mined)
			}

			r.start()
			r.until(id, "SETTLED")
			bk := r.audit(map[x402.Address]int64{a.wallet: wardenTestStake, b.wallet: wardenTestStake})
			if bk.StakesIn != 2*wardenTestStake || bk.PaidOut != 1_800_000 || bk.House != 200_000 || bk.Refunded != 0 {
				t.Fatalf("books %+v", bk)
			}
			for _, c := range []contender{a, b} {
				if got := r.chain.Balance(t, c.wallet); got != 900_000 {
					t.Errorf("%s holds %d, want its 900000 once", c.wallet, got)
				}
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
			i := map[string]int{"A": 0, "B": 1}[seat]
			if rows[i].PayoutRef == nil || *rows[i].PayoutRef != before.Tx {
				t.Errorf("row %s pays by %v; the killed server signed %s", seat, rows[i].PayoutRef, before.Tx)
			}
		})
	}
}

// offline0 opens the store of a server that is not running (killed) and runs fn on it.
func (r *payRig) offline0(fn func(*storage.Store)) {
	r.t.Helper()
	st, err := storage.Open(filepath.Join(r.data, "arena.db"), storage.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	fn(st)
	if err := st.Close(); err != nil {
		r.t.Fatal(err)
	}
}

// TestWardenRefundAfterStakeWindowSurvivesKill9: A stakes, B does not, and the stake window
// closes (the deadline is moved into the past on the stopped server's store, as two minutes
// passing would). serve cancels the match, counts B's stake timeout and refunds A's whole
// stake; killed between the refund's submission and its receipt and restarted, it refunds A
// exactly once and closes the match. No Ledger row; the books agree with the chain.
func TestWardenRefundAfterStakeWindowSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev and kills the binary mid-refund")
	}
	r := newPayRig(t)
	a, b := r.w.register(0x43), r.w.register(0x44)
	id := r.staked(a, b, "A")
	r.offline(func(st *storage.Store) {
		if err := st.WardenUpdate(func(tx storage.WardenTx) error {
			var m map[string]any
			if _, err := tx.Get("match/"+id, &m); err != nil {
				return err
			}
			if m["status"] != "STAKING" {
				t.Errorf("status %v", m["status"])
			}
			m["stake_deadline_ms"] = time.Now().Add(-time.Minute).UnixMilli()
			return tx.Put("match/"+id, m)
		}); err != nil {
			t.Fatal(err)
		}
	})
	r.gate.mode.Store("hold")
	r.start()
	select {
	case <-r.gate.sent:
	case <-time.After(time.Minute):
		t.Fatal("no refund sent within a minute")
	}
	r.kill()
	r.start()
	r.until(id, "CLOSED")
	// A stake after the window is refused before any money moves.
	st, _, out, err := r.w.do("POST", "/v1/warden/matches/"+id+"/stake", b.token, nil, nil)
	if err != nil || st == 200 || st == 402 || out["error"] != "wrong_state" {
		t.Errorf("B's late stake: %d %v %v, want wrong_state without a 402", st, out, err)
	}
	bk := r.audit(map[x402.Address]int64{a.wallet: wardenTestStake, b.wallet: wardenTestStake})
	if bk.StakesIn != wardenTestStake || bk.Refunded != wardenTestStake || bk.PaidOut != 0 || bk.House != 0 {
		t.Fatalf("books %+v", bk)
	}
	if got := r.chain.Balance(t, a.wallet); got != wardenTestStake {
		t.Fatalf("A holds %d, want its stake back once", got)
	}
	sto, err := storage.Open(filepath.Join(r.data, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sto.Close()
	var c struct {
		StakeTimeouts int64 `json:"stake_timeouts"`
	}
	if err := sto.WardenView(func(tx storage.WardenTx) error {
		_, err := tx.Get("contender/"+b.wallet.String(), &c)
		return err
	}); err != nil || c.StakeTimeouts != 1 {
		t.Fatalf("B's stake_timeouts %d, %v", c.StakeTimeouts, err)
	}
	if h, _ := sto.WardenHead(); h.Seq != 0 {
		t.Fatal("a canceled match wrote a Ledger row")
	}
}

// TestWardenGameIIPaysOutOnChain: a whole Game II over the REST doors with the Warden's
// wallet configured: both Contenders stake for real, A commits DEFECT and B COOPERATE
// (BETRAYAL, §4.2), the match actor settles it (A gross 1 300 000, B 300 000, house 400 000,
// no rake) and queues the payouts, the Worker pays them on chain, and only then both Ledger
// rows appear and the match is SETTLED; the books agree with the chain.
func TestWardenGameIIPaysOutOnChain(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs geth --dev")
	}
	r := newPayRig(t)
	a, b := r.w.register(0x45), r.w.register(0x46)
	id := r.staked(a, b, "AB")
	for _, mv := range []struct {
		c      contender
		choice string
	}{{a, "DEFECT"}, {b, "COOPERATE"}} {
		_, act := r.w.must("POST", "/v1/warden/matches/"+id+"/actions", mv.c.token,
			map[string]any{"round": 1, "action": "commit", "args": map[string]any{"choice": mv.choice}}, nil, 200)
		if act["accepted"] != true {
			t.Fatalf("commit %s: %v", mv.choice, act)
		}
	}
	r.until(id, "SETTLED")
	if ga, gb := r.chain.Balance(t, a.wallet), r.chain.Balance(t, b.wallet); ga != 1_300_000 || gb != 300_000 {
		t.Fatalf("paid on chain A %d B %d, want 1300000 and 300000", ga, gb)
	}
	bk := r.audit(map[x402.Address]int64{a.wallet: wardenTestStake, b.wallet: wardenTestStake})
	if bk.StakesIn != 2*wardenTestStake || bk.PaidOut != 1_600_000 || bk.House != 400_000 {
		t.Fatalf("books %+v", bk)
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
	if rows[0].Net != 300_000 || rows[0].Result != "win" || rows[1].Net != -700_000 || rows[1].Result != "loss" ||
		rows[0].PayoutRef == nil || rows[1].PayoutRef == nil || rows[0].SettledAt == "" {
		t.Fatalf("rows %+v %+v", rows[0], rows[1])
	}
	if agg, err := st.WardenAggregate(a.wallet.String(), false); err != nil || agg.Matches != 1 || agg.Wins != 1 || agg.NetTotal != 300_000 {
		t.Fatalf("A's aggregate %+v, %v", agg, err)
	}
}
