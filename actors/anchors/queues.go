package anchors

import (
	"container/heap"
	"sort"
	"time"
)

// The actor keeps two queues so that each message costs O(log n) however long a slow node lets
// the backlog grow: ready (items to submit, by nonce: a batch is a prefix of it) and watch
// (submitted items, by the instant their status is next checked). Entries whose item has moved on
// (another state, or a re-sign) are skipped when met; rebuild makes both exact again.

type watchHeap []*item

func (h watchHeap) Len() int           { return len(h) }
func (h watchHeap) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h watchHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *watchHeap) Push(x any)        { *h = append(*h, x.(*item)) }
func (h *watchHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return it
}

// setReady queues it for submission at due, in nonce order.
func (a *chainActor) setReady(it *item, due time.Time) {
	it.state, it.due = stReady, due
	n := it.tx.Nonce
	i := sort.Search(len(a.ready), func(i int) bool { return a.ready[i].tx.Nonce >= n })
	if i == len(a.ready) {
		a.ready = append(a.ready, it)
		return
	}
	a.ready = append(a.ready, nil)
	copy(a.ready[i+1:], a.ready[i:])
	a.ready[i] = it
}

// setSent watches it, checking its status at due.
func (a *chainActor) setSent(it *item, due time.Time) {
	it.state, it.due = stSent, due
	heap.Push(&a.watch, it)
}

// live reports whether a queue entry still stands for its item.
func (a *chainActor) live(it *item, s itemState) bool {
	return it.state == s && a.items[it.rec.ID] == it
}

// readyHead drops stale entries from the front and returns the first ready item, or nil.
func (a *chainActor) readyHead() *item {
	for len(a.ready) > 0 && !a.live(a.ready[0], stReady) {
		a.ready = a.ready[1:]
	}
	if len(a.ready) == 0 {
		return nil
	}
	return a.ready[0]
}

// watchHead drops stale entries from the top and returns the next item to check, or nil.
func (a *chainActor) watchHead() *item {
	for len(a.watch) > 0 && !a.live(a.watch[0], stSent) {
		heap.Pop(&a.watch)
	}
	if len(a.watch) == 0 {
		return nil
	}
	return a.watch[0]
}

// takeReady removes and returns up to n ready items due by now, lowest nonces first; an item
// not yet due holds back every later nonce (a node refuses a nonce beyond the account's next).
func (a *chainActor) takeReady(now time.Time, n int) []*item {
	var out []*item
	for len(out) < n {
		it := a.readyHead()
		if it == nil || now.Before(it.due) {
			break
		}
		a.ready = a.ready[1:]
		out = append(out, it)
	}
	return out
}

// takeWatch removes and returns up to n watched items whose check is due by now.
func (a *chainActor) takeWatch(now time.Time, n int) []*item {
	var out []*item
	for len(out) < n {
		it := a.watchHead()
		if it == nil || now.Before(it.due) {
			break
		}
		heap.Pop(&a.watch)
		out = append(out, it)
	}
	return out
}

// rebuild remakes both queues from the items' states (after a start or a re-sync).
func (a *chainActor) rebuild() {
	a.ready, a.watch = nil, nil
	for _, it := range a.items {
		switch it.state {
		case stReady:
			a.ready = append(a.ready, it)
		case stSent:
			a.watch = append(a.watch, it)
		}
	}
	sort.Slice(a.ready, func(i, j int) bool { return a.ready[i].tx.Nonce < a.ready[j].tx.Nonce })
	heap.Init(&a.watch)
}
