package devchain

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/Concordium/concordium-go-sdk/v2/pb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func anchorTx(a testAccount, nonce uint64, tag byte) []byte {
	p := regData(append([]byte("DDDA"), tag))
	return buildTx(a.seed, a.addr, nonce, baseEnergy(1, len(p))+energyRegisterData, uint64(time.Now().Add(time.Hour).Unix()), p)
}

// TestFaultLatency delays one method and leaves the others alone.
func TestFaultLatency(t *testing.T) {
	const d = 150 * time.Millisecond
	_, c, _, _ := twoAccounts(t, Options{Faults: Faults{MethodLatency: map[string]time.Duration{"GetConsensusInfo": d}}})
	ctx := context.Background()
	start := time.Now()
	if _, err := c.GetConsensusInfo(ctx); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < d {
		t.Fatalf("GetConsensusInfo took %v, want at least %v", el, d)
	}
	start = time.Now()
	if _, err := c.GrpcClient.GetBlockItemStatus(ctx, &pb.TransactionHash{Value: make([]byte, 32)}); status.Code(err) != codes.NotFound {
		t.Fatal(err)
	}
	if el := time.Since(start); el >= d {
		t.Fatalf("GetBlockItemStatus took %v, latency leaked to another method", el)
	}
	// A caller's deadline shorter than the latency ends the call with DeadlineExceeded.
	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	_, err := c.GetConsensusInfo(short)
	wantCode(t, err, codes.DeadlineExceeded)
}

// TestFaultUnavailable answers Unavailable at the set rate, changing nothing on the chain.
func TestFaultUnavailable(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{Faults: Faults{UnavailableRate: 1}})
	ctx := context.Background()
	_, err := c.GrpcClient.SendBlockItem(ctx, rawRequest(t, anchorTx(alice, 1, 1)))
	wantCode(t, err, codes.Unavailable)
	if a, _ := n.AccountState(alice.address()); a.NextNonce != 1 {
		t.Fatalf("next nonce %d after an Unavailable submission, want 1", a.NextNonce)
	}
	n.SetFaults(Faults{UnavailableRate: 0.5, Seed: 7})
	fails := 0
	for range 40 {
		if _, err := c.GetConsensusInfo(ctx); status.Code(err) == codes.Unavailable {
			fails++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if fails < 8 || fails > 32 {
		t.Fatalf("%d of 40 calls Unavailable at rate 0.5", fails)
	}
	if u, _ := n.FaultCounts(); u != uint64(fails)+1 {
		t.Fatalf("fault count %d, want %d", u, fails+1)
	}
	n.SetFaults(Faults{})
	if _, err := c.GrpcClient.SendBlockItem(ctx, rawRequest(t, anchorTx(alice, 1, 1))); err != nil {
		t.Fatalf("after clearing faults: %v", err)
	}
}

// TestFaultDrop accepts a submission, answers its hash and forgets it.
func TestFaultDrop(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{Faults: Faults{DropRate: 1}})
	ctx := context.Background()
	bi := anchorTx(alice, 1, 1)
	h, err := c.SendBlockItem(ctx, rawRequest(t, bi))
	if err != nil || h.Value != sha256.Sum256(bi) {
		t.Fatalf("dropped submission answered %v (%v)", h, err)
	}
	// A dropped submission still faces the door: a bad one is refused, not dropped.
	bad := append([]byte(nil), bi...)
	bad[10] ^= 1
	_, err = c.GrpcClient.SendBlockItem(ctx, rawRequest(t, bad))
	wantCode(t, err, codes.InvalidArgument)
	if _, err := n.Tick(); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetBlockItemStatus(ctx, *h)
	wantCode(t, err, codes.NotFound)
	nn, err := c.GetNextAccountSequenceNumber(ctx, &v2.AccountAddress{Value: alice.addr})
	if err != nil || nn.SequenceNumber.Value != 1 {
		t.Fatalf("next nonce %v (%v), want 1: a dropped item uses no nonce", nn, err)
	}
	if _, d := n.FaultCounts(); d != 1 {
		t.Fatalf("dropped count %d, want 1", d)
	}
	n.SetFaults(Faults{})
	h2, err := c.SendBlockItem(ctx, rawRequest(t, bi))
	if err != nil || h2.Value != h.Value {
		t.Fatalf("resubmission %v (%v)", h2, err)
	}
	if sum := finalStatus(t, n, c, h.Value); sum.GetAccountTransaction().GetEffects().GetDataRegistered() == nil {
		t.Fatalf("resubmitted item outcome %v", sum)
	}
}

