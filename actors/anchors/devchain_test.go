package anchors

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"testing"
	"time"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/storage"
	"arena/storage/storagetest"
)

// devHarness runs the chain actor against engineer F's embedded devchain over a real loopback
// gRPC socket, through the real ccd.Client: the wire format is the only thing they share.
type devHarness struct {
	*harness
	dev    *devchain.Node
	client *ccd.Client
}

func newDevHarness(t *testing.T, opts Options, dopts devchain.Options) *devHarness {
	t.Helper()
	key := testKey(t)
	seed, _ := key.Seed()
	if dopts.BlockTime == 0 {
		dopts.BlockTime = 10 * time.Millisecond
	}
	if dopts.FinalizeAfter == 0 {
		dopts.FinalizeAfter = 20 * time.Millisecond
	}
	dopts.NoSync = true
	dopts.Dir = t.TempDir()
	dopts.Genesis = &devchain.Genesis{Accounts: []devchain.GenesisAccount{{Name: devchain.AccountArena, Seed: seed, Balance: devchain.DefaultBalance}}}
	dev, err := devchain.Start(context.Background(), dopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dev.Stop)
	if a, _ := dev.Account(devchain.AccountArena); a.Address.Value != key.Address() {
		t.Fatalf("devchain derives account %s, ccd.DevAddress %s", a.Address.ToBase58(), key.Address())
	}
	client, err := ccd.Dial(context.Background(), dev.Addr(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	h := &harness{t: t, dbPath: storagetest.Path(t), key: key, opts: opts}
	d := &devHarness{harness: h, dev: dev, client: client}
	d.bootWith(client)
	return d
}

// bootWith is harness.boot with a real node client.
func (d *devHarness) bootWith(node Node) {
	h := d.harness
	t := h.t
	db, err := storage.Open(h.dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.db = db
	h.sys = quietSystem()
	h.answers = make(chan *actors.Anchored, 10000)
	ans := h.answers
	h.table, _ = h.sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*actors.Anchored); ok {
			ans <- m
		}
	}), "table-1")
	if h.chain, err = New(db, h.key, node, h.opts); err != nil {
		t.Fatal(err)
	}
	if err := h.chain.Start(context.Background(), h.sys); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.crash)
}

// landed waits until every answer's transaction (followed through a re-sign by Lookup) is
// finalized on the devchain with the anchor as its DataRegistered bytes, and checks the
// account used exactly one nonce per anchor: nothing registered twice.
func (d *devHarness) landed(answers []*actors.Anchored, extra uint64) {
	t := d.t
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for _, a := range answers {
		if a.Err != "" {
			t.Fatalf("refused: %+v", a)
		}
		data := encode(t, a)
		var st ccd.Status
		var err error
		var l Landing
		eventually(t, time.Until(deadline), func() bool {
			var ok bool
			var lerr error
			if l, ok, lerr = Lookup(d.db, data); lerr != nil || !ok {
				t.Fatalf("lookup %v %v", ok, lerr)
			}
			var h [32]byte
			hex.Decode(h[:], []byte(l.Tx))
			st, err = d.client.Status(ctx, h)
			return err == nil && st.State == ccd.Finalized
		}, func() string {
			s, _ := d.chain.Stats(ctx)
			return fmt.Sprintf("anchor %s/%d not final (%+v, %v); actor %+v", a.Request.Kind, a.Request.Seq, st, err, s)
		})
		if st.Rejected || !st.Registered || hex.EncodeToString(st.Data) != hex.EncodeToString(data) {
			t.Fatalf("tx %s: %+v", l.Tx, st)
		}
		if l.ID != a.Tx {
			t.Fatalf("index id %s, answered %s", l.ID, a.Tx)
		}
	}
	var s Stats
	eventually(t, time.Until(deadline), func() bool {
		var err error
		if s, err = d.chain.Stats(ctx); err != nil {
			t.Fatal(err)
		}
		return s.Pending == 0 && s.Unwritten == 0
	}, func() string { return fmt.Sprintf("queue not drained: %+v", s) })
	st, err := d.dev.AccountState(sdk.AccountAddress{Value: d.key.Address()})
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(len(answers)) + extra + 1; st.NextNonce != want || !st.AllFinal {
		t.Fatalf("account next nonce %d (all final %v), want %d: something landed twice or not at all", st.NextNonce, st.AllFinal, want)
	}
}

func quietSystem() *actor.ActorSystem { return newQuietSystem() }

// eventually polls cond every 10 ms until it holds, and fails with failure() once limit has
// passed. The devchain bakes and finalizes on its own wall-clock timer and answers over a real
// loopback socket, which a synctest bubble cannot hold: these waits are on wall time, bounded
// generously, and end as soon as the chain has done what is waited for.
func eventually(t testing.TB, limit time.Duration, cond func() bool, failure func() string) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal(failure())
		}
	}
}

