package actors

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"arena/actors/internal/countdown"
	"arena/games"
	"arena/games/canon"
	"arena/storage"
	"arena/storage/storagetest"
)

// t0 is where every fake clock starts.
var t0 = time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)

const waitMax = 10 * time.Second // a test that waits this long has failed

// harness is one arena on a fake clock and a bbolt file in t.TempDir, with channels fed by the
// OnEvents and OnStatus hooks so tests synchronise on what the arena did, never on sleeps.
type harness struct {
	t     *testing.T
	store *storage.Store
	clock *FakeClock
	eng   *countdown.Engine
	eng2  games.Engine // a second game in the bracket (real engines), set before start
	// anchorer, when set before start, is wired into the arena.
	anchorer Anchorer
	reg      *prometheus.Registry // the current arena's metrics
	key      ed25519.PrivateKey
	arena    *Arena
	// live is the arena being started or running, set before boot recovery restarts any table,
	// so an anchorer answering a recovered table's job reads it without racing start.
	live   atomic.Pointer[Arena]
	probes map[string]chan any // mailbox actor name → what it received

	failCommit atomic.Bool
	commits    atomic.Int64 // CommitStep calls, failed ones included
	failFrom   atomic.Int64 // the first CommitStep call (1-based) that fails, and every one after; 0: none
	// holdFrom is the first CommitStep call (1-based) held at the disk, with every one after,
	// until release is closed (hold); 0: none.
	holdFrom atomic.Int64
	release  chan struct{}
	released sync.Once

	mu     sync.Mutex
	events chan games.Event
	log    []games.Event
	status chan [2]string
	last   map[string]string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, clock: NewFakeClock(t0), eng: &countdown.Engine{},
		key:    ed25519.NewKeyFromSeed(make([]byte, 32)),
		probes: map[string]chan any{}, events: make(chan games.Event, 100000),
		status: make(chan [2]string, 100000), last: map[string]string{}}
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true,
		CommitHook: func(string) error {
			n := h.commits.Add(1)
			if from := h.holdFrom.Load(); from > 0 && n >= from {
				<-h.release
			}
			if from := h.failFrom.Load(); h.failCommit.Load() || from > 0 && n >= from {
				return errors.New("injected disk failure")
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	h.store = st
	t.Cleanup(func() {
		if h.arena != nil {
			_ = h.arena.Shutdown(context.Background())
		}
		_ = st.Close()
	})
	h.start()
	return h
}

// hold holds the from-th CommitStep call (1-based) and every one after at the disk until
// unhold, so a test in a synctest bubble sees a table that keeps committing come to rest
// (synctest.Wait) instead of spinning. The test's end unholds.
func (h *harness) hold(from int64) {
	h.release = make(chan struct{})
	h.released = sync.Once{}
	h.holdFrom.Store(from)
	h.t.Cleanup(h.unhold)
}

// unhold lets the held commits through and holds no more.
func (h *harness) unhold() {
	h.holdFrom.Store(0)
	h.released.Do(func() { close(h.release) })
}

// start starts (or, after stop, restarts) the arena on the same store and clock; the probes
// are respawned before boot recovery so redelivered prompts reach them.
func (h *harness) start() {
	h.t.Helper()
	engines := []games.Engine{h.eng}
	if h.eng2 != nil {
		engines = append(engines, h.eng2)
	}
	br, err := games.NewBracket(engines...)
	if err != nil {
		h.t.Fatal(err)
	}
	h.reg = prometheus.NewRegistry()
	a, err := Start(Options{DB: h.store, Bracket: br, Clock: h.clock, InstanceKey: h.key, Keys: testKeys{testRegistry},
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7",
		Logger:        slog.New(slog.DiscardHandler), Metrics: h.reg,
		OnEvents: func(_, _ string, evs []games.Event) {
			for _, e := range evs {
				h.events <- e
			}
		},
		OnStatus: func(id, s string) { h.status <- [2]string{id, s} },
		Anchorer: h.anchorer,
		BeforeRecover: func(a *Arena) error {
			h.live.Store(a)
			for name, ch := range h.probes {
				if err := spawnProbe(a.System(), name, ch); err != nil {
					return err
				}
			}
			return nil
		}})
	if err != nil {
		h.t.Fatal(err)
	}
	h.arena = a
}

// system is the actor system of the arena being started or running; safe from any goroutine.
func (h *harness) system() *actor.ActorSystem { return h.live.Load().System() }

// stop shuts the arena down as a deploy would; tables stay live in storage.
func (h *harness) stop() {
	h.t.Helper()
	if err := h.arena.Shutdown(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	h.arena = nil
}

// ChannelMailbox names the probes' channel: a channel actor of the seat's own
// (SeatSpec.Actor), as the walk-ins' mailboxes of actors/dotdotdot are.
const ChannelMailbox = "mailbox"

// probe is a seat's own channel actor, as a walk-in's mailbox is: it encodes each prompt it is
// handed on its own goroutine (wire), as a protocol's channel does, and hands the test what it
// received.
type probe struct {
	ch chan any
}

// delivered is a prompt as a probe received it, with the bytes it encoded.
type delivered struct {
	*DeliverPrompt
	Wire []byte
}

// wire is the tests' channel's encoding of prompt p of round: the JCS of the round and the
// prompt's members, its state flattened. Two deliveries are the same bytes exactly when they say
// the same. A protocol's channel encodes (and signs) in its own form: DOTDOTDOT's §4 envelope is
// actors/dotdotdot/envelope, tested there and on the desk's mailboxes.
func wire(round string, p games.Prompt) ([]byte, error) {
	return canon.Marshal(struct {
		Round    string            `json:"round"`
		Seat     int               `json:"seat"`
		Move     games.Move        `json:"move"`
		Deadline time.Time         `json:"deadline"`
		State    json.RawMessage   `json:"state"`
		Inbox    []json.RawMessage `json:"inbox"`
	}{round, p.Seat, p.Move, p.Deadline, p.State.Bytes(), p.Inbox})
}

func (p *probe) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *DeliverPrompt:
		w, err := wire(m.Round, m.Prompt)
		if err != nil {
			panic(err)
		}
		p.ch <- &delivered{DeliverPrompt: m, Wire: w}
	case *RoundEnded, *TableStopped:
		p.ch <- m
	}
}

