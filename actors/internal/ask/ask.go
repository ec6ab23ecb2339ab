// Package ask bounds the wait of every ask made of an actor from outside the actor system.
//
// protoactor's RootContext.RequestFuture(pid, msg, d) arms its timeout only for d >= 0: a
// negative d (a ctx whose deadline passed, read as time.Until) makes a future that waits for an
// answer forever, and an actor that stopped or restarted with the message queued never gives
// one. Every façade ask takes its timeout from Timeout, so it answers within its bound.
package ask

import (
	"context"
	"time"
)

// Min is the shortest wait Timeout returns: a ctx already past its deadline still makes a
// future that times out (at once, as good as), never one that waits forever.
const Min = time.Millisecond

// Timeout is the wait of an ask made under ctx: max (the caller's default bound, used as is
// when positive) or what is left of ctx's deadline, whichever is shorter, and never less than
// Min. A max of zero or less means no default: the wait is then ctx's deadline alone, or
// Fallback when ctx has none.
func Timeout(ctx context.Context, max time.Duration) time.Duration {
	w := max
	if w <= 0 {
		w = Fallback
	}
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < w {
			w = left
		}
	}
	if w < Min {
		w = Min
	}
	return w
}

// Fallback bounds an ask whose caller gives no bound of its own and whose ctx has no deadline.
const Fallback = 5 * time.Second
