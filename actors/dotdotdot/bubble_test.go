package dotdotdot

import (
	"testing"
	"testing/synctest"
	"time"
)

// inBubble runs f in a synctest bubble (synctest.Test), for tests about order: once every
// goroutine of the bubble is blocked (synctest.Wait) the actors are idle, so "the mailbox has
// told the desk" or "the restarted table has spawned its round" is read at once and exactly,
// not polled against wall time. Real-time guards inside (deskCtx, long polls) run on the
// bubble's clock, which moves only when everything is blocked: a guard that fires means the
// arena was stuck.
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