func spawnProbe(sys *actor.ActorSystem, name string, ch chan any) error {
	_, err := sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &probe{ch: ch} }), name)
	return err
}

// mailbox makes a probe mailbox actor and returns its channel.
func (h *harness) mailbox(name string) chan any {
	h.t.Helper()
	ch := make(chan any, 1000)
	h.probes[name] = ch
	if err := spawnProbe(h.arena.System(), name, ch); err != nil {
		h.t.Fatal(err)
	}
	return ch
}

func (h *harness) open(spec TableSpec) string {
	h.t.Helper()
	if spec.Game == "" {
		spec.Game = countdown.ID
	}
	round, err := h.arena.OpenTable(context.Background(), spec)
	if err != nil {
		h.t.Fatalf("OpenTable(%s): %v", spec.ID, err)
	}
	return round
}

// waitEvent returns the first event (ever committed since the harness began) that matches.
func (h *harness) waitEvent(what string, pred func(games.Event) bool) games.Event {
	h.t.Helper()
	for _, e := range h.log {
		if pred(e) {
			return e
		}
	}
	timeout := time.After(waitMax)
	for {
		select {
		case e := <-h.events:
			h.log = append(h.log, e)
			if pred(e) {
				return e
			}
		case <-timeout:
			h.t.Fatalf("timed out waiting for event: %s", what)
		}
	}
}

// waitEvents waits until n events match.
func (h *harness) waitEvents(what string, n int, pred func(games.Event) bool) {
	h.t.Helper()
	count := func() int {
		c := 0
		for _, e := range h.log {
			if pred(e) {
				c++
			}
		}
		return c
	}
	timeout := time.After(waitMax)
	for count() < n {
		select {
		case e := <-h.events:
			h.log = append(h.log, e)
		case <-timeout:
			h.t.Fatalf("timed out waiting for %d events: %s (have %d)", n, what, count())
		}
	}
}

