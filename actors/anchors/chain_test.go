package anchors

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/chain/anchor"
	"arena/chain/ccd"
	"arena/games"
	"arena/storage"
	"arena/storage/storagetest"
)

// harness is one arena process for the chain actor: an actor system, a bbolt file, the
// arena's key, a fake node, and a "table" actor collecting the answers.
type harness struct {
	t       *testing.T
	sys     *actor.ActorSystem
	dbPath  string
	db      *storage.Store
	key     *ccd.Key
	node    *fakeNode
	chain   *Chain
	table   *actor.PID
	answers chan *actors.Anchored
	opts    Options
}

func testKey(t testing.TB) *ccd.Key {
	seed := bytes.Repeat([]byte{7}, 32)
	k, err := ccd.NewKey(ccd.DevAddress(ed25519Pub(seed)), seed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func fastOptions() Options {
	return Options{PollEvery: 5 * time.Millisecond, RetryMin: 5 * time.Millisecond, RetryMax: 50 * time.Millisecond,
		CallTimeout: 10 * time.Second}
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, dbPath: storagetest.Path(t), key: testKey(t), opts: opts}
	h.node = newFakeNode(h.key.PublicKey())
	h.boot()
	return h
}

// boot opens the DB, makes an actor system and starts the chain actor (again, after crash).
func (h *harness) boot() {
	t := h.t
	t.Helper()
	db, err := storage.Open(h.dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.db = db
	h.sys = newQuietSystem()
	h.answers = make(chan *actors.Anchored, 10000)
	ans := h.answers
	h.table, _ = h.sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*actors.Anchored); ok {
			ans <- m
		}
	}), "table-1")
	h.chain, err = New(db, h.key, h.node, h.opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.chain.Start(context.Background(), h.sys); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.crash)
}

// crash stops the actor and closes the DB without any draining: what survives is what was
// written.
func (h *harness) crash() {
	if h.db == nil {
		return
	}
	h.chain.Stop()
	h.sys.Shutdown()
	h.db.Close()
	h.db = nil
}

func job(round uint64, kind string, seq uint32, tag string) games.AnchorRequest {
	return games.AnchorRequest{Kind: kind, Seq: seq, Hash: sha256.Sum256([]byte(fmt.Sprintf("%d/%s/%d/%s", round, kind, seq, tag)))}
}

func (h *harness) send(round uint64, req games.AnchorRequest) {
	h.chain.Anchor(actors.AnchorJob{Table: "1", Round: anchor.RoundID(round), Request: req, ReplyTo: h.table})
}

// await collects n answers (failing after 10 s).
func (h *harness) await(n int) []*actors.Anchored {
	h.t.Helper()
	var out []*actors.Anchored
	deadline := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case m := <-h.answers:
			out = append(out, m)
		case <-deadline:
			h.t.Fatalf("%d of %d answers", len(out), n)
		}
	}
	return out
}

// settle waits, on the bubble's clock, until nothing is pending and landed reaches n.
func (h *harness) settle(n int) Stats {
	h.t.Helper()
	var s Stats
	until(h.t, "settled", 15*time.Second, h.opts.PollEvery, func() bool {
		var err error
		if s, err = h.chain.Stats(context.Background()); err != nil {
			h.t.Fatal(err)
		}
		d, _ := h.node.landed()
		return s.Pending == 0 && s.Unwritten == 0 && d >= n
	})
	return s
}

// checkChain: every answer's anchor landed exactly once, finalized nonces are 1..n in a row,
// and the queue bucket is empty.
func (h *harness) checkChain(answers []*actors.Anchored, n int) {
	h.t.Helper()
	distinct, twice := h.node.landed()
	if distinct != n || len(twice) != 0 {
		h.t.Fatalf("landed %d distinct anchors, want %d; twice: %v", distinct, n, twice)
	}
	for _, a := range answers {
		if a.Err != "" {
			h.t.Fatalf("refused: %+v", a)
		}
		data := encode(h.t, a)
		if h.node.registered[hex.EncodeToString(data)] != 1 {
			h.t.Fatalf("anchor %s/%d not registered once", a.Request.Kind, a.Request.Seq)
		}
	}
	h.node.mu.Lock()
	for i := uint64(1); i < h.node.nextFinal; i++ {
		if h.node.final[i] == nil {
			h.t.Errorf("nonce %d not final", i)
		}
	}
	h.node.mu.Unlock()
	if pending, _, bad, err := h.db.ChainQueue(); len(pending)+len(bad) != 0 || err != nil {
		h.t.Errorf("chainq not empty: %+v %v %v", pending, bad, err)
	}
}

