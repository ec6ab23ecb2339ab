package wardenpay

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"arena/chain/evm"
	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

const stakeS = 1_000_000

// errCrash stands for the process dying at a hook.
var errCrash = errors.New("crash")

// until runs passes until match reaches want (for at most a minute: the chain mines each
// transaction as it arrives), auditing after each.
func (r *rig) until(match, want string, contenders ...byte) {
	r.t.Helper()
	r.untilf(func() bool { return r.status(match) == want }, contenders...)
	if st := r.status(match); st != want {
		r.t.Fatalf("match %s is %s, want %s", match, st, want)
	}
}

// untilf runs passes until done (for at most a minute), auditing after each.
func (r *rig) untilf(done func() bool, contenders ...byte) {
	r.t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		r.pass()
		r.audit(contenders...)
		if done() {
			return
		}
	}
}

// auditHook audits at every money step, so no step can have written a Ledger row (or moved
// money the books do not show) before its payouts confirmed.
func (r *rig) auditHook(contenders ...byte) {
	r.setHook(func(string) error {
		if _, err := Audit(r.st); err != nil {
			r.t.Errorf("ledger invariant mid-pass: %v", err)
		}
		return nil
	})
}

// TestWorkerPaysOutAndSettles: §12.1's example on chain. Both stakes are in the wallet; the
// settlement queues A's 725 000 and B's 1 004 750; the Worker signs each at its own nonce,
// the chain moves exactly those amounts, and only then one write appends both Ledger rows
// (payout_ref the confirmed hashes, settled_at set), folds the aggregates and marks the match
// SETTLED; the house keeps 270 250 in the wallet.
func TestWorkerPaysOutAndSettles(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000a1"
	r.match(m, 0x41, 0x42, stakeS, 2*time.Minute)
	r.stake(m, "A", 0x41, stakeS)
	r.stake(m, "B", 0x42, stakeS)
	if r.status(m) != "LIVE" {
		t.Fatalf("status %s", r.status(m))
	}
	r.auditHook(0x41, 0x42)
	r.finish(settlement(m, stakeS, [2]int64{725_000, 1_005_000}, 500, 0x41, 0x42))
	if h, _ := r.st.WardenHead(); h.Seq != 0 {
		t.Fatal("a row before any payout")
	}
	r.until(m, StatusSettled, 0x41, 0x42)
	if a, b := r.chain.Balance(t, contenderAddr(0x41)), r.chain.Balance(t, contenderAddr(0x42)); a != 725_000 || b != 1_004_750 {
		t.Fatalf("paid on chain %d and %d, want 725000 and 1004750", a, b)
	}
	if got := r.chain.Balance(t, r.wallet.Address); got != 270_250 {
		t.Fatalf("the wallet keeps %d, want the house's 270250", got)
	}
	rows, err := r.st.WardenMatch(m)
	if err != nil {
		t.Fatal(err)
	}
	ja, jb := r.job(m, "A"), r.job(m, "B")
	if *rows[0].PayoutRef != ja.Tx || *rows[1].PayoutRef != jb.Tx || ja.Nonce == jb.Nonce || rows[0].SettledAt == "" || rows[0].SettledAt != rows[1].SettledAt {
		t.Fatalf("rows %+v %+v, jobs %+v %+v", rows[0], rows[1], ja, jb)
	}
	if rows[1].Net != 4_750 || rows[1].Result != "win" || rows[0].Result != "loss" || rows[0].Seq != 1 || rows[1].Seq != 2 {
		t.Fatalf("rows %+v %+v", rows[0], rows[1])
	}
	agg, err := r.st.WardenAggregate(contenderAddr(0x42).String(), false)
	if err != nil || agg.Matches != 1 || agg.NetTotal != 4_750 || agg.PaidOutTotal != 1_004_750 {
		t.Fatalf("B's aggregate %+v, %v", agg, err)
	}
	var left bool
	if err := r.st.WardenView(func(tx storage.WardenTx) error {
		left, err = tx.Get(settleKey(m), new(pending))
		return err
	}); err != nil || left {
		t.Fatalf("settle/%s still there (%v)", m, err)
	}
	b := r.audit(0x41, 0x42)
	if b.StakesIn != 2*stakeS || b.PaidOut != 1_729_750 || b.House != 270_250 || b.Refunded != 0 {
		t.Fatalf("books %+v", b)
	}
	// The Gallery saw each payout sent and confirmed, then match_settled last, with the rows,
	// the Ledger head and both standings after the match.
	types, data := r.events(m)
	if count(types, "payout_sent") != 2 || count(types, "payout_confirmed") != 2 || types[len(types)-1] != "match_settled" {
		t.Fatalf("events %v", types)
	}
	settled := data["match_settled"]
	if rowsSeq, _ := json.Marshal(settled["ledger_rows"]); string(rowsSeq) != "[1,2]" || settled["ledger_head"].(map[string]any)["row_hash"] != rows[1].RowHash {
		t.Fatalf("match_settled %v", settled)
	}
	if sb := settled["standing_after"].(map[string]any)["B"].(map[string]any); sb["tier"] != "ELITE" || sb["matches"] != 1.0 || sb["net_total"] != 4750.0 || sb["win_rate_bps"] != 10000.0 {
		t.Fatalf("B's standing after %v", sb)
	}
	// More passes change nothing: nothing is paid twice.
	r.pass()
	r.pass()
	if a, b := r.chain.Balance(t, contenderAddr(0x41)), r.chain.Balance(t, contenderAddr(0x42)); a != 725_000 || b != 1_004_750 {
		t.Fatalf("paid again: %d and %d", a, b)
	}
}

