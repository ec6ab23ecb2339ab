package breakroom

import "sync"

// liveWatch says when the live figures may have changed (GET /v0/live/stream): a seat taken or
// left in a queue, a table formed, a match opened or over in the room actor. The signal follows
// the state Live reads (the actor's matches), not the store: a table's lines are stored before
// the actor hears it opened or ended, so a signal at the stored line would be read against the
// actor's older state. Changed is a channel closed at the next change; readers then read the
// figures again (Live) and keep what differs.
type liveWatch struct {
	mu sync.Mutex
	ch chan struct{}
}

func (w *liveWatch) wait() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		w.ch = make(chan struct{})
	}
	return w.ch
}

func (w *liveWatch) bump() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch != nil {
		close(w.ch)
		w.ch = nil
	}
}

// LiveChanged is a channel closed at the room's next change of its live figures (a join, a
// leave, a table formed, a match opened or ended; see Live): GET /v0/live/stream
// waits on it and pushes a new snapshot, never polling.
func (r *Room) LiveChanged() <-chan struct{} { return r.live.wait() }
