package breakroom

import (
	"context"
	"strings"
	"sync"

	"arena/actors"
	"arena/games"
)

// FollowBuffer is the default number of public lines a follower may have waiting unread before
// it is dropped (Follower.Dropped): a spectator that falls this far behind is cut off rather
// than let the table wait for it.
const FollowBuffer = 256

// Follower is one spectator's subscription to a running match's public lines (GET
// /r/{match_id}/live). Backlog is every public line stored when it subscribed (the full log's
// events, in order, private ones left out: a line marked reveal "end" is private while the
// match runs and never goes out here); C then brings each public line the table stores after
// them, in order, and is closed after the match's end line (match_end, match_abandoned), on
// Close, or when the follower fell FollowBuffer lines behind (Dropped). Every line in C was
// stored before it was sent (the table's committed events: write before you speak).
type Follower struct {
	Backlog []games.Event
	C       <-chan games.Event

	ch      chan games.Event
	hub     *followHub
	round   string
	after   int64 // the last Seq of the backlog: C skips what the backlog already held
	mu      sync.Mutex
	closed  bool
	dropped bool
}

// Dropped says the follower was cut off for falling behind (C closed before the end line).
func (f *Follower) Dropped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

// Close ends the subscription (C is closed); closing twice does nothing.
func (f *Follower) Close() { f.hub.remove(f, false) }

// followHub holds the followers of each running match, by match id, and feeds them the public
// lines the tables commit (Room.onEvents, called on the table's goroutine once the commit has
// landed). It never waits on a follower: a follower whose buffer is full is dropped.
type followHub struct {
	mu   sync.Mutex
	subs map[string]map[*Follower]struct{}
}

func (h *followHub) add(f *Follower) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[string]map[*Follower]struct{}{}
	}
	if h.subs[f.round] == nil {
		h.subs[f.round] = map[*Follower]struct{}{}
	}
	h.subs[f.round][f] = struct{}{}
}

// remove takes f out and closes its channel; dropped marks it cut off for falling behind.
func (h *followHub) remove(f *Follower, dropped bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removeLocked(f, dropped)
}

func (h *followHub) removeLocked(f *Follower, dropped bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.closed, f.dropped = true, dropped
	close(f.ch)
	if s := h.subs[f.round]; s != nil {
		delete(s, f)
		if len(s) == 0 {
			delete(h.subs, f.round)
		}
	}
}

// publish hands round's committed events to its followers: the public ones, each follower's
// past its backlog; after an end line the followers are done (their C closed).
func (h *followHub) publish(round string, events []games.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.subs[round]
	if len(subs) == 0 {
		return
	}
	for _, ev := range events {
		if ev.Visibility != games.Public {
			continue
		}
		for f := range subs {
			if ev.Seq <= f.after {
				continue
			}
			select {
			case f.ch <- ev:
			default:
				h.removeLocked(f, true)
				continue
			}
			if isEndLine(ev.Type) {
				h.removeLocked(f, false)
			}
		}
	}
}

// count is how many followers are subscribed (tests).
func (h *followHub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.subs {
		n += len(s)
	}
	return n
}

// isEndLine: the line that closes a match's log (protocol "Match log").
func isEndLine(typ string) bool { return typ == "match_end" || typ == "match_abandoned" }

// Follow subscribes to running match matchID's public lines (see Follower); buffer is how many
// lines may wait unread (≤ 0: FollowBuffer). Refusals: unknown_match for a match that is not
// Break Room's, not_live for one that is over (its replay is the public log). The follower is
// registered before the stored log is read, so no line falls between the backlog and C.
func (r *Room) Follow(ctx context.Context, matchID string, buffer int) (*Follower, error) {
	if r.arena == nil {
		return nil, ErrClosed
	}
	store := r.arena.Store()
	table, err := store.RoundTable(matchID)
	if err != nil || !strings.HasPrefix(table, "br-") {
		return nil, games.Errorf("unknown_match", "no match %q", matchID)
	}
	t, err := r.arena.Stored(table)
	if err != nil {
		return nil, games.Errorf("unknown_match", "no match %q", matchID)
	}
	if t.Status == actors.StatusFinished {
		return nil, games.Errorf("not_live", "match %s is over: its replay is /r/%s and its public log /r/%s.jsonl", matchID, matchID, matchID)
	}
	if buffer <= 0 {
		buffer = FollowBuffer
	}
	f := &Follower{ch: make(chan games.Event, buffer), hub: &r.follow, round: matchID}
	f.C = f.ch
	// Registered before the read: every line committed from here on reaches ch; the read has
	// the ones before. What ch took meanwhile joins the backlog past the read's last line.
	r.follow.add(f)
	evs, err := store.Events(matchID)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	var after int64
	for _, ev := range evs {
		after = max(after, ev.Seq)
		if ev.Visibility == games.Public {
			f.Backlog = append(f.Backlog, ev)
		}
	}
	r.follow.mu.Lock()
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	for taken := false; !taken; {
		select {
		case ev, ok := <-f.ch:
			if !ok {
				taken = true
			} else if ev.Seq > after {
				f.Backlog = append(f.Backlog, ev)
			}
		default:
			taken = true
		}
	}
	if n := len(f.Backlog); n > 0 {
		after = max(after, f.Backlog[n-1].Seq)
	}
	f.after = after
	ended := len(f.Backlog) > 0 && isEndLine(f.Backlog[len(f.Backlog)-1].Type)
	if ended && !closed {
		r.follow.removeLocked(f, false)
	}
	r.follow.mu.Unlock()
	return f, nil
}