func encode(t testing.TB, a *actors.Anchored) []byte {
	k, _ := anchor.ParseKind(a.Request.Kind)
	r, _ := anchor.ParseRound(a.Round)
	b, err := anchor.Anchor{Kind: k, Round: r, Seq: a.Request.Seq, Hash: a.Request.Hash}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var kinds = []string{"exchange", "commitment", "turn", "opened", "replay", "transcript"}

// The answer's hash is the hash of the transaction that lands, whose data is the anchor.
func TestAnchorsAnsweredAndLandOnce(t *testing.T) { inBubble(t, anchorsAnsweredAndLandOnce) }

func anchorsAnsweredAndLandOnce(t *testing.T) {
	h := newHarness(t, fastOptions())
	const n = 120
	for i := 0; i < n; i++ {
		h.send(uint64(100+i%4), job(uint64(100+i%4), kinds[i%6], uint32(i+1), "a"))
	}
	answers := h.await(n)
	h.settle(n)
	h.checkChain(answers, n)
	h.node.mu.Lock()
	defer h.node.mu.Unlock()
	for _, a := range answers {
		var hash [32]byte
		hex.Decode(hash[:], []byte(a.Tx))
		tx := h.node.finalByH[hash]
		if tx == nil {
			t.Fatalf("answered %s, not on chain", a.Tx)
		}
		if d, _ := tx.RegisteredData(); !bytes.Equal(d, encode(t, a)) {
			t.Fatalf("tx %s registers %x", a.Tx, d)
		}
		if a.Table != "1" || !strings.HasPrefix(a.Round, "T-10") {
			t.Fatalf("answer %+v", a)
		}
	}
}

func TestMetrics(t *testing.T) { inBubble(t, metrics) }

func metrics(t *testing.T) {
	h := &harness{t: t, dbPath: storagetest.Path(t), key: testKey(t)}
	h.node = newFakeNode(h.key.PublicKey())
	reg := prometheus.NewRegistry()
	h.opts = fastOptions()
	h.opts.Metrics = reg
	h.boot()
	for i := 0; i < 5; i++ {
		h.send(3, job(3, "exchange", uint32(i+1), "m"))
	}
	answers := h.await(5)
	h.settle(5)
	h.checkChain(answers, 5)
	got := map[string]float64{}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		m := mf.GetMetric()[0]
		if m.GetCounter() != nil {
			got[mf.GetName()] = m.GetCounter().GetValue()
		} else {
			got[mf.GetName()] = m.GetGauge().GetValue()
		}
	}
	if got["arena_chain_landed_total"] != 5 || got["arena_chain_pending"] != 0 || got["arena_chain_next_nonce"] != 6 || got["arena_chain_send_calls_total"] != 5 {
		t.Fatalf("metrics %v", got)
	}
}

func TestBadJobsRefused(t *testing.T) { inBubble(t, badJobsRefused) }

func badJobsRefused(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.chain.Anchor(actors.AnchorJob{Table: "1", Round: "T-1", Request: games.AnchorRequest{Kind: "bogus", Seq: 1}, ReplyTo: h.table})
	h.chain.Anchor(actors.AnchorJob{Table: "1", Round: "round-1", Request: games.AnchorRequest{Kind: "exchange", Seq: 1}, ReplyTo: h.table})
	h.chain.Anchor(actors.AnchorJob{Table: "1", Round: "T-1", Request: games.AnchorRequest{Kind: "exchange", Seq: 0}, ReplyTo: h.table})
	for _, a := range h.await(3) {
		if a.Err == "" || a.Tx != "" {
			t.Errorf("accepted %+v", a)
		}
	}
	if s, _ := h.chain.Stats(context.Background()); s.Pending != 0 || s.NextNonce != 1 {
		t.Errorf("a refused job used a nonce: %+v", s)
	}
}

