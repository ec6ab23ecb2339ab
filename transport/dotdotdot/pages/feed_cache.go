package pages

import (
	"context"
	"sync"
	"time"

	"arena/games"
)

// feedCache shares one transcript read per round per poll interval among every open feed of
// that round: a hundred people watching one round cost one storage read each Options.Poll, not
// a hundred. Entries are the public events only.
type feedCache struct {
	mu     sync.Mutex
	rounds map[string]*feedEntry
}

type feedEntry struct {
	mu  sync.Mutex // one read at a time per round; the others wait for it and share it
	at  time.Time
	evs []games.Event
	err error
}

// feedCacheMax bounds the rounds remembered; past it, entries older than a minute are dropped.
const feedCacheMax = 4096

// public returns the round's public events, read at most once per fresh (Options.Poll).
func (fc *feedCache) public(ctx context.Context, src Source, round string, fresh time.Duration) ([]games.Event, error) {
	fc.mu.Lock()
	if fc.rounds == nil {
		fc.rounds = map[string]*feedEntry{}
	}
	e := fc.rounds[round]
	if e == nil {
		if len(fc.rounds) >= feedCacheMax {
			for r, old := range fc.rounds {
				if old.mu.TryLock() {
					stale := time.Since(old.at) > time.Minute
					old.mu.Unlock()
					if stale {
						delete(fc.rounds, r)
					}
				}
			}
		}
		e = &feedEntry{}
		fc.rounds[round] = e
	}
	fc.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.at.IsZero() && time.Since(e.at) < fresh {
		return e.evs, e.err
	}
	evs, _, err := src.Transcript(ctx, round)
	e.at, e.evs, e.err = time.Now(), publicOnly(evs), err
	return e.evs, e.err
}
