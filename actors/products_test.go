package actors

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors/internal/countdown"
	"arena/games"
	"arena/storage"
	"arena/storage/storagetest"
)

// renamedGame is countdown under another game id, so two products on one runtime each have a
// game of their own.
type renamedGame struct {
	*countdown.Engine
	id string
}

func (g renamedGame) Manifest() games.Manifest {
	m := g.Engine.Manifest()
	m.ID = g.id
	return m
}

// testProduct is a protocol's product for the runtime's tests: one game, one channel whose one
// actor (a probe) carries every seat of it, spawned in BeforeRecover as a protocol spawns its
// channels, keys of its own, and listeners that hand the test what reaches them (heard).
type testProduct struct {
	name, game string
	prompts    chan any // what its channel actor received (probe)
	heard      chan any // its listeners': a [2]string (table, status) or an AnchorJob
	ledger     chan error
	statuses   [][2]string // what heard carried, as the test read it (take)
	anchors    []AnchorJob
}

func newTestProduct(name, game string) *testProduct {
	return &testProduct{name: name, game: game, prompts: make(chan any, 1000), heard: make(chan any, 1000),
		ledger: make(chan error, 4)}
}

// channel is the product's channel name, and its actor's.
func (p *testProduct) channel() string { return p.name + "-seat" }

func (p *testProduct) Anchor(job AnchorJob) { p.heard <- job }

func (p *testProduct) product() Product {
	return Product{Name: p.name, Games: []string{p.game}, Channels: map[string]string{p.channel(): p.channel()},
		Keys: testKeys{registry: p.name + ":"}, Anchorer: p,
		OnStatus: func(table, status string) { p.heard <- [2]string{table, status} },
		BeforeRecover: func(a *Arena) error {
			_, err := a.Ledger().State(context.Background()) // the runtime's ledger answers already
			p.ledger <- err
			return spawnProbe(a.System(), p.channel(), p.prompts)
		}}
}

// take reads what the product's listeners heard until cond holds of it (a test that waits
// waitMax has failed).
func (p *testProduct) take(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(waitMax)
	for !cond() {
		select {
		case m := <-p.heard:
			p.add(m)
		case <-timeout:
			t.Fatalf("%s: timed out waiting for %s", p.name, what)
		}
	}
}

// drain takes what is left once the runtime has stopped.
func (p *testProduct) drain() {
	for {
		select {
		case m := <-p.heard:
			p.add(m)
		default:
			return
		}
	}
}

func (p *testProduct) add(m any) {
	switch m := m.(type) {
	case [2]string:
		p.statuses = append(p.statuses, m)
	case AnchorJob:
		p.anchors = append(p.anchors, m)
	}
}

// tables are the tables of the statuses and of the anchors the product heard.
func (p *testProduct) tables() (status, anchor []string) {
	for _, s := range p.statuses {
		status = append(status, s[0])
	}
	for _, j := range p.anchors {
		anchor = append(anchor, j.Table)
	}
	slices.Sort(status)
	slices.Sort(anchor)
	return slices.Compact(status), slices.Compact(anchor)
}

// statusesOf are the statuses of table the product heard, in order.
func (p *testProduct) statusesOf(table string) []string {
	var out []string
	for _, s := range p.statuses {
		if s[0] == table {
			out = append(out, s[1])
		}
	}
	return out
}

// anchorTurns are the turns of the anchor requests of table the product heard, in order.
func (p *testProduct) anchorTurns(table string) []uint32 {
	var out []uint32
	for _, j := range p.anchors {
		if j.Table == table {
			out = append(out, j.Request.Seq)
		}
	}
	return out
}

