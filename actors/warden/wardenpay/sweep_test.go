package wardenpay

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"arena/chain/evm/evmtest"
	"arena/chain/x402"
	"arena/storage"
)

// timeouts is contender b's stake_timeouts.
func (r *rig) timeouts(b byte) int64 {
	r.t.Helper()
	var c struct {
		StakeTimeouts int64 `json:"stake_timeouts"`
	}
	if err := r.st.WardenView(func(tx storage.WardenTx) error {
		_, err := tx.Get("contender/"+contenderAddr(b).String(), &c)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return c.StakeTimeouts
}

// TestSweeperRefundsAfterStakeWindow: A stakes, B does not; within the window nothing
// happens; once it closes the match is CANCELED with B's stake_timeouts raised, then
// REFUNDING with A's whole stake refunded on chain (no rake), and CLOSED once the refund is
// confirmed and the settle wait has passed. No Ledger row; the books balance on chain.
func TestSweeperRefundsAfterStakeWindow(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000b1"
	r.match(m, 0x51, 0x52, stakeS, 2*time.Minute)
	r.stake(m, "A", 0x51, stakeS)
	r.auditHook()
	r.pass()
	if r.status(m) != StatusStaking {
		t.Fatalf("inside the window: %s", r.status(m))
	}
	r.advance(2*time.Minute + time.Millisecond)
	r.pass()
	if st := r.status(m); st != StatusRefunding {
		t.Fatalf("after the window: %s", st)
	}
	if r.timeouts(0x52) != 1 || r.timeouts(0x51) != 0 {
		t.Fatalf("stake_timeouts A %d B %d, want 0 and 1", r.timeouts(0x51), r.timeouts(0x52))
	}
	j := r.job(m, "A")
	if j.Kind != KindRefund || j.Amount != stakeS || j.To != contenderAddr(0x51).String() {
		t.Fatalf("refund job %+v", j)
	}
	r.untilf(func() bool { return r.job(m, "A").Status == JobConfirmed })
	r.pass()
	if st := r.status(m); st != StatusRefunding {
		t.Fatalf("closed before the settle wait: %s", st)
	}
	r.advance(21 * time.Second)
	r.until(m, StatusClosed, 0x51, 0x52)
	if got := r.chain.Balance(t, contenderAddr(0x51)); got != stakeS {
		t.Fatalf("A holds %d, want its whole stake back", got)
	}
	if h, _ := r.st.WardenHead(); h.Seq != 0 {
		t.Fatal("a canceled match wrote a Ledger row")
	}
	j2 := r.job(m, "A")
	if b := r.audit(0x51, 0x52); b.StakesIn != stakeS || b.Refunded != stakeS || b.PaidOut != 0 {
		t.Fatalf("books %+v", b)
	}
	r.pass()
	if r.timeouts(0x52) != 1 {
		t.Fatal("stake_timeouts counted twice")
	}
	types, data := r.events(m)
	if len(types) != 2 || types[0] != "match_canceled" || types[1] != "refund_sent" {
		t.Fatalf("events %v", types)
	}
	if c, _ := json.Marshal(data["match_canceled"]); string(c) != `{"reason":"stake_timeout","refunds":[{"amount":1000000,"seat":"A","status":"queued"}]}` {
		t.Fatalf("match_canceled %s", c)
	}
	if data["refund_sent"]["tx"] != j2.Tx || data["refund_sent"]["seat"] != "A" {
		t.Fatalf("refund_sent %v, the job %+v", data["refund_sent"], j2)
	}
}

// TestSweeperRefundsAStakeThatClearsDuringCancel: the race of §5.4. A stakes in time; B's
// payment is claimed (settling) when the window closes. The match is canceled and A refunded,
// but it does not close while B's payment is in flight; B's transfer then lands and clears
// its seat in the canceled match, and B is refunded the same way before the match closes.
func TestSweeperRefundsAStakeThatClearsDuringCancel(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000b2"
	r.match(m, 0x53, 0x54, stakeS, time.Minute)
	r.stake(m, "A", 0x53, stakeS)
	// B's payment claimed, not yet settled, as the door leaves it mid-settlement.
	var nonce [32]byte
	_, _ = rand.Read(nonce[:])
	k := x402.ReplayKey{ChainID: r.chain.ID, Contract: r.chain.Token.Address, From: contenderAddr(0x54), Nonce: nonce}
	inflight := storage.WardenPayment{ID: "wp_" + hex.EncodeToString(nonce[:8]), Resource: "/v1/warden/matches/" + m + "/stake", Match: m, Seat: "B",
		Payer: contenderAddr(0x54).String(), Amount: stakeS, Network: fmt.Sprintf("eip155:%d", r.chain.ID), Key: k.String(), Version: 2,
		Payload: []byte(`{"test":"inflight"}`), Status: storage.WardenPaySettling, Created: r.clock().Unix()}
	if _, ok, err := r.st.ClaimWardenPayment(k, inflight); err != nil || !ok {
		t.Fatal(ok, err)
	}
	r.auditHook()
	r.advance(time.Minute + time.Second)
	r.pass()
	if st := r.status(m); st != StatusRefunding {
		t.Fatalf("after the window: %s", st)
	}
	r.advance(time.Minute)
	r.untilf(func() bool { return r.job(m, "A").Status == JobConfirmed })
	r.pass()
	if st := r.status(m); st != StatusRefunding {
		t.Fatalf("closed with B's payment in flight: %s", st)
	}
	// B's transfer lands (a real one) and the door clears its seat in the canceled match.
	if err := r.st.PutWardenPayment(storage.WardenPayment{ID: inflight.ID, Resource: inflight.Resource, Match: m, Seat: "B",
		Payer: inflight.Payer, Amount: stakeS, Network: inflight.Network, Key: inflight.Key, Version: 2, Payload: inflight.Payload,
		Status: storage.WardenPayFailed, Reason: "replaced by the test's real transfer", Created: inflight.Created}); err != nil {
		t.Fatal(err)
	}
	r.stake(m, "B", 0x54, stakeS)
	if st := r.status(m); st != StatusRefunding {
		t.Fatalf("a late stake moved the match to %s", st)
	}
	r.until(m, StatusClosed, 0x53, 0x54)
	for _, c := range []byte{0x53, 0x54} {
		if got := r.chain.Balance(t, contenderAddr(c)); got != stakeS {
			t.Fatalf("%x holds %d, want its whole stake back", c, got)
		}
	}
	if b := r.audit(0x53, 0x54); b.StakesIn != 2*stakeS || b.Refunded != 2*stakeS {
		t.Fatalf("books %+v", b)
	}
	// A stake that clears even after CLOSED is refunded: the match goes back to REFUNDING until
	// the refund is confirmed.
	const m2 = "wm_00000000000000b3"
	r.match(m2, 0x55, 0x56, stakeS, time.Minute)
	r.advance(time.Minute + time.Second)
	r.pass()
	r.advance(time.Minute)
	r.until(m2, StatusClosed)
	if r.timeouts(0x55) != 1 || r.timeouts(0x56) != 1 {
		t.Fatalf("timeouts %d %d, want both 1", r.timeouts(0x55), r.timeouts(0x56))
	}
	r.stake(m2, "A", 0x55, stakeS)
	r.pass()
	if j := r.job(m2, "A"); j.Kind != KindRefund || j.Amount != stakeS {
		t.Fatalf("a stake cleared after CLOSED: job %+v, match %s", j, r.status(m2))
	}
	r.until(m2, StatusClosed, 0x53, 0x54, 0x55)
	if got := r.chain.Balance(t, contenderAddr(0x55)); got != stakeS {
		t.Fatalf("late payer holds %d", got)
	}
	r.audit(0x53, 0x54, 0x55, 0x56)
}

// TestSweeperExpiresOpenMatches: an OPEN match past open_until is EXPIRED, with no job, no
// timeout counted and no Ledger row.
func TestSweeperExpiresOpenMatches(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000b4"
	_, a := evmtest.Key(0x57)
	until := r.clock().Add(10 * time.Minute).UnixMilli()
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error {
		return tx.Put("match/"+m, map[string]any{"id": m, "game": "warden.dilemma", "a": a.String(), "status": StatusOpen, "open_until_ms": until, "stake": stakeS})
	}); err != nil {
		t.Fatal(err)
	}
	r.pass()
	if st := r.status(m); st != StatusOpen {
		t.Fatalf("before its ttl: %s", st)
	}
	r.advance(10*time.Minute + time.Millisecond)
	r.pass()
	if st := r.status(m); st != StatusExpired {
		t.Fatalf("after its ttl: %s", st)
	}
	if types, data := r.events(m); len(types) != 1 || data["match_canceled"]["reason"] != "expired" {
		t.Fatalf("events %v %v", types, data)
	}
	var n int
	if err := r.st.WardenKeys("payoutq/", func(string, []byte) error { n++; return nil }); err != nil || n != 0 {
		t.Fatalf("%d jobs, %v", n, err)
	}
	r.audit()
}
