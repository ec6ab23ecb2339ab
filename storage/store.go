package storage

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names, as they are on disk (doc.go lists each one's keys and values). Only this package
// opens them; every bucket has its own typed API.
const (
	BucketTables    = "tables"
	BucketEvents    = "events"
	BucketRounds    = "rounds"
	BucketInputs    = "journal" // inputs/<table id>/<seq>: a table's input log (CommitInputs); named journal on disk
	BucketWalkins   = "walkins" // DOTDOTDOT's records (Walkins)
	BucketLedger    = "ledger"
	BucketCommands  = "commands"
	BucketChainQ    = "chainq"    // pending chain submissions by answered hash (chainq.go)
	BucketChainIdx  = "chainidx"  // every submission by the bytes it registers (chainq.go)
	BucketChainMeta = "chainmeta" // the chain actor's next nonce (chainq.go)
	BucketNonces    = "join_nonces"
	BucketMeta      = "meta"

	BucketHosted          = "hosted"            // DOTDOTDOT's hosted tables by code (hosted.go)
	BucketWalkinQueue     = "walkin_queue"      // DOTDOTDOT's walkin table queues (walkinqueue.go)
	BucketSessions        = "sessions"          // DOTDOTDOT's owner challenges and sessions (sessions.go)
	BucketBadgeKeys       = "badge_keys"        // the Badge key index (badgekeys.go)
	BucketPaid            = "paid"              // DOTDOTDOT's paid tables (paid.go)
	BucketFeedback        = "feedback"          // DOTDOTDOT's feedback notes (feedback.go)
	BucketBreakroom       = "breakroom"         // Break Room's reputations and feedback (breakroom.go)
	BucketRatings         = "ratings"           // DOTDOTDOT's ratings and the rated rounds they rest on (ratings.go)
	BucketGathering       = "gathering"         // DOTDOTDOT's agent tables gathering: free, rated, badge-gated (gathering.go)
	BucketMarket          = "market"            // the Game Master market's Deltas, append-only (market.go)
	BucketMarketKeys      = "market_keys"       // the Game Master market's API keys, hashed (marketkeys.go)
	BucketShowings        = "showings"          // DOTDOTDOT's showings of recorded rounds (showings.go)
	BucketWarden          = "warden"            // the Warden's Ledger, hash-chained, and its aggregates (warden.go)
	BucketReplay          = "x402_replay"       // x402 authorizations' claimed nonces → the claiming payment (replay.go)
	BucketWardenPay       = "warden_payments"   // the Warden's x402 payment records, created with their nonce claim (wardenpay.go)
	BucketWardenState     = "warden_state"      // the Warden door's challenges, Contenders, tokens, matches, idempotency answers (wardenstate.go)
	BucketWardenFeed      = "warden_feed"       // the Gallery feed's public events, append-only (wardenfeed.go)
	BucketWardenFeedMatch = "warden_feed_match" // each match's feed events in order → their global seq (wardenfeed.go)
)

// SchemaVersion is written to meta/"schema" on creation; Open refuses a higher one.
const SchemaVersion = 1

// allBuckets are the buckets Open creates; Check reports any other as stray.
var allBuckets = []string{BucketTables, BucketEvents, BucketRounds, BucketInputs, BucketWalkins,
	BucketLedger, BucketCommands, BucketChainQ, BucketChainIdx, BucketChainMeta, BucketNonces, BucketMeta,
	BucketHosted, BucketWalkinQueue, BucketSessions, BucketBadgeKeys,
	BucketPaid, BucketFeedback, BucketBreakroom, BucketRatings, BucketGathering, BucketMarket, BucketMarketKeys, BucketShowings, BucketWarden, BucketReplay, BucketWardenPay, BucketWardenState, BucketWardenFeed, BucketWardenFeedMatch}

// addedBuckets are buckets added to schema 1 after its first files were written: a file from
// before them lacks them until its next writable Open creates them, and Check passes it so.
var addedBuckets = []string{BucketHosted, BucketWalkinQueue, BucketSessions, BucketBadgeKeys,
	BucketPaid, BucketFeedback, BucketBreakroom, BucketRatings, BucketGathering, BucketMarket, BucketMarketKeys, BucketShowings, BucketWarden, BucketReplay, BucketWardenPay, BucketWardenState, BucketWardenFeed, BucketWardenFeedMatch}

// retiredBuckets were created by earlier builds and never written; Open deletes them when empty
// (and leaves one that holds keys for an operator, which Check then reports).
var retiredBuckets = []string{"agents"}

// Options tune Open. The zero value works: wait 2 s for the file lock, fsync every commit.
type Options struct {
	// LockTimeout is how long Open waits for another process's lock on the file. Zero selects
	// 2 s; negative waits forever.
	LockTimeout time.Duration
	// NoSync skips fsync on commit (benchmarks and tests only: a power cut may lose commits).
	NoSync bool
	// ReadOnly opens an existing file for reading only, sharing it with other readers (never
	// with a writer: a running server holds the file). The file is not created, migrated or
	// written; every write returns ErrReadOnly.
	ReadOnly bool
	// CommitHook, when set, is called at the start of every CommitStep; a non-nil error aborts
	// the commit with that error and writes nothing. It exists for tests of write-before-speak
	// (a failing disk), like bbolt's own OpenFile hook.
	CommitHook func(tableID string) error
}

// Store is the arena's bbolt file. It is safe for concurrent use.
type Store struct {
	db       *bolt.DB
	path     string
	hook     func(tableID string) error
	readOnly bool
	commits  atomic.Int64 // write transactions committed by the committer

	reqs    chan writeReq // to the committer (committer.go)
	stopped chan struct{} // closed when the committer has returned
	closeMu sync.RWMutex  // guards closed against sends on reqs
	closed  bool          // no more writes are accepted
	shut    bool          // Close has run

	feedMu   sync.Mutex    // guards feedWake
	feedWake chan struct{} // closed by the next commit that appends to the Gallery feed (wardenfeed.go)
}

// Open opens (creating if needed, with its directory) the bbolt file at path, creates the
// buckets, deletes empty retired ones and checks the schema version. It fails with ErrSchema for
// a newer file, and with bbolt's ErrTimeout when another process holds the file. With
// Options.ReadOnly the file must exist and nothing is created; a meta bucket that cannot be read
// there (a damaged page) is ErrCorrupt.
func Open(path string, opts Options) (*Store, error) {
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("storage: open %s: %w", path, err)
		}
	} else if dir := filepath.Dir(path); dir != "" {
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
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync, ReadOnly: opts.ReadOnly,
		NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	if opts.ReadOnly {
		err = readSchema(db)
	} else {
		err = db.Update(prepare)
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path, hook: opts.CommitHook, readOnly: opts.ReadOnly}
	if opts.ReadOnly {
		s.closed = true // no committer: write returns ErrReadOnly
	} else {
		s.startCommitter()
	}
	return s, nil
}

