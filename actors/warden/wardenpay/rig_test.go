package wardenpay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"arena/chain/evm"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/games/warden/feed"
	"arena/storage"
	"arena/storage/storagetest"
)

// rig is a Worker over a store on a real geth --dev with the EIP-3009 test token: the
// Warden's wallet (evmtest.Key(0x7e)) holds the escrow and has gas; stakes are real
// transferWithAuthorization transfers into it, recorded as the stake door records them.
type rig struct {
	t      *testing.T
	chain  *evmtest.Chain
	st     *storage.Store
	wallet *evm.Wallet
	w      *Worker
	start  int64 // the wallet's token balance before any stake

	mu   sync.Mutex
	now  time.Time
	hook func(string) error
}

func newRig(t *testing.T) *rig {
	t.Helper()
	chain := evmtest.Start(t)
	key, _ := evmtest.Key(0x7e)
	r := &rig{t: t, chain: chain, st: storagetest.Open(t, storage.Options{}), wallet: evm.NewWallet(key, chain.ID),
		now: time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	to := r.wallet.Address
	h, err := chain.Client.SendTransaction(ctx, evm.Tx{From: chain.Dev, To: &to, Value: big.NewInt(1e18)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Client.WaitReceipt(ctx, h); err != nil {
		t.Fatal(err)
	}
	r.w = r.worker()
	return r
}

// worker is a new Worker on the rig's store (a restart).
func (r *rig) worker() *Worker {
	return New(Options{Store: r.st, Client: r.chain.Client, Wallet: r.wallet, Token: r.chain.Token.Address,
		Now: r.clock, Poll: 10 * time.Millisecond, hook: func(s string) error {
			r.mu.Lock()
			h := r.hook
			r.mu.Unlock()
			if h != nil {
				return h(s)
			}
			return nil
		}})
}

func (r *rig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

func (r *rig) setHook(h func(string) error) {
	r.mu.Lock()
	r.hook = h
	r.mu.Unlock()
}

// pass runs one Worker pass and fails the test on its error.
func (r *rig) pass() {
	r.t.Helper()
	if err := r.w.Pass(context.Background()); err != nil {
		r.t.Fatalf("pass: %v", err)
	}
}

// contender is test contender b's address (evmtest.Key(b)).
func contenderAddr(b byte) x402.Address {
	_, a := evmtest.Key(b)
	return a
}

// match stores a STAKING match between contenders a and b (registered) with stake S, whose
// stake window closes in window.
func (r *rig) match(id string, a, b byte, stake int64, window time.Duration) {
	r.t.Helper()
	now := r.clock()
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error {
		for _, c := range []byte{a, b} {
			w := contenderAddr(c).String()
			if err := tx.Put("contender/"+w, map[string]any{"wallet": w, "temperament": "steadfast"}); err != nil {
				return err
			}
		}
		return tx.Put("match/"+id, map[string]any{"id": id, "game": "warden.dilemma", "stake": stake,
			"a": contenderAddr(a).String(), "b": contenderAddr(b).String(), "status": StatusStaking,
			"open_until_ms": now.UnixMilli(), "stake_deadline_ms": now.Add(window).UnixMilli()})
	}); err != nil {
		r.t.Fatal(err)
	}
}

// stake pays seat's stake of match for real: contender who signs an EIP-3009 authorization of
// amount to the wallet, the dev account relays it, and the payment record is written settled
// with the seat cleared (LIVE when both are), as the stake door's clearSeat does.
func (r *rig) stake(match, seat string, who byte, amount int64) string {
	r.t.Helper()
	ctx := context.Background()
	key, from := evmtest.Key(who)
	r.chain.Mint(r.t, from, amount)
	var nonce [32]byte
	_, _ = rand.Read(nonce[:])
	a := x402.Authorization{From: from, To: r.wallet.Address, Value: big.NewInt(amount), ValidAfter: big.NewInt(0),
		ValidBefore: big.NewInt(time.Now().Unix() + 600), Nonce: nonce}
	sig := evmtest.Sign(key, x402.Digest(x402.Domain{Name: "USDC", Version: "2", ChainID: r.chain.ID, VerifyingContract: r.chain.Token.Address}, a))
	rc, err := r.chain.Token.Settle(ctx, r.chain.Dev, &x402.Payment{Authorization: a, Signature: sig})
	if err != nil {
		r.t.Fatalf("stake transfer: %v", err)
	}
	k := x402.ReplayKey{ChainID: r.chain.ID, Contract: r.chain.Token.Address, From: from, Nonce: nonce}
	id := "wp_" + hex.EncodeToString(nonce[:8])
	rec := storage.WardenPayment{ID: id, Resource: "/v1/warden/matches/" + match + "/stake", Match: match, Seat: seat,
		Payer: from.String(), Amount: uint64(amount), Network: fmt.Sprintf("eip155:%d", r.chain.ID), Key: k.String(), Version: 2,
		Payload: []byte(`{"test":"stake"}`), Status: storage.WardenPaySettling, Created: r.clock().Unix()}
	if _, claimed, err := r.st.ClaimWardenPayment(k, rec); err != nil || !claimed {
		r.t.Fatalf("claim: %v %v", claimed, err)
	}
	rec.Status, rec.Tx = storage.WardenPaySettled, rc.TxHash
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error {
		if err := tx.PutPayment(rec); err != nil {
			return err
		}
		var m map[string]any
		if _, err := tx.Get("match/"+match, &m); err != nil {
			return err
		}
		stakes, _ := m["stakes"].(map[string]any)
		if stakes == nil {
			stakes = map[string]any{}
		}
		stakes[seat] = id
		m["stakes"] = stakes
		if len(stakes) == 2 && m["status"] == StatusStaking {
			m["status"] = "LIVE"
		}
		return tx.Put("match/"+match, m)
	}); err != nil {
		r.t.Fatal(err)
	}
	return id
}

// finish settles a LIVE match as the match actor does: FINISHED → SETTLING with the
// settlement queued, one write.
func (r *rig) finish(s Settlement) {
	r.t.Helper()
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error {
		if err := setMatchStatus(tx, s.Match, StatusSettling); err != nil {
			return err
		}
		return QueueSettlement(tx, s)
	}); err != nil {
		r.t.Fatal(err)
	}
}

// settlement is a match between test contenders a and b paid g (gross returns) with rake.
func settlement(match string, stake int64, g [2]int64, rakeBps int64, a, b byte) Settlement {
	s := finished(match, stake, g, rakeBps, side{contenderAddr(a).String(), "A", "steadfast"}, side{contenderAddr(b).String(), "B", "steadfast"})
	for i := range s.Rows {
		s.Rows[i].Network = "eip155:1337"
	}
	return s
}

// status is the match record's status.
func (r *rig) status(match string) string {
	r.t.Helper()
	var st string
	if err := r.st.WardenView(func(tx storage.WardenTx) error {
		var err error
		st, err = matchStatus(tx, match)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return st
}

func (r *rig) job(match, seat string) Job {
	r.t.Helper()
	var j Job
	if err := r.st.WardenView(func(tx storage.WardenTx) error {
		found, err := tx.Get(jobKey(match, seat), &j)
		if !found && err == nil {
			err = fmt.Errorf("no job %s/%s", match, seat)
		}
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return j
}

// audit is the ledger invariant (Audit) and the chain's agreement with it: the wallet holds
// what it held plus the stakes in less what was paid out and refunded, and each contender got
// on chain exactly its confirmed payouts and refunds; a signed job not yet confirmed may or may
// not have moved its amount yet, and nothing else may differ.
func (r *rig) audit(contenders ...byte) Books {
	r.t.Helper()
	b, err := Audit(r.st)
	if err != nil {
		r.t.Fatalf("ledger invariant: %v", err)
	}
	got, flying := map[string]int64{}, map[string]int64{}
	var inflight int64
	if err := r.st.WardenKeys("payoutq/", func(_ string, v []byte) error {
		var j Job
		if err := json.Unmarshal(v, &j); err != nil {
			return err
		}
		switch j.Status {
		case JobConfirmed:
			got[j.To] += int64(j.Amount)
		case JobSigned:
			flying[j.To] += int64(j.Amount)
			inflight += int64(j.Amount)
		}
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
	want := r.start + b.StakesIn - b.PaidOut - b.Refunded
	if bal := r.chain.Balance(r.t, r.wallet.Address); bal > want || bal < want-inflight {
		r.t.Fatalf("the wallet holds %d on chain; the books say %d (in %d, paid %d, refunded %d, in flight %d)",
			bal, want, b.StakesIn, b.PaidOut, b.Refunded, inflight)
	}
	for _, c := range contenders {
		a := contenderAddr(c).String()
		if bal := r.chain.Balance(r.t, contenderAddr(c)); bal < got[a] || bal > got[a]+flying[a] {
			r.t.Fatalf("contender %s holds %d on chain; its confirmed jobs pay %d (%d in flight)", a, bal, got[a], flying[a])
		}
	}
	return b
}

// events is match's Gallery events: each type, and the data of the last of each type.
func (r *rig) events(match string) ([]string, map[string]map[string]any) {
	r.t.Helper()
	var envs []feed.Envelope
	if err := r.st.WardenView(func(tx storage.WardenTx) error {
		var err error
		envs, err = tx.MatchFeed(match)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	var types []string
	data := map[string]map[string]any{}
	for _, e := range envs {
		types = append(types, e.Type)
		var d map[string]any
		if err := json.Unmarshal(e.Data, &d); err != nil {
			r.t.Fatal(err)
		}
		data[e.Type] = d
		if e.Game != "warden.dilemma" {
			r.t.Errorf("event %s names game %q", e.Type, e.Game)
		}
	}
	return types, data
}

// count is how often typ is in types.
func count(types []string, typ string) int {
	n := 0
	for _, t := range types {
		if t == typ {
			n++
		}
	}
	return n
}
