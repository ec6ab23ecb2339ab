package join

import (
	"context"
	"fmt"
	"sync"
	"time"

	"arena/storage"
)

// Nonces remembers used nonces until they expire. Use reports whether key is new (and records
// it until until); a key seen before and not yet expired is not fresh.
type Nonces interface {
	Use(ctx context.Context, key string, until time.Time) (fresh bool, err error)
}

// StoreNonces keeps nonces in the arena's store (storage.UseNonce), so a join replayed after a
// restart is still refused. Expired entries are swept on a Use at most once a minute.
type StoreNonces struct {
	st  *storage.Store
	now func() time.Time

	mu        sync.Mutex
	lastSweep time.Time
}

// NewStoreNonces keeps nonces in st. now nil is time.Now.
func NewStoreNonces(st *storage.Store, now func() time.Time) *StoreNonces {
	if now == nil {
		now = time.Now
	}
	return &StoreNonces{st: st, now: now}
}

// Use implements Nonces; the nonce is durable before Use returns (before the join is answered).
func (n *StoreNonces) Use(_ context.Context, key string, until time.Time) (bool, error) {
	now := n.now()
	fresh, err := n.st.UseNonce(key, now, until)
	if err != nil {
		return false, fmt.Errorf("join: record nonce: %w", err)
	}
	if fresh {
		n.sweep(now)
	}
	return fresh, nil
}

// sweep deletes expired nonces, at most once a minute.
func (n *StoreNonces) sweep(now time.Time) {
	n.mu.Lock()
	if now.Sub(n.lastSweep) < time.Minute {
		n.mu.Unlock()
		return
	}
	n.lastSweep = now
	n.mu.Unlock()
	_, _ = n.st.SweepNonces(now)
}