// The same anchor asked twice (a table replaying a step) is one transaction, answered twice.
func TestRepeatedAnchorRegisteredOnce(t *testing.T) { inBubble(t, repeatedAnchorRegisteredOnce) }

func repeatedAnchorRegisteredOnce(t *testing.T) {
	h := newHarness(t, fastOptions())
	req := job(7, "exchange", 1, "x")
	h.send(7, req)
	h.send(7, req)
	a := h.await(2)
	if a[0].Tx != a[1].Tx || a[0].Tx == "" {
		t.Fatalf("answers %s / %s", a[0].Tx, a[1].Tx)
	}
	h.settle(1)
	h.send(7, req) // after it landed: answered from the index
	if b := h.await(1); b[0].Tx != a[0].Tx {
		t.Fatalf("after landing: %s", b[0].Tx)
	}
	h.checkChain(a, 1)
	l, ok, err := Lookup(h.db, encode(t, a[0]))
	if err != nil || !ok || !l.Final || l.Tx != a[0].Tx || l.ID != a[0].Tx {
		t.Fatalf("lookup %+v %v %v", l, ok, err)
	}
}

// Submissions go in batches while the node is slow: far fewer batches than anchors.
func TestBatching(t *testing.T) { inBubble(t, batching) }

func batching(t *testing.T) {
	o := fastOptions()
	o.BatchSize = 16
	h := newHarness(t, o)
	h.node.set(func(n *fakeNode) { n.sendLat = 10 * time.Millisecond })
	const n = 64
	for i := 0; i < n; i++ {
		h.send(1, job(1, "exchange", uint32(i+1), "b"))
	}
	answers := h.await(n)
	s := h.settle(n)
	h.checkChain(answers, n)
	if s.Batches >= n/4 || s.Calls != n {
		t.Fatalf("%d batches, %d calls for %d anchors", s.Batches, s.Calls, n)
	}
	t.Logf("%d anchors in %d batches", n, s.Batches)
}

// Transient failures are retried with back-off until everything lands once.
func TestRetryAfterErrors(t *testing.T) { inBubble(t, retryAfterErrors) }

func retryAfterErrors(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.failSends = 25 })
	const n = 30
	for i := 0; i < n; i++ {
		h.send(2, job(2, "commitment", uint32(i+1), "r"))
	}
	answers := h.await(n)
	s := h.settle(n)
	h.checkChain(answers, n)
	if s.Calls < n+25 {
		t.Fatalf("calls %d", s.Calls)
	}
}

// A node that took a submission but whose answer was lost says ALREADY_EXISTS to the retry:
// success, and the anchor lands once.
func TestAlreadyExistsIsSuccess(t *testing.T) { inBubble(t, alreadyExistsIsSuccess) }

func alreadyExistsIsSuccess(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.loseReply = 5; n.hold = true })
	const n = 10
	for i := 0; i < n; i++ {
		h.send(3, job(3, "exchange", uint32(i+1), "d"))
	}
	answers := h.await(n)
	until(t, "five duplicates", 5*time.Second, h.opts.PollEvery, func() bool {
		s, _ := h.chain.Stats(context.Background())
		return s.Duplicates >= 5
	})
	h.node.Seal()
	h.node.set(func(n *fakeNode) { n.hold = false })
	s := h.settle(n)
	h.checkChain(answers, n)
	if s.Resigned != 0 {
		t.Fatalf("re-signed %d", s.Resigned)
	}
}

// Another party takes nonces the actor had assigned: the node refuses those submissions, the
// actor re-syncs and re-signs exactly those, and every anchor lands once.
func TestNonceResync(t *testing.T) { inBubble(t, nonceResync) }

