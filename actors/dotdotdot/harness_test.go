package dotdotdot

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"testing"
	"time"

	"arena/actors"
	"arena/actors/internal/countdown"
	"arena/games"
	"arena/storage"
	"arena/storage/storagetest"
)

// t0 is where every fake clock of the harness starts.
var t0 = time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)

const waitMax = 10 * time.Second // a test that waits this long has failed

// progressMax bounds a wait that keeps seeing progress (waitEvent): a livelock, not a stall.
const progressMax = 2 * time.Minute

// harness is one arena with the DOTDOTDOT product on a fake clock and a bbolt file in
// t.TempDir, with channels fed by the OnEvents and OnStatus hooks so tests synchronise on what
// the arena did, never on sleeps (the joins' and A2A channel's twin of package actors' harness).
type harness struct {
	t     testing.TB
	store *storage.Store
	clock *actors.FakeClock
	eng   *countdown.Engine
	eng2  games.Engine // a second game in the bracket (real engines), set before start
	// agents, when set before start, is wired into the arena.
	agents AgentCaller
	// product, when set before start, is the rest of the product's Options (Agents is agents).
	product Options
	key     ed25519.PrivateKey
	arena   *Arena

	events chan games.Event
	log    []games.Event
	status chan [2]string
	last   map[string]string
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{t: t, clock: actors.NewFakeClock(t0), eng: &countdown.Engine{},
		key: ed25519.NewKeyFromSeed(make([]byte, 32)), events: make(chan games.Event, 100000),
		status: make(chan [2]string, 100000), last: map[string]string{}}
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true})
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

// start starts (or, after stop, restarts) the arena on the same store and clock.
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
	a, err := Start(actors.Options{DB: h.store, Bracket: br, Clock: h.clock, InstanceKey: h.key,
		InstanceAgent: "ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7",
		Logger:        slog.New(slog.DiscardHandler),
		OnEvents: func(_, _ string, evs []games.Event) {
			for _, e := range evs {
				h.events <- e
			}
		},
		OnStatus: func(id, s string) { h.status <- [2]string{id, s} }},
		h.productOptions())
	if err != nil {
		h.t.Fatal(err)
	}
	h.arena = a
}

func (h *harness) productOptions() Options {
	o := h.product
	o.Agents = h.agents
	return o
}

func (h *harness) open(spec actors.TableSpec) string {
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

// seats are house seats and A2A seats, by channel.
func seats(channels ...string) []actors.SeatSpec {
	var out []actors.SeatSpec
	for i, ch := range channels {
		out = append(out, actors.SeatSpec{Seat: games.Seat{Seat: i + 1, Name: "seat"}, Kind: "house", Lent: true, Channel: ch})
	}
	return out
}

// stop shuts the arena down as a deploy would; tables stay live in storage.
func (h *harness) stop() {
	h.t.Helper()
	if err := h.arena.Shutdown(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	h.arena = nil
}

// waitEvent returns the first event (ever committed since the harness began) that matches. It
// fails when the arena stalls, no event committed for waitMax, not when the work is merely slow:
// whole rounds played at CPU speed (close-early phases, house and agent seats answering at once)
// take seconds under -race on a loaded machine, and their length says nothing of their order.
// A wait that keeps seeing events but never the one it wants fails after progressMax.
func (h *harness) waitEvent(what string, pred func(games.Event) bool) games.Event {
	h.t.Helper()
	for _, e := range h.log {
		if pred(e) {
			return e
		}
	}
	stall := time.NewTimer(waitMax)
	defer stall.Stop()
	limit := time.After(progressMax)
	for {
		select {
		case e := <-h.events:
			h.log = append(h.log, e)
			if pred(e) {
				return e
			}
			stall.Reset(waitMax)
		case <-stall.C:
			h.t.Fatalf("timed out waiting for event: %s (no event for %v)", what, waitMax)
		case <-limit:
			h.t.Fatalf("timed out waiting for event: %s (events for %v, never that one)", what, progressMax)
		}
	}
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
