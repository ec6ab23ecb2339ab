package join

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Nonces remembers used nonces until they expire. Use reports whether key is new (and records
// it until until); a key seen before and not yet expired is not fresh.
type Nonces interface {
	Use(ctx context.Context, key string, until time.Time) (fresh bool, err error)
}

// nonceBucket is the bbolt bucket of BoltNonces: key → expiry (unix seconds, u64 BE).
var nonceBucket = []byte("join_nonces")

// BoltNonces keeps nonces in the arena's bbolt file, so a join replayed after a restart is
// still refused. Expired entries are swept on a Use at most once a minute.
type BoltNonces struct {
	db  *bolt.DB
	now func() time.Time

	mu        sync.Mutex
	lastSweep time.Time
}

// NewBoltNonces opens (creating) the bucket in db. now nil is time.Now.
func NewBoltNonces(db *bolt.DB, now func() time.Time) (*BoltNonces, error) {
	if now == nil {
		now = time.Now
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(nonceBucket)
		return err
	}); err != nil {
		return nil, fmt.Errorf("join: nonces: %w", err)
	}
	return &BoltNonces{db: db, now: now}, nil
}

var errUsed = errors.New("used")

// Use implements Nonces with one bbolt transaction (durable before the join is answered).
func (n *BoltNonces) Use(_ context.Context, key string, until time.Time) (bool, error) {
	now := n.now()
	err := n.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(nonceBucket)
		if v := b.Get([]byte(key)); len(v) == 8 && int64(binary.BigEndian.Uint64(v)) >= now.Unix() {
			return errUsed
		}
		return b.Put([]byte(key), binary.BigEndian.AppendUint64(nil, uint64(until.Unix())))
	})
	if errors.Is(err, errUsed) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("join: record nonce: %w", err)
	}
	n.sweep(now)
	return true, nil
}

// sweep deletes expired nonces, at most once a minute.
func (n *BoltNonces) sweep(now time.Time) {
	n.mu.Lock()
	if now.Sub(n.lastSweep) < time.Minute {
		n.mu.Unlock()
		return
	}
	n.lastSweep = now
	n.mu.Unlock()
	_ = n.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(nonceBucket)
		var dead [][]byte
		_ = b.ForEach(func(k, v []byte) error {
			if len(v) != 8 || int64(binary.BigEndian.Uint64(v)) < now.Unix() {
				dead = append(dead, append([]byte(nil), k...))
			}
			return nil
		})
		for _, k := range dead {
			_ = b.Delete(k)
		}
		return nil
	})
}