func nonceResync(t *testing.T) {
	h := newHarness(t, fastOptions())
	for i := 0; i < 5; i++ {
		h.send(4, job(4, "exchange", uint32(i+1), "n"))
	}
	first := h.await(5)
	h.settle(5)
	h.node.External(3) // nonces 6, 7, 8 are gone
	for i := 5; i < 10; i++ {
		h.send(4, job(4, "exchange", uint32(i+1), "n"))
	}
	second := h.await(5)
	s := h.settle(10)
	h.checkChain(append(first, second...), 10)
	if s.Resigned != 3 || s.Rejected < 1 || s.Resyncs < 2 {
		t.Fatalf("stats %+v", s)
	}
	// The three re-signed anchors were answered with their first hash; the index leads from the
	// anchor to the transaction that landed.
	moved := 0
	for _, a := range second {
		l, ok, err := Lookup(h.db, encode(t, a))
		if err != nil || !ok || !l.Final || l.ID != a.Tx {
			t.Fatalf("lookup %+v %v %v", l, ok, err)
		}
		if l.Tx != l.ID {
			moved++
		}
	}
	if moved != 3 {
		t.Fatalf("%d moved", moved)
	}
}

// Items that expire while the node is down are re-signed and land once.
func TestExpiredResigned(t *testing.T) { inBubble(t, expiredResigned) }

func expiredResigned(t *testing.T) {
	o := fastOptions()
	o.Expiry = 2 * time.Second
	h := newHarness(t, o)
	h.node.set(func(n *fakeNode) { n.down = true })
	for i := 0; i < 4; i++ {
		h.send(5, job(5, "turn", uint32(i+1), "e"))
	}
	answers := h.await(4)
	// Expiry is what is tested: 2.5 s on the bubble's clock (whole seconds: signed at t0,
	// expired by t0+2), passed at once.
	time.Sleep(2500 * time.Millisecond)
	h.node.set(func(n *fakeNode) { n.down = false })
	s := h.settle(4)
	h.checkChain(answers, 4)
	if s.Resigned < 4 { // under load a re-signed item may expire again before it lands
		t.Fatalf("stats %+v", s)
	}
}

// A node that lost its pool (restart) gets the same bytes again.
func TestLostPoolResubmitted(t *testing.T) { inBubble(t, lostPoolResubmitted) }

func lostPoolResubmitted(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.hold = true })
	for i := 0; i < 6; i++ {
		h.send(6, job(6, "exchange", uint32(i+1), "p"))
	}
	answers := h.await(6)
	waitFor(t, func() bool { h.node.mu.Lock(); defer h.node.mu.Unlock(); return len(h.node.pool) == 6 })
	h.node.DropPool()
	h.node.set(func(n *fakeNode) { n.hold = false })
	s := h.settle(6)
	h.checkChain(answers, 6)
	if s.Resigned != 0 {
		t.Fatalf("stats %+v", s)
	}
}

// waitFor waits, in a bubble, until f holds (until).
func waitFor(t *testing.T, f func() bool) {
	t.Helper()
	until(t, "condition", 5*time.Second, fastOptions().PollEvery, f)
}

// Crash with submissions pending (some never sent, some in the node's pool): after a restart on
// the same file each lands exactly once; answers were given only for what was written.
func TestCrashPendingLandOnce(t *testing.T) { inBubble(t, crashPendingLandOnce) }

func crashPendingLandOnce(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.hold = true })
	for i := 0; i < 8; i++ {
		h.send(7, job(7, "exchange", uint32(i+1), "c"))
	}
	waitFor(t, func() bool { h.node.mu.Lock(); defer h.node.mu.Unlock(); return len(h.node.pool) == 8 })
	h.node.set(func(n *fakeNode) { n.down = true })
	for i := 8; i < 20; i++ {
		h.send(7, job(7, "commitment", uint32(i+1), "c"))
	}
	answers := h.await(20)
	// Write before you speak: every answered hash is in chainq.
	pending, _, _, err := h.db.ChainQueue()
	if err != nil {
		t.Fatal(err)
	}
	queued := map[string]bool{}
	for _, r := range pending {
		queued[r.ID] = true
	}
	for _, a := range answers {
		if !queued[a.Tx] {
			t.Errorf("answered %s before writing it", a.Tx)
		}
	}
	h.crash()
	h.node.set(func(n *fakeNode) { n.down = false; n.hold = false })
	h.boot()
	s := h.settle(20)
	h.checkChain(answers, 20)
	if s.Resigned != 0 {
		t.Fatalf("after restart: %+v", s)
	}
	h.node.mu.Lock()
	defer h.node.mu.Unlock()
	if h.node.nextFinal != 21 {
		t.Fatalf("nonces used: %d", h.node.nextFinal-1)
	}
}