// prepare brings a file to the current layout: every bucket present, empty retired buckets gone,
// the schema version written (a new file) or checked.
func prepare(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	for _, name := range retiredBuckets {
		if b := tx.Bucket([]byte(name)); b != nil {
			if k, _ := b.Cursor().First(); k == nil {
				if err := tx.DeleteBucket([]byte(name)); err != nil {
					return fmt.Errorf("delete retired bucket %s: %w", name, err)
				}
			}
		}
	}
	meta := tx.Bucket([]byte(BucketMeta))
	if meta.Get([]byte("schema")) == nil {
		return meta.Put([]byte("schema"), u64(SchemaVersion))
	}
	return checkSchema(meta)
}

// readSchema checks the schema version of a file opened read-only (check-data's way in): a
// damaged page under the meta bucket is ErrCorrupt, not a panic.
func readSchema(db *bolt.DB) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: reading the meta bucket failed: %v", ErrCorrupt, r)
		}
	}()
	return db.View(func(tx *bolt.Tx) error { return checkSchema(tx.Bucket([]byte(BucketMeta))) })
}

// checkSchema fails with ErrSchema unless meta holds a schema version this build reads.
func checkSchema(meta *bolt.Bucket) error {
	if meta == nil {
		return fmt.Errorf("%w: no meta bucket", ErrSchema)
	}
	v := meta.Get([]byte("schema"))
	if len(v) != 8 || binary.BigEndian.Uint64(v) > SchemaVersion {
		return fmt.Errorf("%w: file has %x, this build knows %d", ErrSchema, v, SchemaVersion)
	}
	return nil
}

// Close closes the file. Pending writes finish first; later ones fail. Closing twice is
// harmless.
func (s *Store) Close() error {
	s.closeMu.Lock()
	if s.shut {
		s.closeMu.Unlock()
		return nil
	}
	s.shut = true
	if !s.closed {
		s.closed = true
		close(s.reqs)
		s.closeMu.Unlock()
		<-s.stopped
	} else {
		s.closeMu.Unlock()
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", s.path, err)
	}
	return nil
}

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Stats are the store's write counters since Open.
type Stats struct {
	Commits   int64         // write transactions committed (many callers' writes share one)
	WriteTime time.Duration // total time bbolt spent writing pages in them
}

// Stats reports the write counters (benchmarks read them).
func (s *Store) Stats() Stats {
	st := s.db.Stats()
	return Stats{Commits: s.commits.Load(), WriteTime: st.TxStats.GetWriteTime()}
}

func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}
