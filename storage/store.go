package storage

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names. Callers of Get/Put/Delete/Scan name one of these.
const (
	BucketTables   = "tables"
	BucketEvents   = "events"
	BucketRounds   = "rounds"
	BucketWalkins  = "walkins"
	BucketAgents   = "agents"
	BucketLedger   = "ledger"
	BucketCommands = "commands"
	BucketChainQ   = "chainq"
	BucketMeta     = "meta"
	BucketJournal  = "journal" // journal/<table id>/<seq>: a journaled match's entries (CommitJournal)
)

// SchemaVersion is written to meta/"schema" on creation; Open refuses a higher one.
const SchemaVersion = 1

var allBuckets = []string{BucketTables, BucketEvents, BucketRounds, BucketWalkins, BucketAgents,
	BucketLedger, BucketCommands, BucketChainQ, BucketMeta, BucketJournal}

// Options tune Open. The zero value works: wait 2 s for the file lock, fsync every commit.
type Options struct {
	// LockTimeout is how long Open waits for another process's lock on the file. Zero selects
	// 2 s; negative waits forever.
	LockTimeout time.Duration
	// NoSync skips fsync on commit (benchmarks and tests only: a power cut may lose commits).
	NoSync bool
	// CommitHook, when set, is called at the start of every CommitStep; a non-nil error aborts
	// the commit with that error and writes nothing. It exists for tests of write-before-speak
	// (a failing disk), like bbolt's own OpenFile hook.
	CommitHook func(tableID string) error
}

// Store is the arena's bbolt file. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	hook func(tableID string) error

	reqs    chan writeReq // to the committer (committer.go)
	stopped chan struct{} // closed when the committer has returned
	closeMu sync.RWMutex  // guards closed against sends on reqs
	closed  bool
}

// Open opens (creating if needed, with its directory) the bbolt file at path, creates the
// buckets and checks the schema version. It fails with ErrSchema for a newer file, and with
// bbolt's ErrTimeout when another process holds the file.
func Open(path string, opts Options) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("storage: open %s: make directory: %w", path, err)
		}
	}
	timeout := opts.LockTimeout
	switch {
	case timeout == 0:
		timeout = 2 * time.Second
	case timeout < 0:
		timeout = 0 // bbolt: zero waits indefinitely
	}
	// The freelist is kept as a hashmap and not written on every commit (bbolt rebuilds it when
	// the file is opened): less to write per transaction, for a slower Open.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync,
		NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket([]byte(BucketMeta))
		v := meta.Get([]byte("schema"))
		if v == nil {
			return meta.Put([]byte("schema"), u64(SchemaVersion))
		}
		if len(v) != 8 || binary.BigEndian.Uint64(v) > SchemaVersion {
			return fmt.Errorf("%w: file has %x, this build knows %d", ErrSchema, v, SchemaVersion)
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path, hook: opts.CommitHook}
	s.startCommitter()
	return s, nil
}

// Close closes the file. Pending writes finish first; later ones fail. Closing twice is
// harmless.
func (s *Store) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	close(s.reqs)
	s.closeMu.Unlock()
	<-s.stopped
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", s.path, err)
	}
	return nil
}

// DB exposes the bbolt handle for packages that keep their own bucket layout inside this file
// (the chain actor's queue in BucketChainQ). Do not close it.
func (s *Store) DB() *bolt.DB { return s.db }

// Path is the file's path.
func (s *Store) Path() string { return s.path }

func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}