// Play never waits: with a node taking 5 s per call, the actor still answers every request in
// well under a millisecond-scale bound (bbolt's fsync dominates), and the queue just grows. It
// runs on the wall clock, not in a bubble: the latencies it logs are docs/performance.md's.
func TestPlayNeverWaitsOnSlowNode(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.sendLat = 5 * time.Second })
	const n = 100
	lat := make([]time.Duration, 0, n)
	began := time.Now()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		h.send(8, job(8, "exchange", uint32(i+1), "s"))
		h.await(1)
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p50, p99 := lat[n/2], lat[n*99/100]
	t.Logf("answer latency with a 5 s node: p50 %v, p99 %v, max %v", p50, p99, lat[n-1])
	// Every answer came while the node was still busy with the first submission: no answer
	// waited for a submission (and bbolt's fsync, not the node, sets the latency).
	s, _ := h.chain.Stats(context.Background())
	if done := int(time.Since(began) / (5 * time.Second)); s.Pending != n || s.Landed != 0 || s.Calls > done {
		t.Fatalf("answers waited for the node: %+v after %v", s, time.Since(began))
	}
	if p50 > 250*time.Millisecond || lat[n-1] > 2*time.Second {
		t.Fatalf("answers slow: p50 %v, max %v", p50, lat[n-1])
	}
}

func ed25519Pub(seed []byte) []byte {
	k := ccdKeyFromSeed(seed)
	return k
}

var _ = binary.BigEndian

func newQuietSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
}

// Records that do not decode (or belong to another account) are skipped and left in place; the
// rest of the queue lands, and nothing panics.
func TestCorruptQueueRecordsSkipped(t *testing.T) { inBubble(t, corruptQueueRecordsSkipped) }

func corruptQueueRecordsSkipped(t *testing.T) {
	h := newHarness(t, fastOptions())
	h.node.set(func(n *fakeNode) { n.down = true })
	for i := 0; i < 3; i++ {
		h.send(9, job(9, "exchange", uint32(i+1), "q"))
	}
	answers := h.await(3)
	h.crash()
	other, _ := ccd.NewKey(ccd.Address{9}, bytes.Repeat([]byte{9}, 32))
	foreign, _ := ccd.RegisterData(other, 1, uint64(time.Now().Add(time.Hour).Unix()), []byte("x"))
	storagetest.Corrupt(t, h.dbPath, storage.BucketChainQ, bytes.Repeat([]byte{1}, 32), []byte("{not json"))
	r := record{ID: foreign.HashHex(), Data: "78", BlockItem: hex.EncodeToString(foreign.BlockItem), Tx: foreign.HashHex(), Nonce: 1}
	v, _ := json.Marshal(r)
	storagetest.Corrupt(t, h.dbPath, storage.BucketChainQ, foreign.Hash[:], v)
	h.node.set(func(n *fakeNode) { n.down = false })
	h.boot()
	until(t, "the queue landed", 10*time.Second, h.opts.PollEvery, func() bool { d, _ := h.node.landed(); return d == 3 })
	distinct, twice := h.node.landed()
	if distinct != 3 || len(twice) != 0 {
		t.Fatalf("landed %d, twice %v", distinct, twice)
	}
	for _, a := range answers {
		if h.node.registered[hex.EncodeToString(encode(t, a))] != 1 {
			t.Fatalf("%+v did not land", a)
		}
	}
	pending, _, bad, err := h.db.ChainQueue()
	kept := map[string]bool{}
	for _, r := range pending {
		kept[r.ID] = true
	}
	for _, k := range bad {
		kept[k] = true
	}
	if err != nil || !kept[hex.EncodeToString(bytes.Repeat([]byte{1}, 32))] || !kept[foreign.HashHex()] {
		t.Errorf("skipped records were removed: %v %v %v", pending, bad, err)
	}
}
