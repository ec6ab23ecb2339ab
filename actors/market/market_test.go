package market

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	gm "arena/games/market"
	"arena/storage"
	"arena/storage/storagetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newSystem(t testing.TB) *actor.ActorSystem {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(sys.Shutdown)
	return sys
}

func testConfig() gm.Config {
	return gm.Config{GameID: "actor-market", Assets: []gm.Asset{{ID: "credits", UnitPrice: 1}, {ID: "wood", UnitPrice: 4}},
		StartingAssets: []gm.Holding{{AssetID: "credits", Quantity: 100}, {AssetID: "wood", Quantity: 20}}}
}

// memStore keeps each saved Delta's bytes in order, as the market bucket does; fail makes the
// next saves fail; saved is signalled on every Delta saved; groups is each write's size. With
// gate set, every write first signals entered and then waits for a value from gate: nil
// writes, an error fails the write with it.
type memStore struct {
	mu      sync.Mutex
	deltas  [][]byte
	fail    bool
	saved   chan struct{}
	groups  []int
	gate    chan error
	entered chan struct{}
}

func newMemStore() *memStore {
	return &memStore{saved: make(chan struct{}, 1000), entered: make(chan struct{}, 10)}
}

func (s *memStore) AppendMarket(first uint64, ds [][]byte) error {
	s.mu.Lock()
	gate := s.gate
	s.mu.Unlock()
	if gate != nil {
		s.entered <- struct{}{}
		if err := <-gate; err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("disk full")
	}
	if first != uint64(len(s.deltas))+1 {
		return fmt.Errorf("delta %d after %d", first, len(s.deltas))
	}
	s.deltas = append(s.deltas, ds...)
	s.groups = append(s.groups, len(ds))
	for range ds {
		s.saved <- struct{}{}
	}
	return nil
}

func (s *memStore) MarketDeltas(fn func(uint64, []byte) error) error {
	s.mu.Lock()
	ds := append([][]byte(nil), s.deltas...)
	s.mu.Unlock()
	for i, b := range ds {
		if err := fn(uint64(i)+1, b); err != nil {
			return err
		}
	}
	return nil
}

func (s *memStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.deltas)
}

func (s *memStore) setFail(f bool) {
	s.mu.Lock()
	s.fail = f
	s.mu.Unlock()
}

func (s *memStore) setGate(g chan error) {
	s.mu.Lock()
	s.gate = g
	s.mu.Unlock()
}