func (h *harness) waitStatus(id, status string) {
	h.t.Helper()
	if h.last[id] == status {
		return
	}
	timeout := time.After(waitMax)
	for {
		select {
		case s := <-h.status:
			h.last[s[0]] = s[1]
			if s[0] == id && s[1] == status {
				return
			}
		case <-timeout:
			h.t.Fatalf("timed out waiting for table %s to be %s (last %q)", id, status, h.last[id])
		}
	}
}

// nextPrompt returns the next prompt delivered on ch for (turn), skipping redeliveries of other turns.
func nextPrompt(t *testing.T, ch chan any, turn int) *delivered {
	t.Helper()
	timeout := time.After(waitMax)
	for {
		select {
		case m := <-ch:
			if d, ok := m.(*delivered); ok && d.Prompt.Move.Turn == turn {
				return d
			}
		case <-timeout:
			t.Fatalf("timed out waiting for the turn %d prompt", turn)
		}
	}
}

func nextRoundEnded(t *testing.T, ch chan any) *RoundEnded {
	t.Helper()
	timeout := time.After(waitMax)
	for {
		select {
		case m := <-ch:
			if r, ok := m.(*RoundEnded); ok {
				return r
			}
		case <-timeout:
			t.Fatal("timed out waiting for RoundEnded")
		}
	}
}

func (h *harness) submit(table, round string, seat, turn int, body string) SubmitAnswerReply {
	h.t.Helper()
	r, err := h.arena.Submit(context.Background(), SubmitAnswer{Table: table, Round: round,
		Input: games.Input{Seat: seat, Kind: "answer", Move: games.Move{Turn: turn, Phase: "move"}, Body: json.RawMessage(body)}})
	if err != nil {
		h.t.Fatalf("Submit(%s seat %d turn %d): %v", table, seat, turn, err)
	}
	return r
}

// state Asks a live table for its in-memory view; FIFO per sender makes it a barrier after
// Sends from the test goroutine (and after timer messages sent by clock.Advance).
func (h *harness) state(table string) *tableStateReply {
	h.t.Helper()
	res, err := h.arena.System().Root.RequestFuture(h.arena.TablePID(table), &tableState{}, waitMax).Result()
	if err != nil {
		// A table that finished its round stops its actor: there is nothing left to wait for (a
		// request that reached it as it stopped gets no answer, not even a dead letter).
		if (errors.Is(err, actor.ErrDeadLetter) || errors.Is(err, actor.ErrTimeout)) && h.record(table).Status == StatusFinished {
			return &tableStateReply{}
		}
		h.t.Fatalf("tableState(%s): %v", table, err)
	}
	return res.(*tableStateReply)
}

func (h *harness) record(id string) *tableRecord {
	h.t.Helper()
	b, err := h.store.LoadTable(id)
	if err != nil {
		h.t.Fatal(err)
	}
	r, err := decodeRecord(id, b)
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}

func seats(channels ...string) []SeatSpec {
	var out []SeatSpec
	for i, ch := range channels {
		n := i + 1
		s := SeatSpec{Seat: games.Seat{Seat: n, Name: "seat"}, Kind: "house", Lent: true, Channel: ch}
		if ch == ChannelMailbox {
			s.Kind = "walkin"
		}
		out = append(out, s)
	}
	return out
}

func fixedSeed(b byte) []byte {
	s := make([]byte, 32)
	for i := range s {
		s[i] = b
	}
	return s
}

func roundIs(round string) func(games.Event) bool {
	return func(e games.Event) bool { return e.Round == round }
}

func and(ps ...func(games.Event) bool) func(games.Event) bool {
	return func(e games.Event) bool {
		for _, p := range ps {
			if !p(e) {
				return false
			}
		}
		return true
	}
}

func typeIs(typ string) func(games.Event) bool {
	return func(e games.Event) bool { return e.Type == typ }
}

func turnIs(turn int) func(games.Event) bool {
	return func(e games.Event) bool { return e.Turn == turn }
}

// metric is the value of one series in the registry: counters, gauges, and histogram counts.
func (h *harness) metric(name string, labels ...string) float64 {
	h.t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, lp := range m.GetLabel() {
					if lp.GetName() == labels[i] && lp.GetValue() == labels[i+1] {
						found = true
					}
				}
				if !found {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue()
			case m.Gauge != nil:
				return m.GetGauge().GetValue()
			case m.Histogram != nil:
				return float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return -1
}