// TestWorkerZeroPayoutsSettleAtOnce: a match whose payouts are all zero (the house keeps the
// bank) settles on the next pass with no transaction; a zero seat beside a paid one gets no
// job and a null payout_ref.
func TestWorkerZeroPayoutsSettleAtOnce(t *testing.T) {
	r := newRig(t)
	const m, m2 = "wm_00000000000000a2", "wm_00000000000000a3"
	r.match(m, 0x43, 0x44, stakeS, time.Minute)
	r.stake(m, "A", 0x43, stakeS)
	r.stake(m, "B", 0x44, stakeS)
	r.finish(settlement(m, stakeS, [2]int64{0, 0}, 0, 0x43, 0x44))
	r.pass()
	if r.status(m) != StatusSettled {
		t.Fatalf("status %s", r.status(m))
	}
	rows, err := r.st.WardenMatch(m)
	if err != nil || rows[0].PayoutRef != nil || rows[1].PayoutRef != nil || rows[0].HouseShare != stakeS {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	r.match(m2, 0x45, 0x46, stakeS, time.Minute)
	r.stake(m2, "A", 0x45, stakeS)
	r.stake(m2, "B", 0x46, stakeS)
	r.finish(settlement(m2, stakeS, [2]int64{0, 2 * stakeS}, 500, 0x45, 0x46))
	r.until(m2, StatusSettled, 0x43, 0x44, 0x45, 0x46)
	rows, _ = r.st.WardenMatch(m2)
	if rows[0].PayoutRef != nil || rows[1].PayoutRef == nil || r.chain.Balance(t, contenderAddr(0x46)) != 1_950_000 {
		t.Fatalf("rows %+v", rows)
	}
	if b := r.audit(0x43, 0x44, 0x45, 0x46); b.House != 2*stakeS+50_000 {
		t.Fatalf("books %+v", b)
	}
}

// TestWorkerCrashBetweenSigningAndSending / …AfterSending: a Worker that dies once a job's
// transaction is stored (not sent), or sent (no receipt read), is replaced by a new one on the
// same store: it sends the very same bytes (same hash, same nonce), and the contender is paid
// exactly once.
func TestWorkerCrashAroundSending(t *testing.T) {
	for _, at := range []string{"signed", "sent"} {
		t.Run(at, func(t *testing.T) {
			r := newRig(t)
			const m = "wm_00000000000000a4"
			r.match(m, 0x47, 0x48, stakeS, time.Minute)
			r.stake(m, "A", 0x47, stakeS)
			r.stake(m, "B", 0x48, stakeS)
			r.finish(settlement(m, stakeS, [2]int64{stakeS, stakeS}, 0, 0x47, 0x48))
			r.setHook(func(s string) error {
				if s == at {
					return errCrash
				}
				return nil
			})
			if err := r.w.Pass(context.Background()); !errors.Is(err, errCrash) {
				t.Fatalf("pass: %v", err)
			}
			before := r.job(m, "A")
			if before.Status != JobSigned || before.Tx == "" {
				t.Fatalf("job after the crash %+v", before)
			}
			r.audit()
			r.setHook(nil)
			r.w = r.worker() // the restart
			r.until(m, StatusSettled, 0x47, 0x48)
			after := r.job(m, "A")
			if after.Tx != before.Tx || after.Nonce != before.Nonce || len(after.Hashes) != 1 {
				t.Fatalf("restart signed anew: before %+v after %+v", before, after)
			}
			if a, b := r.chain.Balance(t, contenderAddr(0x47)), r.chain.Balance(t, contenderAddr(0x48)); a != stakeS || b != stakeS {
				t.Fatalf("paid %d and %d, want %d each once", a, b, stakeS)
			}
			n, err := r.chain.Client.NonceAt(context.Background(), r.wallet.Address, "latest")
			if err != nil || n != 2 {
				t.Fatalf("the wallet sent %d transactions, want 2: %v", n, err)
			}
		})
	}
}

// TestWorkerRevertRequeuesThenFails: a payout whose transfer reverts on chain (the wallet's
// tokens are moved away between signing and mining) is queued again at a new nonce, and after
// the third revert it is payout_failed: no Ledger row, the match stays SETTLING, the contender
// got nothing, and the books agree with the chain. Then the operator refills the wallet and
// retries (Retry, §11): the job is queued again, paid once, and the match SETTLED with its rows.
func TestWorkerRevertRequeuesThenFails(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000a5"
	r.match(m, 0x49, 0x4a, stakeS, time.Minute)
	r.stake(m, "A", 0x49, stakeS)
	r.stake(m, "B", 0x4a, stakeS)
	r.finish(settlement(m, stakeS, [2]int64{0, 2 * stakeS}, 0, 0x49, 0x4a))
	_, sink := evmtest.Key(0x5f)
	ctx := context.Background()
	key, _ := evmtest.Key(0x7e)
	r.setHook(func(s string) error {
		if s != "signed" {
			return nil
		}
		// The wallet's whole balance leaves by an EIP-3009 authorization the dev account relays,
		// so the payout signed a moment ago is mined reverted.
		bal := r.chain.Balance(t, r.wallet.Address)
		var nonce [32]byte
		_, _ = rand.Read(nonce[:])
		a := x402.Authorization{From: r.wallet.Address, To: sink, Value: big.NewInt(bal), ValidAfter: big.NewInt(0),
			ValidBefore: big.NewInt(time.Now().Unix() + 600), Nonce: nonce}
		sig := evmtest.Sign(key, x402.Digest(x402.Domain{Name: "USDC", Version: "2", ChainID: r.chain.ID, VerifyingContract: r.chain.Token.Address}, a))
		if _, err := r.chain.Token.Settle(ctx, r.chain.Dev, &x402.Payment{Authorization: a, Signature: sig}); err != nil {
			t.Errorf("drain: %v", err)
		}
		r.start -= bal                       // money the test moved, outside the books
		r.chain.Mint(t, r.wallet.Address, 0) // a block between, as a busy chain would have
		return nil
	})
	for i := 0; i < 3; i++ {
		// Before each signing the wallet holds the payout again (the estimate passes).
		if i > 0 {
			r.chain.Mint(t, r.wallet.Address, 2*stakeS)
			r.start += 2 * stakeS
		}
		r.untilf(func() bool { return len(r.job(m, "B").Reverted) == i+1 })
		j := r.job(m, "B")
		if len(j.Reverted) != i+1 {
			t.Fatalf("round %d: job %+v", i, j)
		}
		want := JobQueued
		if i == 2 {
			want = JobFailed
		}
		if j.Status != want {
			t.Fatalf("after revert %d: %s, want %s", i+1, j.Status, want)
		}
	}
	j := r.job(m, "B")
	if !strings.HasPrefix(j.Reason, "payout_failed") || len(j.Reverted) != MaxReverts {
		t.Fatalf("failed job %+v", j)
	}
	nonces := map[string]bool{}
	for _, h := range j.Reverted {
		nonces[h] = true
	}
	if len(nonces) != 3 {
		t.Fatalf("reverted hashes %v", j.Reverted)
	}
	r.pass()
	if r.status(m) != StatusSettling {
		t.Fatalf("status %s, want SETTLING", r.status(m))
	}
	if h, _ := r.st.WardenHead(); h.Seq != 0 {
		t.Fatal("a Ledger row for a match whose payout failed")
	}
	if got := r.chain.Balance(t, contenderAddr(0x4a)); got != 0 {
		t.Fatalf("B holds %d", got)
	}
	r.audit(0x49, 0x4a)

	if _, err := Retry(r.st, m, "A"); !errors.Is(err, ErrNoJob) {
		t.Fatalf("retry of seat A (paid nothing, no job): %v", err)
	}
	r.setHook(nil)
	r.chain.Mint(t, r.wallet.Address, 2*stakeS)
	r.start += 2 * stakeS
	rj, err := Retry(r.st, m, "B")
	if err != nil || rj.Status != JobQueued || rj.Retried != MaxReverts || rj.Reason != "" || len(rj.Reverted) != MaxReverts {
		t.Fatalf("retry: %+v %v", rj, err)
	}
	r.until(m, StatusSettled, 0x49, 0x4a)
	if got := r.chain.Balance(t, contenderAddr(0x4a)); got != 2*stakeS {
		t.Fatalf("B holds %d after the retry, want %d", got, 2*stakeS)
	}
	if h, _ := r.st.WardenHead(); h.Seq != 2 {
		t.Fatalf("Ledger head %d after the retried payout, want both rows", h.Seq)
	}
	if _, err := Retry(r.st, m, "B"); !errors.Is(err, ErrNotFailedJob) {
		t.Fatalf("retry of a confirmed job: %v", err)
	}
	if b := r.audit(0x49, 0x4a); b.PaidOut != 2*stakeS {
		t.Fatalf("books %+v", b)
	}
}

// TestWorkerReplacesAStuckTransaction: a signed job whose transaction sits at the node below
// the base fee (signed when fees were lower) is signed again at the same nonce with fresh fees,
// the first hash kept beside the second, and confirmed: the contender is paid once, at that
// nonce.
func TestWorkerReplacesAStuckTransaction(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000a6"
	r.match(m, 0x4b, 0x4c, stakeS, time.Minute)
	r.stake(m, "A", 0x4b, stakeS)
	r.stake(m, "B", 0x4c, stakeS)
	r.finish(settlement(m, stakeS, [2]int64{0, 2 * stakeS}, 0, 0x4b, 0x4c))
	ctx := context.Background()
	nonce, err := r.chain.Client.NonceAt(ctx, r.wallet.Address, "pending")
	if err != nil {
		t.Fatal(err)
	}
	// What a Worker signed when fees were lower, and stored, before the node lost it.
	low := &evm.DynamicFeeTx{Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1), Gas: 300_000,
		To: r.chain.Token.Address, Value: new(big.Int), Data: evm.TransferData(contenderAddr(0x4c), big.NewInt(2*stakeS))}
	r.wallet.Sign(low)
	h := low.Hash()
	j := r.job(m, "B")
	j.Status, j.Nonce, j.Tx, j.Raw = JobSigned, nonce, lowerHex(h[:]), lowerHex(low.Raw())
	j.Hashes = []string{j.Tx}
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error {
		if err := tx.Put(walletKey(r.wallet.Address), nonce+1); err != nil {
			return err
		}
		return tx.Put(jobKey(m, "B"), j)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.chain.Client.SendRawTransaction(ctx, low.Raw()); err != nil {
		t.Fatalf("geth refused the low transaction: %v", err)
	}
	r.pass()
	if _, mined, _ := r.chain.Client.TransactionReceipt(ctx, h); mined {
		t.Fatal("the transaction below the base fee was mined; the test needs it stuck")
	}
	r.until(m, StatusSettled, 0x4b, 0x4c)
	got := r.job(m, "B")
	if got.Nonce != nonce || len(got.Hashes) != 2 || got.Hashes[0] != j.Tx || got.Tx != got.Hashes[1] {
		t.Fatalf("job %+v, want the replacement at nonce %d beside %s", got, nonce, j.Tx)
	}
	if bal := r.chain.Balance(t, contenderAddr(0x4c)); bal != 2*stakeS {
		t.Fatalf("B holds %d", bal)
	}
	if n, _ := r.chain.Client.NonceAt(ctx, r.wallet.Address, "latest"); n != nonce+1 {
		t.Fatalf("the wallet's nonce is %d, want %d", n, nonce+1)
	}
	r.audit(0x4b, 0x4c)
}