func TestDevchainAnchorsLand(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{})
	const n = 60
	for i := 0; i < n; i++ {
		d.send(uint64(9000+i%3), job(uint64(9000+i%3), kinds[i%6], uint32(i+1), "dev"))
	}
	d.landed(d.await(n), 0)
}

// Unavailable answers and submissions the node silently drops: retried, resubmitted, each
// anchor lands once.
func TestDevchainFaults(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{Faults: devchain.Faults{UnavailableRate: 0.2, DropRate: 0.2, Seed: 7}})
	const n = 40
	for i := 0; i < n; i++ {
		d.send(77, job(77, "exchange", uint32(i+1), "faults"))
	}
	answers := d.await(n)
	d.landed(answers, 0)
	un, dropped := d.dev.FaultCounts()
	if un == 0 || dropped == 0 {
		t.Fatalf("faults not exercised: %d unavailable, %d dropped", un, dropped)
	}
	s, _ := d.chain.Stats(context.Background())
	t.Logf("faults: %d unavailable, %d dropped; actor %+v", un, dropped, s)
}

// Another signer for the same account takes the next nonces: the devchain refuses the
// actor's submissions (nonce too small), the actor re-syncs and re-signs, each anchor lands once.
func TestDevchainNonceResync(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{})
	d.send(5, job(5, "opened", 1, "r"))
	first := d.await(1)
	d.landed(first, 0)
	// Stop submissions reaching the node, sign 3 foreign transactions with the next nonces.
	d.dev.SetFaults(devchain.Faults{UnavailableRate: 1})
	for i := 2; i <= 6; i++ {
		d.send(5, job(5, "exchange", uint32(i), "r"))
	}
	second := d.await(5)
	// The foreign transactions reach the chain through the node's Go door, which the injected
	// faults do not cover; only then are the actor's submissions let through.
	for nonce := uint64(2); nonce <= 4; nonce++ {
		tx, err := ccd.RegisterData(d.key, nonce, uint64(time.Now().Add(time.Hour).Unix()), []byte("foreign"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.dev.Submit(tx.BlockItem); err != nil {
			t.Fatalf("foreign nonce %d: %v", nonce, err)
		}
	}
	d.dev.SetFaults(devchain.Faults{})
	d.landed(append(first, second...), 3)
	s, _ := d.chain.Stats(context.Background())
	if s.Resigned != 3 || s.Rejected == 0 {
		t.Fatalf("stats %+v", s)
	}
}

// The node restarts with submissions in flight; the arena crashes with submissions pending;
// after both, each anchor lands exactly once.
func TestDevchainRestartAndCrash(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{FinalizeAfter: 200 * time.Millisecond})
	for i := 0; i < 20; i++ {
		d.send(6, job(6, "exchange", uint32(i+1), "rc"))
	}
	answers := d.await(20)
	if err := d.dev.Restart(context.Background(), 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	d.dev.SetFaults(devchain.Faults{UnavailableRate: 1})
	for i := 20; i < 30; i++ {
		d.send(6, job(6, "commitment", uint32(i+1), "rc"))
	}
	answers = append(answers, d.await(10)...)
	d.crash()
	d.dev.SetFaults(devchain.Faults{})
	d.bootWith(d.client)
	d.landed(answers, 0)
}

// Play never waits: the devchain takes 5 s per SendBlockItem, answers still come at bbolt speed.
func TestDevchainSlowNodeNeverBlocks(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{Faults: devchain.Faults{MethodLatency: map[string]time.Duration{"SendBlockItem": 5 * time.Second}}})
	const n = 50
	lat := make([]time.Duration, 0, n)
	began := time.Now()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		d.send(8, job(8, "exchange", uint32(i+1), "slow"))
		d.await(1)
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("answer latency, devchain at 5 s per submission: p50 %v, max %v", lat[n/2], lat[n-1])
	s, _ := d.chain.Stats(context.Background())
	if done := int(time.Since(began) / (5 * time.Second)); s.Calls > done || s.Landed != 0 || lat[n/2] > 250*time.Millisecond || lat[n-1] > 2*time.Second {
		t.Fatalf("answers waited for the node: p50 %v, max %v, %+v", lat[n/2], lat[n-1], s)
	}
}

