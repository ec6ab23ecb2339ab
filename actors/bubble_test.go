package actors

import (
	"testing"
	"testing/synctest"
	"time"
)

// inBubble runs f in a synctest bubble (synctest.Test), for tests about order: time.Sleep and
// time.After read the bubble's clock, which moves only when every goroutine of the bubble is
// blocked, so "the actors have settled" is exact rather than a guess in wall time.
//
// A dead letter starts protoactor's log throttle, a goroutine that waits out its interval (1 s by
// default) on the bubble's clock. The bubble can end only once it has, so the last cleanup (the
// first registered) sleeps past it, after the arena and store are closed.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		t.Cleanup(func() { time.Sleep(time.Minute) })
		f(t)
	})
}
