package ledger

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/storage"
	"arena/storage/storagetest"
)

const waitMax = 10 * time.Second

func newSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
}

// gatedStore is a storage.Store whose appends can be held at a gate or made to fail.
type gatedStore struct {
	*storage.Store
	mu   sync.Mutex
	gate chan struct{} // non-nil: appends wait for it to close
	fail int           // appends to fail
	seen int           // appends attempted
}

func (g *gatedStore) AppendLedger(first uint64, rows [][]byte) error {
	g.mu.Lock()
	g.seen++
	gate, fail := g.gate, g.fail > 0
	if fail {
		g.fail--
	}
	g.mu.Unlock()
	if gate != nil {
		<-gate
	}
	if fail {
		return errors.New("injected disk failure")
	}
	return g.Store.AppendLedger(first, rows)
}

// attempts is how many appends reached the store.
func (g *gatedStore) attempts() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seen
}

func openStore(t *testing.T, path string) *storage.Store {
	t.Helper()
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// start runs a ledger on a fresh system over store.
func start(t *testing.T, store Store) (*Ledger, *actor.ActorSystem) {
	t.Helper()
	sys := newSystem()
	l, err := Start(sys, store, Options{Now: func() time.Time { return time.Unix(1_800_000_000, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	return l, sys
}

func audit(t testing.TB, l *Ledger) *State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitMax)
	defer cancel()
	if err := Audit(ctx, l); err != nil {
		t.Fatal(err)
	}
	st, err := l.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A Post is answered only once its rows are on disk: held at the disk, the caller hears
// nothing; released, it hears, and the rows are there to read. It runs in a synctest bubble, so
// "the caller hears nothing" is checked once every goroutine is blocked, not after a pause.
func TestLedgerAnswersAfterCommit(t *testing.T) { synctest.Test(t, ledgerAnswersAfterCommit) }

func ledgerAnswersAfterCommit(t *testing.T) {
	st := openStore(t, storagetest.Path(t))
	defer st.Close()
	g := &gatedStore{Store: st, gate: make(chan struct{})}
	l, sys := start(t, g)
	defer sys.Shutdown()
	ctx := context.Background()

	type res struct {
		r   *PostReply
		err error
	}
	done := make(chan res, 2)
	go func() {
		r, err := l.Post(ctx, &Post{Key: "open-1", Rows: []Row{OpenHold("h1", "microCCD", nil), Receive("h1", "payer", 100, "dep:1")}})
		done <- res{r, err}
	}()
	synctest.Wait() // the write is at the gate
	if n := g.attempts(); n != 1 {
		t.Fatalf("%d writes reached the store, want 1", n)
	}
	// A second post and a query queue behind the write in flight.
	go func() {
		r, err := l.Post(ctx, &Post{Rows: []Row{Refund("h1", "payer", 30, "back:1")}})
		done <- res{r, err}
	}()
	synctest.Wait() // the write held at the gate, the second post and the query queued behind it
	select {
	case r := <-done:
		t.Fatalf("answered before the rows were durable: %+v %v", r.r, r.err)
	default:
	}
	if last, _ := st.LastLedgerSeq(); last != 0 {
		t.Fatalf("rows on disk before the gate opened: %d", last)
	}
	close(g.gate)
	for i := 0; i < 2; i++ {
		r := <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		if last, _ := st.LastLedgerSeq(); last < r.r.Last {
			t.Fatalf("answered %+v with only %d rows on disk", r.r, last)
		}
	}
	s := audit(t, l)
	if got := s.Units["microCCD"]; got != (Totals{Received: 100, Held: 70, Refunded: 30}) {
		t.Fatalf("totals %+v", got)
	}
}

// A Post with a key is applied once: asked again it answers the first outcome and writes
// nothing. A refused Post writes nothing and names its sentinel.
func TestLedgerIdempotentAndAllOrNothing(t *testing.T) {
	st := openStore(t, storagetest.Path(t))
	defer st.Close()
	l, sys := start(t, st)
	defer sys.Shutdown()
	ctx := context.Background()
	p := &Post{Key: "seat/1", Rows: []Row{OpenHold("h1", "sat", nil), Receive("h1", "payer", 21, "inv:1")}}
	r1, err := l.Post(ctx, p)
	if err != nil || r1.First != 1 || r1.Last != 2 || r1.Dup {
		t.Fatalf("first: %+v %v", r1, err)
	}
	r2, err := l.Post(ctx, p)
	if err != nil || !r2.Dup || r2.First != 1 || r2.Last != 2 {
		t.Fatalf("again: %+v %v", r2, err)
	}
	_, err = l.Post(ctx, &Post{Rows: []Row{OpenPot("p", "sat", nil), Stake("h1", "p", 22)}})
	if !errors.Is(err, ErrInsufficient) {
		t.Fatalf("over-stake: %v", err)
	}
	if _, ok, _ := l.Pot(ctx, "p"); ok {
		t.Fatal("the refused post's first row was kept")
	}
	if h, ok, err := l.Hold(ctx, "h1"); err != nil || !ok || h.Balance != 21 || h.Unit != "sat" {
		t.Fatalf("hold %+v %v %v", h, ok, err)
	}
	if last, _ := st.LastLedgerSeq(); last != 2 {
		t.Fatalf("%d rows on disk, want 2", last)
	}
	audit(t, l)
}

// A failed write refuses its Posts (unavailable, retry) and leaves no trace in the state; what
// was queued behind it is run again against what the disk has; the next write succeeds.
func TestLedgerWriteFailureRollsBack(t *testing.T) { synctest.Test(t, ledgerWriteFailureRollsBack) }

func ledgerWriteFailureRollsBack(t *testing.T) {
	st := openStore(t, storagetest.Path(t))
	defer st.Close()
	g := &gatedStore{Store: st}
	l, sys := start(t, g)
	defer sys.Shutdown()
	ctx := context.Background()
	if _, err := l.Post(ctx, &Post{Rows: []Row{OpenHold("h", "microCCD", nil), Receive("h", "payer", 100, "dep:1")}}); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.fail, g.gate = 1, make(chan struct{})
	g.mu.Unlock()
	// One channel a post: the two answers leave the ledger in order, but the goroutines that
	// take them may hand them on in either.
	stakeErr, refundErr := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := l.Post(ctx, &Post{Key: "stake", Rows: []Row{OpenPot("T-1", "microCCD", nil), Stake("h", "T-1", 100)}})
		stakeErr <- err
	}()
	synctest.Wait() // the stake's write is at the gate
	if n := g.attempts(); n != 2 {
		t.Fatalf("%d writes reached the store, want 2", n)
	}
	// Queued behind the failing write: valid only if the stake is gone.
	go func() {
		_, err := l.Post(ctx, &Post{Rows: []Row{Refund("h", "payer", 100, "back")}})
		refundErr <- err
	}()
	synctest.Wait() // the refund is queued behind the failing write
	close(g.gate)
	e1, e2 := <-stakeErr, <-refundErr
	if !errors.Is(e1, ErrUnavailable) || e2 != nil {
		t.Fatalf("failed write: %v; the post queued behind it: %v", e1, e2)
	}
	s := audit(t, l)
	if _, ok := s.Pots["T-1"]; ok || s.Units["microCCD"] != (Totals{Received: 100, Refunded: 100}) {
		t.Fatalf("after the failure: pots %v totals %+v", s.Pots, s.Units)
	}
	if _, ok := s.Posted("stake"); ok {
		t.Fatal("the failed post's key was kept")
	}
}

// The ledger survives a restart: the actor system is stopped while posts are in flight, a new
// one starts on the same file, its state is the rows' (audit), and every post sent again with
// its key is applied at most once: nothing doubled, nothing acknowledged lost.
func TestLedgerRestartMidFlow(t *testing.T) {
	path := storagetest.Path(t)
	st := openStore(t, path)
	sys := newSystem()
	l, err := Start(sys, st, Options{AskTimeout: 300 * time.Millisecond}) // the posts the stop strands give up soon
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const seats = 40
	posts := make([]*Post, seats)
	for i := range posts {
		h := fmt.Sprintf("seat/%d", i)
		posts[i] = &Post{Key: "join/" + h, Rows: []Row{OpenHold(h, "microCCD", nil), Receive(h, "payer", 50, "dep/"+h)}}
	}
	pot := &Post{Key: "open/T-1", Rows: []Row{OpenPot("T-1", "microCCD", nil)}}
	if _, err := l.Post(ctx, pot); err != nil {
		t.Fatal(err)
	}
	acked := make(chan int, seats)
	var wg sync.WaitGroup
	for i := range posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := l.Post(ctx, posts[i]); err == nil {
				acked <- i
			}
		}()
		if i == seats/2 { // mid-flow: half the posts are sent, some queued, one write in flight
			sys.Root.Stop(l.PID())
			sys.Shutdown()
		}
	}
	wg.Wait()
	close(acked)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st2 := openStore(t, path)
	defer st2.Close()
	l2, sys2 := start(t, st2)
	defer sys2.Shutdown()
	before := audit(t, l2)
	for i := range acked {
		if _, ok := before.Posted(posts[i].Key); !ok {
			t.Fatalf("post %d was acknowledged and is lost", i)
		}
	}
	disk, err := Replay(st2)
	if err != nil || !reflect.DeepEqual(disk, before) {
		t.Fatalf("state after restart is not the rows': %v", err)
	}
	// Everyone sends again; then each seat stakes its entry.
	for _, p := range append([]*Post{pot}, posts...) {
		if _, err := l2.Post(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range posts {
		if _, err := l2.Post(ctx, &Post{Key: fmt.Sprintf("stake/%d", i), Rows: []Row{Stake(fmt.Sprintf("seat/%d", i), "T-1", 50)}}); err != nil {
			t.Fatal(err)
		}
	}
	after := audit(t, l2)
	if got := after.Units["microCCD"]; got != (Totals{Received: 50 * seats, Staked: 50 * seats}) {
		t.Fatalf("totals %+v: a post was doubled or lost", got)
	}
	t.Logf("%d rows were on disk at the restart, %d after", before.Last, after.Last)
}

// A store whose rows do not replay leaves the ledger refusing (corrupt), never guessing.
func TestLedgerRefusesCorruptRows(t *testing.T) {
	st := openStore(t, storagetest.Path(t))
	defer st.Close()
	if err := st.AppendLedger(1, [][]byte{[]byte(`{"seq":1,"kind":"stake","hold":"x","pot":"y","unit":"sat","amount":5}`)}); err != nil {
		t.Fatal(err)
	}
	l, sys := start(t, st)
	defer sys.Shutdown()
	ctx := context.Background()
	if _, err := l.Post(ctx, &Post{Rows: []Row{OpenHold("h", "sat", nil)}}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("post on corrupt rows: %v", err)
	}
	if _, err := l.State(ctx); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("state of corrupt rows: %v", err)
	}
}

// An actor posts by message and takes the answer as a message (it never blocks on a future).
func TestLedgerAnswersActorsByMessage(t *testing.T) {
	st := storagetest.Open(t, storage.Options{NoSync: true})
	l, sys := start(t, st)
	defer sys.Shutdown()
	got := make(chan *PostReply, 2)
	caller := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *Post:
			ctx.Request(l.PID(), m)
		case *PostReply:
			got <- m
		}
	}))
	sys.Root.Send(caller, &Post{Rows: []Row{OpenHold("h", "usdc-micro", nil), Receive("h", "0xpayer", 2_500_000, "x402:1")}})
	sys.Root.Send(caller, &Post{Rows: []Row{Receive("h", "0xpayer", 1, "x402:1")}})
	for i, want := range []string{"", "duplicate"} {
		select {
		case r := <-got:
			if r.Code != want {
				t.Fatalf("reply %d: %+v, want code %q", i, r, want)
			}
		case <-time.After(waitMax):
			t.Fatal("no reply")
		}
	}
	if s := audit(t, l); s.Units["usdc-micro"] != (Totals{Received: 2_500_000, Held: 2_500_000}) {
		t.Fatalf("totals %+v", s.Units)
	}
}