// Two products on one runtime: each table's prompts go to its product's channel, its keys are
// its product's, and its statuses and anchors reach its product alone (and the runtime's own
// hooks, which hear every table); after a restart both products' tables resume and redeliver
// their open moves to the channels the products spawned again before recovery.
func TestTwoProductsShareOneRuntime(t *testing.T) {
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	br, err := games.NewBracket(&countdown.Engine{}, renamedGame{&countdown.Engine{}, "countdown-b"})
	if err != nil {
		t.Fatal(err)
	}
	clock := NewFakeClock(t0)
	alpha, beta := newTestProduct("alpha", countdown.ID), newTestProduct("beta", "countdown-b")
	var live atomic.Pointer[Arena]
	var allMu sync.Mutex
	all := map[string][]string{} // Options.OnStatus: table → statuses
	chain := &replyingAnchorer{sys: func() *actor.ActorSystem { return live.Load().System() }}
	stop := func() {}
	start := func() {
		t.Helper()
		a, err := Start(Options{DB: st, Bracket: br, Clock: clock, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
			InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7", Logger: slog.New(slog.DiscardHandler),
			Anchorer: chain,
			OnStatus: func(table, status string) {
				allMu.Lock()
				all[table] = append(all[table], status)
				allMu.Unlock()
			},
			BeforeRecover: func(a *Arena) error { live.Store(a); return nil },
			Products:      []Product{alpha.product(), beta.product()}})
		if err != nil {
			t.Fatal(err)
		}
		stop = func() {
			stop = func() {}
			if err := a.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(func() { stop(); _ = st.Close() })
	start()

	type pair struct {
		table string
		p     *testProduct
	}
	both := []pair{{"a-1", alpha}, {"b-1", beta}}
	pace := games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}
	ctx := context.Background()
	rounds := map[string]string{}
	for _, x := range both {
		r, err := live.Load().OpenTable(ctx, TableSpec{ID: x.table, Game: x.p.game, Format: "short", Pace: pace,
			Seed: fixedSeed(7), Seats: []SeatSpec{
				{Seat: games.Seat{Seat: 1, Name: "player"}, Kind: "player", Lent: true, Channel: x.p.channel()},
				{Seat: games.Seat{Seat: 2, Name: "house"}, Kind: "house", Channel: ChannelHouse}}})
		if err != nil {
			t.Fatalf("OpenTable(%s): %v", x.table, err)
		}
		rounds[x.table] = r
	}
	answer := func(table string, turn int) {
		t.Helper()
		r, err := live.Load().Submit(ctx, SubmitAnswer{Table: table, Round: rounds[table], Input: games.Input{Seat: 1,
			Kind: "answer", Move: games.Move{Turn: turn, Phase: "move"}, Body: json.RawMessage(`{"n":9}`)}})
		if err != nil || r.Code != "" {
			t.Fatalf("answer %s turn %d: %v %+v", table, turn, err, r)
		}
	}
	// Each product's channel carries its own table's moves, and its keys named the lent seats.
	for _, x := range both {
		if d := nextPrompt(t, x.p.prompts, 1); d.Table != x.table || d.Seat != 1 {
			t.Fatalf("%s's channel got %s seat %d, want %s seat 1", x.p.name, d.Table, d.Seat, x.table)
		}
		info, err := live.Load().Table(ctx, x.table)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range info.Seats {
			if want := x.p.name + ":house-" + x.table + "-"; !strings.HasPrefix(s.Agent, want) {
				t.Fatalf("%s seat %d agent %q: its keys are not %s's (want prefix %q)", x.table, s.Seat, s.Agent, x.p.name, want)
			}
		}
		answer(x.table, 1)
		if d := nextPrompt(t, x.p.prompts, 2); d.Table != x.table {
			t.Fatalf("%s's channel got turn 2 of %s", x.p.name, d.Table)
		}
	}

	// A deploy: the runtime stops with both tables mid-round and starts again with both products.
	stop()
	start()
	for _, x := range both {
		d := nextPrompt(t, x.p.prompts, 2) // the open move, redelivered to the respawned channel
		if d.Table != x.table || d.Round != rounds[x.table] {
			t.Fatalf("after the restart %s's channel got %s %s, want %s %s", x.p.name, d.Table, d.Round, x.table, rounds[x.table])
		}
		answer(x.table, 2)
		nextPrompt(t, x.p.prompts, 3)
		answer(x.table, 3)
	}
	for _, x := range both {
		// Finished, and its last turn's anchor (answered, which lets the table stop) heard.
		x.p.take(t, x.table+" finished", func() bool {
			return slices.Contains(x.p.statusesOf(x.table), StatusFinished) && len(x.p.anchorTurns(x.table)) == 3
		})
	}
	stop() // every table has stopped: nothing more reaches a listener
	for _, x := range both {
		x.p.drain()
		status, anchor := x.p.tables()
		if !slices.Equal(status, []string{x.table}) || !slices.Equal(anchor, []string{x.table}) {
			t.Fatalf("%s heard the statuses of %v and the anchors of %v, want %s's only", x.p.name, status, anchor, x.table)
		}
		// live at its opening, live again when the restart recovered it, then finished.
		statuses := x.p.statusesOf(x.table)
		if want := []string{StatusLive, StatusLive, StatusFinished}; !slices.Equal(statuses, want) {
			t.Fatalf("%s heard %s go %v, want %v", x.p.name, x.table, statuses, want)
		}
		allMu.Lock()
		got := all[x.table]
		allMu.Unlock()
		if !slices.Equal(got, statuses) {
			t.Fatalf("Options.OnStatus heard %s go %v, its product %v", x.table, got, statuses)
		}
		if turns := x.p.anchorTurns(x.table); !slices.Equal(turns, []uint32{1, 2, 3}) {
			t.Fatalf("%s heard %s's turn anchors %v, want [1 2 3]", x.p.name, x.table, turns)
		}
		for range 2 { // each start's BeforeRecover
			if err := <-x.p.ledger; err != nil {
				t.Fatalf("%s's BeforeRecover: the runtime's ledger: %v", x.p.name, err)
			}
		}
	}
	chain.mu.Lock()
	n := len(chain.jobs)
	chain.mu.Unlock()
	if n != 6 {
		t.Fatalf("the chain took %d anchor jobs, want 6 (three turns of each table)", n)
	}
}

// A game or a channel is one product's, and every product has a name: Start refuses the rest and
// starts nothing.
func TestProductsClaimEachGameAndChannelOnce(t *testing.T) {
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	br, err := games.NewBracket(&countdown.Engine{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		channels map[string]string
		products []Product
		want     string
	}{
		{"one game, two products", nil, []Product{{Name: "a", Games: []string{countdown.ID}}, {Name: "b", Games: []string{countdown.ID}}},
			`game "countdown" is claimed twice (products a and b)`},
		{"one channel, two products", nil, []Product{{Name: "a", Channels: map[string]string{"ws": "a-ws"}}, {Name: "b", Channels: map[string]string{"ws": "b-ws"}}},
			`channel "ws" is claimed twice (product a and product b)`},
		{"a product's channel in Options.Channels", map[string]string{"ws": "ws"}, []Product{{Name: "a", Channels: map[string]string{"ws": "a-ws"}}},
			`channel "ws" is claimed twice (Options.Channels and product a)`},
		{"no name", nil, []Product{{Games: []string{countdown.ID}}}, "a name of its own is required"},
		{"one name twice", nil, []Product{{Name: "a"}, {Name: "a"}}, "a name of its own is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran := false
			for i := range tc.products {
				tc.products[i].BeforeRecover = func(*Arena) error { ran = true; return nil }
			}
			a, err := Start(Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
				Channels: tc.channels, Products: tc.products})
			if err == nil {
				_ = a.Shutdown(context.Background())
				t.Fatal("Start took them")
			}
			if !strings.Contains(err.Error(), tc.want) || ran {
				t.Fatalf("Start: %v (BeforeRecover ran: %v), want %q and nothing run", err, ran, tc.want)
			}
		})
	}
	// A product's BeforeRecover that fails aborts Start, naming the product.
	boom := errors.New("boom")
	_, err = Start(Options{DB: st, Bracket: br, InstanceKey: ed25519.NewKeyFromSeed(make([]byte, 32)),
		Products: []Product{{Name: "a", BeforeRecover: func(*Arena) error { return boom }}}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "product a") {
		t.Fatalf("Start: %v, want product a's error", err)
	}
}
