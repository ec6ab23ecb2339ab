package badge

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/chain/devchain"
)

// countingNode counts agentOf calls that reach the node.
type countingNode struct {
	Node
	invokes atomic.Int64
}

func (c *countingNode) Invoke(ctx context.Context, call ccdCall) ([]byte, error) {
	c.invokes.Add(1)
	return c.Node.Invoke(ctx, call)
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeClock) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
func (f *fakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// TestCacheHitAndRefusalNotCached: a resolution is reused within the TTL without touching the
// node; after it, a broken card is refused; the refusal is not cached, so fixing the card
// resolves at once, with no wait.
func TestCacheHitAndRefusalNotCached(t *testing.T) {
	w := newWorld(t)
	spec := player("Cache")
	id := w.register(reg{owner: w.player, spec: spec})
	a0, _, _ := w.node.Agent(mustToken(id))
	good := func() []byte {
		w.mu.Lock()
		defer w.mu.Unlock()
		return append([]byte(nil), w.cards[a0.AgentURI[len(w.srv.URL):]]...)
	}()
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	node := &countingNode{Node: w.client}
	r := w.resolver(func(c *Config) { c.Node, c.Now, c.TTL = node, clock.Now, time.Minute })
	ctx := context.Background()

	a, err := r.Resolve(ctx, id.String())
	if err != nil || node.invokes.Load() != 1 {
		t.Fatalf("first: %v, %d invokes", err, node.invokes.Load())
	}
	clock.Advance(59 * time.Second)
	b, err := r.Resolve(ctx, id.String())
	if err != nil || node.invokes.Load() != 1 || !b.Key.Equal(a.Key) || b.Name != "Cache" {
		t.Fatalf("cached: %v, %d invokes, %+v", err, node.invokes.Load(), b)
	}
	// The card changes off chain: within the TTL the cached resolution stands...
	w.replace(a0.AgentURI, append(good, ' '))
	if _, err := r.Resolve(ctx, id.String()); err != nil {
		t.Fatalf("within TTL: %v", err)
	}
	// ...after it, the anchor catches the edit, and keeps catching it on every try.
	clock.Advance(2 * time.Second)
	for i := 0; i < 2; i++ {
		if _, err := r.Resolve(ctx, id.String()); codeOf(err) != CodeCardHashMismatch {
			t.Fatalf("after TTL, try %d: %v", i, err)
		}
	}
	if n := node.invokes.Load(); n != 3 {
		t.Fatalf("%d invokes, want 3 (refusals are read afresh)", n)
	}
	// Fixed: resolves at once, no clock advance.
	w.replace(a0.AgentURI, good)
	if _, err := r.Resolve(ctx, id.String()); err != nil {
		t.Fatalf("after the fix: %v", err)
	}
	// A registration suspended on chain is seen once the TTL passes.
	if err := w.node.SetAgentStatus(mustToken(id), 1, ""); err != nil {
		t.Fatal(err)
	}
	clock.Advance(61 * time.Second)
	if _, err := r.Resolve(ctx, id.String()); codeOf(err) != CodeStatusNotActive {
		t.Fatalf("suspended: %v", err)
	}
	if err := w.node.SetAgentStatus(mustToken(id), 0, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(ctx, id.String()); err != nil {
		t.Fatalf("reactivated: %v", err)
	}

	// A card broken from the start: refused, fixed, resolved at once.
	broken := w.register(reg{owner: w.player, spec: player("Late"), hash: make([]byte, 32)})
	if _, err := r.Resolve(ctx, broken.String()); codeOf(err) != CodeCardHashMismatch {
		t.Fatalf("broken: %v", err)
	}
	ba, _, _ := w.node.Agent(mustToken(broken))
	w.mu.Lock()
	served := w.cards[ba.AgentURI[len(w.srv.URL):]]
	w.mu.Unlock()
	ba.MetadataHash = sha(served)
	if err := w.node.PutAgent(ba); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(ctx, broken.String()); err != nil {
		t.Fatalf("fixed anchor: %v", err)
	}

	// TTL < 0: no cache at all.
	nc := &countingNode{Node: w.client}
	r2 := w.resolver(func(c *Config) { c.Node, c.TTL = nc, -1 })
	for i := 0; i < 3; i++ {
		if _, err := r2.Resolve(ctx, id.String()); err != nil {
			t.Fatal(err)
		}
	}
	if nc.invokes.Load() != 3 {
		t.Fatalf("uncached: %d invokes, want 3", nc.invokes.Load())
	}
}

// TestConcurrentResolve: many goroutines resolving the same and different Badges agree (run
// with -race).
func TestConcurrentResolve(t *testing.T) {
	w := newWorld(t)
	ids := []AgentID{w.register(reg{owner: w.player, spec: player("One")}), w.register(reg{owner: w.other, spec: player("Two")})}
	r := w.resolver(nil)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			a, err := r.Resolve(context.Background(), ids[i%2].String())
			if err == nil && a.ID.String() != ids[i%2].String() {
				err = errorString("wrong agent " + a.ID.String())
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestRegistryTimeoutAndSweep: a node slower than RegistryTimeout is registry_unreadable in
// about that time; expired entries leave the cache at the next sweep.
func TestRegistryTimeoutAndSweep(t *testing.T) {
	w := newWorld(t)
	id := w.register(reg{owner: w.player, spec: player("Slow")})
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	r := w.resolver(func(c *Config) { c.RegistryTimeout = 150 * time.Millisecond; c.Now = clock.Now })
	ctx := context.Background()
	if _, err := r.Resolve(ctx, id.String()); err != nil {
		t.Fatal(err)
	}
	// Sweep: stale entries of other Badges go, the fresh one stays.
	r.mu.Lock()
	for i := 0; i < 300; i++ {
		r.cache[string(rune('a'+i%26))+time.Duration(i).String()] = cached{expires: clock.Now().Add(-time.Second)}
	}
	r.inserts = sweepEvery - 1
	r.mu.Unlock()
	other := w.register(reg{owner: w.other, spec: player("Other")})
	if _, err := r.Resolve(ctx, other.String()); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	n := len(r.cache)
	r.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d cache entries after the sweep, want 2", n)
	}

	w.node.SetFaults(devchain.Faults{MethodLatency: map[string]time.Duration{"InvokeInstance": 2 * time.Second}})
	defer w.node.SetFaults(devchain.Faults{})
	clock.Advance(time.Hour)
	start := time.Now()
	_, err := r.Resolve(ctx, id.String())
	if codeOf(err) != CodeRegistryUnreadable {
		t.Fatalf("slow node: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("slow node refused after %v, want about 150ms", d)
	}
}