// The escrow calls (§5.5 open_round and anchor) go through the same queue: answered at once,
// landed once; the same call twice is one transaction; a call the contract refuses in its block
// (round already open) is recorded as failed and never re-signed.
func TestDevchainEscrowCalls(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{})
	calls := make(chan *CallSubmitted, 16)
	pid, _ := d.sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*CallSubmitted); ok {
			calls <- m
		}
	}), "escrow-table")
	await := func() *CallSubmitted {
		select {
		case m := <-calls:
			if m.Err != "" || m.Tx == "" {
				t.Fatalf("call refused: %+v", m)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no answer")
		}
		return nil
	}
	esc := func(entry string, param []byte) ccd.ContractCall {
		return ccd.ContractCall{Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex,
			Receive: "escrow." + entry, Parameter: param, MaxEnergy: 5000}
	}
	open := esc("open_round", devchain.EncodeOpenRound(42, [32]byte{0xa1}))
	d.chain.Call(CallJob{Table: "1", Round: "T-42", Name: "open_round", Call: open, ReplyTo: pid})
	first := await()
	d.chain.Call(CallJob{Table: "1", Round: "T-42", Name: "open_round", Call: open, ReplyTo: pid})
	if again := await(); again.Tx != first.Tx {
		t.Fatalf("same call, two transactions: %s %s", first.Tx, again.Tx)
	}
	mid := esc("anchor", devchain.EncodeAnchor(42, 3, [32]byte{0xb2}))
	d.chain.Call(CallJob{Table: "1", Round: "T-42", Name: "anchor", Call: mid, ReplyTo: pid})
	await()
	reopen := esc("open_round", devchain.EncodeOpenRound(42, [32]byte{0xc3}))
	d.chain.Call(CallJob{Table: "1", Round: "T-42", Name: "open_round", Call: reopen, ReplyTo: pid})
	await()
	d.chain.Call(CallJob{Table: "1", Round: "T-42", Call: mid, ReplyTo: pid}) // no name
	if m := <-calls; m.Err == "" {
		t.Fatalf("nameless call accepted: %+v", m)
	}
	var s Stats
	eventually(t, 15*time.Second, func() bool {
		s, _ = d.chain.Stats(context.Background())
		return s.Pending == 0 && s.Unwritten == 0
	}, func() string { return fmt.Sprintf("not settled: %+v", s) })
	if s.Landed != 2 || s.Failed != 1 || s.Resigned != 0 {
		t.Fatalf("stats %+v", s)
	}
	r, ok, err := d.dev.EscrowRound(42)
	if err != nil || !ok || r.Anchor != [32]byte{0xa1} || len(r.Turns) != 1 || r.Turns[0].Turn != 3 {
		t.Fatalf("escrow round %+v %v %v", r, ok, err)
	}
	for call, wantRejected := range map[*ccd.ContractCall]bool{&open: false, &mid: false, &reopen: true} {
		k, err := CallKey(*call)
		if err != nil {
			t.Fatal(err)
		}
		l, ok, err := Lookup(d.db, k)
		if err != nil || !ok || !l.Final || (l.Rejected != "") != wantRejected {
			t.Fatalf("%s: %+v %v %v", call.Receive, l, ok, err)
		}
	}
	st, _ := d.dev.AccountState(sdk.AccountAddress{Value: d.key.Address()})
	if st.NextNonce != 4 {
		t.Fatalf("nonces used %d, want 3", st.NextNonce-1)
	}
}

// The node already has a transaction when the actor sends it (it got there by another path,
// as after a reply lost on the way back): ALREADY_EXISTS, counted as success, landed once.
func TestDevchainAlreadyExists(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{})
	eventually(t, 5*time.Second, func() bool { s, _ := d.chain.Stats(context.Background()); return s.Resyncs >= 1 },
		func() string { return "no re-sync at the start" })
	d.dev.SetFaults(devchain.Faults{UnavailableRate: 1})
	for i := 0; i < 4; i++ {
		d.send(11, job(11, "commitment", uint32(i+1), "ae"))
	}
	answers := d.await(4)
	// Hand the node the queued block items directly, in nonce order.
	var items [][]byte
	pending, _, _, err := d.db.ChainQueue()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range pending {
		b, _ := hex.DecodeString(r.BlockItem)
		items = append(items, b)
	}
	sort.Slice(items, func(i, j int) bool {
		a, _ := ccd.ParseBlockItem(items[i])
		b, _ := ccd.ParseBlockItem(items[j])
		return a.Nonce < b.Nonce
	})
	for _, b := range items {
		if _, err := d.dev.Submit(b); err != nil {
			t.Fatal(err)
		}
	}
	d.dev.SetFaults(devchain.Faults{})
	d.landed(answers, 0)
	s, _ := d.chain.Stats(context.Background())
	if s.Resigned != 0 || s.Duplicates != 4 {
		t.Fatalf("stats %+v", s)
	}
}

