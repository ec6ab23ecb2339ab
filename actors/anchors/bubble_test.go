package anchors

import (
	"testing"
	"testing/synctest"
	"time"
)

// inBubble runs f in a synctest bubble (synctest.Test): the chain actor's timers (polls,
// back-off, expiry) and the fake node's latency run on the bubble's clock, which moves only
// when every goroutine of the bubble is blocked, so a test waits on what the actor did, at
// once, rather than on wall time.
//
// A dead letter starts protoactor's log throttle, a goroutine that waits out its interval (1 s by
// default) on the bubble's clock. The bubble can end only once it has, so the last cleanup (the
// first registered) sleeps past it, after the actor and store are closed.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		t.Cleanup(func() { time.Sleep(time.Minute) })
		f(t)
	})
}

// until waits until cond holds, in a bubble: each time the bubble has come to rest
// (synctest.Wait) and cond does not hold, its clock moves one step of every, so the actor's
// next poll or retry runs. It fails with what once limit has passed on the bubble's clock.
func until(t *testing.T, what string, limit, every time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for {
		synctest.Wait()
		if cond() {
			return
		}
		if !time.Now().Before(end) {
			t.Fatalf("%s: not reached in %v on the bubble's clock", what, limit)
		}
		time.Sleep(every) // the bubble's clock: the actor's timers due by then fire
	}
}
