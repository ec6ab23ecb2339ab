package lobby_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/actors/lobby"
)

// t0 is the fake clock's start.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// rig is a lobby on a fake clock whose callbacks are the product's stand-ins: OnTable records
// each table and marks its real seats playing (as a product registers the match), Playing and
// Completed read what the test set, OnDropped records.
type rig struct {
	t     testing.TB
	clock *actors.FakeClock
	l     *lobby.Lobby

	mu        sync.Mutex
	tables    map[string][]*lobby.TableFormed // by queue
	playing   map[string]bool                 // queue/key
	completed map[string]int                  // key → completed matches
	dropped   map[string][][]lobby.Entrant    // by queue, one slice per report
	panicKey  string                          // Completed panics on it
}

func newRig(t testing.TB) *rig {
	t.Helper()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	r := &rig{t: t, clock: actors.NewFakeClock(t0), tables: map[string][]*lobby.TableFormed{},
		playing: map[string]bool{}, completed: map[string]int{}, dropped: map[string][][]lobby.Entrant{}}
	l, err := lobby.Start(sys, lobby.Options{Clock: r.clock, AskTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r.l = l
	t.Cleanup(func() {
		if err := l.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		sys.Shutdown()
	})
	return r
}

// open opens a queue with the rig's callbacks (those c sets are kept; a Completed of c's is
// replaced by the rig's only when c has none and tiers is true).
func (r *rig) open(c lobby.Config, tiers bool) {
	r.t.Helper()
	id := c.ID
	c.OnTable = func(tf *lobby.TableFormed) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.tables[id] = append(r.tables[id], tf)
		for _, s := range tf.Seats {
			r.playing[id+"/"+s.Key] = true
		}
	}
	c.Playing = func(key string) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.playing[id+"/"+key]
	}
	if tiers {
		c.Completed = func(key string) int {
			r.mu.Lock()
			defer r.mu.Unlock()
			if key == r.panicKey {
				panic("completed: cannot count " + key)
			}
			return r.completed[key]
		}
	}
	c.OnDropped = func(q string, ens []lobby.Entrant) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.dropped[q] = append(r.dropped[q], ens)
	}
	if err := r.l.Open(r.t.Context(), c); err != nil {
		r.t.Fatal(err)
	}
}

// join queues key and fails the test on a refusal.
func (r *rig) join(q, key string) lobby.Queued {
	r.t.Helper()
	got, err := r.l.Join(r.t.Context(), q, lobby.Entrant{Key: key})
	if err != nil {
		r.t.Fatalf("join %s %s: %v", q, key, err)
	}
	return got
}

// joinAt moves the clock to t0+at, then joins.
func (r *rig) joinAt(q, key string, at time.Duration) lobby.Queued {
	r.t.Helper()
	r.to(at)
	return r.join(q, key)
}

// to moves the clock to t0+at and waits until every queue has handled what the timers sent (an
// ask of each queue comes after them in its mailbox).
func (r *rig) to(at time.Duration) {
	r.t.Helper()
	r.clock.Set(t0.Add(at))
	for _, q := range r.l.Queues() {
		if _, err := r.l.Info(r.t.Context(), q); err != nil {
			r.t.Fatalf("info %s: %v", q, err)
		}
	}
}

func (r *rig) formed(q string) []*lobby.TableFormed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tables[q])
}

func (r *rig) droppedIn(q string) [][]lobby.Entrant {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dropped[q])
}

func (r *rig) setPlaying(q, key string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.playing[q+"/"+key] = on
}

func (r *rig) panicOn(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.panicKey = key
}

func (r *rig) info(q string) lobby.Info {
	r.t.Helper()
	in, err := r.l.Info(r.t.Context(), q)
	if err != nil {
		r.t.Fatal(err)
	}
	return in
}

// house makes house entrants "house:<table>:<i>".
func house(table uint64, i int) lobby.Entrant {
	return lobby.Entrant{Key: fmt.Sprintf("house:%d:%d", table, i)}
}

// staff makes the bartender "staff:<table>".
func staff(table uint64) lobby.Entrant { return lobby.Entrant{Key: fmt.Sprintf("staff:%d", table)} }

// keys are a table's seat keys in seat order.
func keys(tf *lobby.TableFormed) []string {
	out := make([]string, len(tf.Seats))
	for i, s := range tf.Seats {
		out[i] = s.Key
	}
	return out
}

// sortedKeys are a table's seat keys sorted.
func sortedKeys(tf *lobby.TableFormed) []string {
	k := keys(tf)
	slices.Sort(k)
	return k
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i+1)
	}
	return out
}

func wantErr(t testing.TB, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: err %v, want %v", what, err, want)
	}
}