// TestRestartKeepsState restarts the node on the same port: finalized blocks, an item
// received but not yet baked, and the nonce all survive; the block loop bakes and finalizes
// on its own clock.
func TestRestartKeepsState(t *testing.T) {
	n, c, _, alice := twoAccounts(t, Options{BlockTime: 10 * time.Millisecond, FinalizeAfter: 30 * time.Millisecond})
	ctx := context.Background()
	addr := n.Addr()
	first := sha256.Sum256(anchorTx(alice, 1, 1))
	if _, err := c.SendBlockItem(ctx, rawRequest(t, anchorTx(alice, 1, 1))); err != nil {
		t.Fatal(err)
	}
	waitFinal(t, c, first)
	best, final, err := n.Heights()
	if err != nil || best != 1 || final != 1 {
		t.Fatalf("heights %d/%d (%v), want 1/1", best, final, err)
	}
	// The node stays down until up is cancelled, once a call has seen it down.
	up, comeUp := context.WithCancel(ctx)
	defer comeUp()
	downDone := make(chan error, 1)
	go func() { downDone <- n.Restart(up, time.Hour) }()
	eventually(t, "the node down", 10*time.Second, func() bool {
		_, err := c.GetConsensusInfo(ctx)
		return status.Code(err) == codes.Unavailable
	})
	comeUp()
	if err := <-downDone; err != nil {
		t.Fatalf("restart: %v", err)
	}
	if n.Addr() != addr {
		t.Fatalf("address after restart %s, want %s", n.Addr(), addr)
	}
	var st *pb.BlockItemStatus
	eventually(t, "the client reconnected", 10*time.Second, func() bool { // with back-off
		st, err = c.GetBlockItemStatus(ctx, v2.TransactionHash{Value: first})
		return err == nil
	})
	if st.GetFinalized() == nil {
		t.Fatalf("status after restart %v, want finalized", st)
	}
	second := sha256.Sum256(anchorTx(alice, 2, 2))
	if _, err := c.SendBlockItem(ctx, rawRequest(t, anchorTx(alice, 2, 2))); err != nil {
		t.Fatalf("send after restart: %v", err)
	}
	waitFinal(t, c, second)
	if best, final, _ := n.Heights(); best != 2 || final != 2 {
		t.Fatalf("heights %d/%d, want 2/2", best, final)
	}
}