// Against a node with 2 ms per submission, 48 anchors go in a handful of batches.
func TestDevchainBatching(t *testing.T) {
	o := fastOptions()
	o.BatchSize = 8
	d := newDevHarness(t, o, devchain.Options{Faults: devchain.Faults{MethodLatency: map[string]time.Duration{"SendBlockItem": 2 * time.Millisecond}}})
	const n = 48
	for i := 0; i < n; i++ {
		d.send(12, job(12, "exchange", uint32(i+1), "batch"))
	}
	d.landed(d.await(n), 0)
	s, _ := d.chain.Stats(context.Background())
	if s.Calls != n || s.Batches > n/4 {
		t.Fatalf("%d calls in %d batches", s.Calls, s.Batches)
	}
	t.Logf("%d anchors in %d batches", n, s.Batches)
}

// A call the contract refused in its block is asked again: without Retry it is the same refused
// transaction; with Retry it is signed anew under the next nonce, and lands once the contract
// takes it; a landed call asked with Retry again is answered as it stands (no third transaction).
func TestDevchainRefusedCallRetried(t *testing.T) {
	d := newDevHarness(t, fastOptions(), devchain.Options{})
	calls := make(chan *CallSubmitted, 16)
	pid, _ := d.sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*CallSubmitted); ok {
			calls <- m
		}
	}), "retry-table")
	await := func() *CallSubmitted {
		select {
		case m := <-calls:
			if m.Err != "" || m.Tx == "" {
				t.Fatalf("call refused: %+v", m)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no answer")
		}
		return nil
	}
	landing := func(call ccd.ContractCall) Landing {
		var l Landing
		eventually(t, 15*time.Second, func() bool {
			var ok bool
			l, ok, _ = LookupCall(d.db, call)
			return ok && l.Final
		}, func() string { return fmt.Sprintf("%s not final: %+v", call.Receive, l) })
		return l
	}
	esc := func(entry string, param []byte) ccd.ContractCall {
		return ccd.ContractCall{Index: devchain.DefaultEscrow.Index, Subindex: devchain.DefaultEscrow.Subindex,
			Receive: "escrow." + entry, Parameter: param, MaxEnergy: 5000}
	}
	// The mid-round anchor of a round the escrow never opened: refused in its block.
	mid := esc("anchor", devchain.EncodeAnchor(43, 3, [32]byte{0xb2}))
	d.chain.Call(CallJob{Table: "1", Round: "T-43", Name: "anchor", Call: mid, ReplyTo: pid})
	first := await()
	if l := landing(mid); l.Rejected == "" || l.Tx != first.Tx || l.Retried != 0 {
		t.Fatalf("anchor before open_round: %+v", l)
	}
	d.chain.Call(CallJob{Table: "1", Round: "T-43", Name: "anchor", Call: mid, ReplyTo: pid})
	if again := await(); again.Tx != first.Tx {
		t.Fatalf("asked again without Retry: a new transaction %s (first %s)", again.Tx, first.Tx)
	}
	d.chain.Call(CallJob{Table: "1", Round: "T-43", Name: "open_round", Call: esc("open_round", devchain.EncodeOpenRound(43, [32]byte{0xa1})), ReplyTo: pid})
	await()
	d.chain.Call(CallJob{Table: "1", Round: "T-43", Name: "anchor", Call: mid, ReplyTo: pid, Retry: true})
	retried := await()
	if retried.Tx == first.Tx {
		t.Fatal("Retry answered with the refused transaction")
	}
	if l := landing(mid); l.Rejected != "" || l.Tx != retried.Tx || l.Retried != 1 {
		t.Fatalf("retried anchor: %+v", l)
	}
	d.chain.Call(CallJob{Table: "1", Round: "T-43", Name: "anchor", Call: mid, ReplyTo: pid, Retry: true})
	if again := await(); again.Tx != retried.Tx {
		t.Fatalf("a landed call signed again on Retry: %s (landed %s)", again.Tx, retried.Tx)
	}
	r, ok, err := d.dev.EscrowRound(43)
	if err != nil || !ok || len(r.Turns) != 1 || r.Turns[0].Turn != 3 {
		t.Fatalf("escrow round %+v %v %v", r, ok, err)
	}
	var s Stats
	eventually(t, 15*time.Second, func() bool {
		s, _ = d.chain.Stats(context.Background())
		return s.Pending == 0 && s.Unwritten == 0
	}, func() string { return fmt.Sprintf("not settled: %+v", s) })
	if s.Retried != 1 || s.Failed != 1 || s.Landed != 2 {
		t.Fatalf("stats %+v", s)
	}
	st, _ := d.dev.AccountState(sdk.AccountAddress{Value: d.key.Address()})
	if st.NextNonce != 4 {
		t.Fatalf("nonces used %d, want 3", st.NextNonce-1)
	}
}