func start(t *testing.T, sys *actor.ActorSystem, store Store, clock Clock, name string) *Market {
	t.Helper()
	m, err := Start(sys, store, clock, testConfig(), [32]byte{9}, Options{Name: name, AskTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func do(t *testing.T, m *Market, owner, body string) map[string]any {
	t.Helper()
	b, err := m.Do(context.Background(), owner, []byte(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out["raw"] = string(b)
	return out
}

const enroll = `{"protocolVersion":2,"commandId":"enroll-01","action":"enroll"}`

// A mutation is saved before it is answered; a query writes nothing; a failed write answers
// ErrUnavailable and changes nothing, so the retry runs again from the same State.
func TestWriteBeforeSpeak(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	m := start(t, sys, store, actors.NewFakeClock(t0), "market-wbs")
	store.setFail(true)
	if _, err := m.Do(context.Background(), "owner-a", []byte(enroll)); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a failed write answered %v", err)
	}
	if r := do(t, m, "owner-a", `{"protocolVersion":2,"action":"readStanding"}`); r["stateVersion"] != 0.0 {
		t.Fatalf("the failed enrolment shows: %s", r["raw"])
	}
	store.setFail(false)
	r := do(t, m, "owner-a", enroll)
	if r["ok"] != true || r["stateVersion"] != 1.0 || store.count() != 1 {
		t.Fatalf("enrolment %s, %d saved", r["raw"], store.count())
	}
	do(t, m, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`)
	if store.count() != 1 {
		t.Fatal("a query was saved")
	}
}

// A new incarnation on the same store answers as the old one did: the State replays, and a
// retried Command gets its first answer byte for byte.
func TestRestartReplays(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	clock := actors.NewFakeClock(t0)
	m := start(t, sys, store, clock, "market-1")
	first := do(t, m, "owner-a", enroll)
	pidB := do(t, m, "owner-b", enroll)["result"].(map[string]any)["playerId"].(string)
	pay := fmt.Sprintf(`{"protocolVersion":2,"commandId":"pay-01","action":"transfer","toPlayerId":%q,"assetId":"wood","quantity":3}`, pidB)
	paid := do(t, m, "owner-a", pay)
	inv := do(t, m, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`)
	sys2 := newSystem(t)
	m2 := start(t, sys2, store, clock, "market-2")
	if got := do(t, m2, "owner-a", enroll); got["raw"] != first["raw"] {
		t.Fatalf("retry after restart %s, first %s", got["raw"], first["raw"])
	}
	if got := do(t, m2, "owner-a", pay); got["raw"] != paid["raw"] {
		t.Fatalf("transfer retry after restart %s, first %s", got["raw"], paid["raw"])
	}
	if got := do(t, m2, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`); got["raw"] != inv["raw"] {
		t.Fatalf("inventory after restart %s, before %s", got["raw"], inv["raw"])
	}
}

// The expiry timer concludes a due Exchange with no request: the pass is saved when the clock
// reaches the deadline, and the reservation is released.
func TestExpiryTimer(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	clock := actors.NewFakeClock(t0)
	m := start(t, sys, store, clock, "market-timer")
	do(t, m, "owner-a", enroll)
	pidB := do(t, m, "owner-b", enroll)["result"].(map[string]any)["playerId"].(string)
	x := do(t, m, "owner-a", fmt.Sprintf(`{"protocolVersion":2,"commandId":"offer-01","action":"proposeExchange","counterpartyPlayerId":%q,`+
		`"offered":[{"assetId":"wood","quantity":5}],"requested":[{"assetId":"credits","quantity":9}],"expiresAt":"2026-03-01T12:01:00Z"}`, pidB))
	id := x["result"].(map[string]any)["exchangeId"].(string)
	for len(store.saved) > 0 {
		<-store.saved
	}
	saved := store.count()
	clock.Advance(2 * time.Minute)
	select {
	case <-store.saved:
	case <-time.After(10 * time.Second):
		t.Fatal("the expiry timer saved nothing")
	}
	if store.count() != saved+1 {
		t.Fatalf("%d saves after the deadline, want %d", store.count(), saved+1)
	}
	g := do(t, m, "owner-a", `{"protocolVersion":2,"action":"getExchange","exchangeId":"`+id+`"}`)
	if s := g["result"].(map[string]any)["status"]; s != gm.StatusExpired || store.count() != saved+1 {
		t.Fatalf("after the timer: %v, %d saves", s, store.count())
	}
	inv := do(t, m, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`)
	if !strings.Contains(inv["raw"].(string), `{"assetId":"wood","quantity":20,"reserved":0,"available":20}`) {
		t.Fatalf("reservation outlived expiry: %s", inv["raw"])
	}
}

// Records that do not replay leave the actor refusing with ErrCorrupt.
func TestCorruptRecordsRefuse(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	store.deltas = [][]byte{[]byte(`{"stateVersion":1,"ledger":[{"sequence":7}]}`)} // a Ledger row out of order
	m := start(t, sys, store, actors.NewFakeClock(t0), "market-corrupt")
	if _, err := m.Do(context.Background(), "owner-a", []byte(enroll)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt records answered %v", err)
	}
}

// Requests from many goroutines are answered one at a time: every enrolment saved once, the
// State Version counting each, and every Owner a Player of its own.
func TestConcurrentRequests(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	m := start(t, sys, store, actors.NewFakeClock(t0), "market-many")
	const n = 40
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			b, err := m.Do(context.Background(), fmt.Sprint("owner-", i), []byte(enroll))
			if err != nil {
				t.Error(err)
				return
			}
			var r struct {
				Result struct {
					PlayerID string `json:"playerId"`
				} `json:"result"`
			}
			_ = json.Unmarshal(b, &r)
			ids[i] = r.Result.PlayerID
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("player ids %v", ids)
		}
		seen[id] = true
	}
	if r := do(t, m, "owner-0", `{"protocolVersion":2,"action":"readStanding"}`); r["stateVersion"] != float64(n) || store.count() != n {
		t.Fatalf("state version %v, %d saved", r["stateVersion"], store.count())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Do(ctx, "owner-0", []byte(enroll)); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a cancelled ask answered %v", err)
	}
}

// The actor runs on the real store: its Deltas land in the market bucket, the file passes
// Check, and a new incarnation on a reopened file answers a retry byte for byte.
func TestOnStorage(t *testing.T) {
	path := storagetest.Path(t)
	s, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	clock := actors.NewFakeClock(t0)
	m := start(t, newSystem(t), s, clock, "market-disk")
	first := do(t, m, "owner-a", enroll)
	do(t, m, "owner-b", enroll)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := s.MarketDeltas(func(uint64, []byte) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("%d deltas stored, %v", n, err)
	}
	sys2 := newSystem(t)
	m2 := start(t, sys2, s, clock, "market-disk-2")
	if got := do(t, m2, "owner-a", enroll); got["raw"] != first["raw"] {
		t.Fatalf("retry on the reopened store %s, first %s", got["raw"], first["raw"])
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	storagetest.Check(t, path)
}