// TestReceivedSurvivesStop stops the node with an item received but not baked, starts a new
// node on the same directory and address, and sees the item committed and finalized.
func TestReceivedSurvivesStop(t *testing.T) {
	dir := t.TempDir()
	arena, alice := newTestAccount(AccountArena, 1), newTestAccount("alice", 2)
	g := &Genesis{Accounts: []GenesisAccount{arena.genesis(DefaultBalance), alice.genesis(DefaultBalance)}}
	n, c := testNode(t, Options{Dir: dir, Genesis: g})
	h, err := c.SendBlockItem(context.Background(), rawRequest(t, anchorTx(alice, 1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	addr := n.Addr()
	n.Stop()
	n2, c2 := testNode(t, Options{Dir: dir, Addr: addr})
	st, err := c2.GetBlockItemStatus(context.Background(), *h)
	if err != nil || st.GetReceived() == nil {
		t.Fatalf("status after stop/start %v (%v), want received", st, err)
	}
	finalStatus(t, n2, c2, h.Value)
	if a, _ := n2.AccountState(alice.address()); a.NextNonce != 2 || !a.AllFinal {
		t.Fatalf("account after restart %+v", a)
	}
}

// waitFinal waits for the node's own block loop (wall-clock BlockTime and FinalizeAfter: the
// loop is what is tested) to finalize h.
func waitFinal(t *testing.T, c *v2.Client, h [32]byte) {
	t.Helper()
	eventually(t, fmt.Sprintf("%x finalized by the block loop", h), 5*time.Second, func() bool {
		st, err := c.GetBlockItemStatus(context.Background(), v2.TransactionHash{Value: h})
		return err == nil && st.GetFinalized() != nil
	})
}

// TestRestartUnderLoad restarts while Go API and gRPC callers keep going: calls may fail
// while the node is down, nothing races or panics, and everything works after.
func TestRestartUnderLoad(t *testing.T) {
	n, c := testNode(t, Options{BlockTime: 5 * time.Millisecond})
	house, _ := n.Account(AccountHouse)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	calls := make(chan struct{}) // a tick per round of calls made while the test listens
	for i := range 2 {
		go func() {
			defer func() { done <- struct{}{} }()
			for ctx.Err() == nil {
				if i == 0 {
					_, _ = n.RegisterAgent(Agent{Owner: house.Address})
					_, _, _ = n.Agent(0)
				} else {
					_, _ = c.GrpcClient.InvokeInstance(ctx, agentOfRequest(0))
					_, _ = n.SendRegisterData("test-1", []byte{1})
				}
				select {
				case calls <- struct{}{}:
				default:
				}
			}
		}()
	}
	for range 3 {
		for range 10 { // the callers are going: ten rounds of calls since the last restart
			<-calls
		}
		if err := n.Restart(context.Background(), 10*time.Millisecond); err != nil {
			t.Fatalf("restart: %v", err)
		}
	}
	cancel()
	<-done
	<-done
	a, err := n.RegisterAgent(Agent{Owner: house.Address})
	if err != nil || a.TokenID == 0 {
		t.Fatalf("after restarts: %+v (%v), want a token id past the ones registered under load", a, err)
	}
}

// RefuseCalls fails the named entrypoint's calls in their block, as the contract would: the
// deposit is refused (nothing deposited, the amount stays with the payer), then taken once the
// fault is lifted.
func TestRefuseCalls(t *testing.T) {
	n, _ := testNode(t, Options{BlockTime: 10 * time.Millisecond, FinalizeAfter: -1,
		Faults: Faults{RefuseCalls: map[string]int32{"escrow.deposit": -8199}}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	t1, _ := n.Account("test-1")
	h, err := n.SendUpdate("test-1", DefaultEscrow, "escrow.deposit", EncodeDeposit("st_r"), 5_000_000)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := n.WaitFinalized(ctx, h)
	if err != nil || sum.GetAccountTransaction().GetEffects().GetNone().GetRejectReason().GetRejectedReceive().GetRejectReason() != -8199 {
		t.Fatalf("refused deposit outcome %v (%v)", sum, err)
	}
	if deps, _ := n.Deposits("st_r"); len(deps) != 0 {
		t.Fatalf("a refused deposit is recorded: %+v", deps)
	}
	if a, _ := n.AccountState(t1.Address); a.Balance != DefaultBalance {
		t.Fatalf("a refused deposit took money: %d", a.Balance)
	}
	n.SetFaults(Faults{})
	h, err = n.SendUpdate("test-1", DefaultEscrow, "escrow.deposit", EncodeDeposit("st_r"), 5_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.WaitFinalized(ctx, h); err != nil {
		t.Fatal(err)
	}
	if deps, _ := n.Deposits("st_r"); len(deps) != 1 || deps[0].Amount != 5_000_000 {
		t.Fatalf("deposits after the fault: %+v", deps)
	}
}
