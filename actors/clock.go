package actors

import (
	"sort"
	"sync"
	"time"
)

// Clock is the time source of every actor (protoactor-go notes §2, §7.4): Now for instants,
// AfterFunc for one-shot timers. A timer callback must only Send a message (never touch actor
// state); stop reports whether it prevented the call. Deadlines are instants, so a table that
// restarts re-arms from Now and a deadline already passed fires at once.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the wall clock.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// FakeClock is a Clock for tests: time stands still until Advance or Set moves it, and then the
// callbacks due by the new instant run in due order on the caller's goroutine. Safe for
// concurrent use.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers map[uint64]*fakeTimer
}

type fakeTimer struct {
	at  time.Time
	seq uint64
	f   func()
}

// NewFakeClock starts a fake clock at start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, timers: make(map[uint64]*fakeTimer)}
}

// Now is the clock's current instant.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d. A d <= 0 runs f at once on its own goroutine, as
// time.AfterFunc does (never on the caller's).
func (c *FakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	id := c.seq
	c.timers[id] = &fakeTimer{at: c.now.Add(d), seq: id, f: f}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[id]
		delete(c.timers, id)
		return ok
	}
}

// Advance moves the clock forward by d and runs every callback due by then.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	t := c.now.Add(d)
	c.mu.Unlock()
	c.Set(t)
}

// Set moves the clock to t (never backwards) and runs every callback due by then, in due order.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	if t.After(c.now) {
		c.now = t
	}
	due := make([]*fakeTimer, 0)
	for id, tm := range c.timers {
		if !tm.at.After(c.now) {
			due = append(due, tm)
			delete(c.timers, id)
		}
	}
	c.mu.Unlock()
	sort.Slice(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].seq < due[j].seq
	})
	for _, tm := range due {
		tm.f()
	}
}

// Fire runs the callbacks already due without moving the clock.
func (c *FakeClock) Fire() { c.Set(c.Now()) }

// Pending is the number of armed timers.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// NextAt is the instant of the earliest armed timer; false when none is armed.
func (c *FakeClock) NextAt() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var at time.Time
	found := false
	for _, tm := range c.timers {
		if !found || tm.at.Before(at) {
			at, found = tm.at, true
		}
	}
	return at, found
}
