package storagetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"arena/storage"
)

// recorder is a testing.TB whose failures and cleanups are kept, to run them and read them.
type recorder struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()          {}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); panic("fatal") }

// end runs the cleanups as the testing package does (last registered first).
func (r *recorder) end() string {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	return strings.Join(r.errs, "\n")
}

func TestCleanStorePasses(t *testing.T) {
	r := &recorder{TB: t}
	s := Open(r, storage.Options{NoSync: true})
	if err := s.CommitStep("tbl", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	if errs := r.end(); errs != "" {
		t.Fatalf("a sound store failed its check: %s", errs)
	}
}

func TestStoreLeftOpenFails(t *testing.T) {
	r := &recorder{TB: t}
	path := Path(r)
	s, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if errs := r.end(); !strings.Contains(errs, "still open") {
		t.Fatalf("a store left open passed: %q", errs)
	}
}

func TestDamageFailsAndCorruptIsForgiven(t *testing.T) {
	r := &recorder{TB: t}
	path := Path(r)
	s, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	Corrupt(r, path, storage.BucketChainQ, []byte("short"), []byte("{not json"))
	if errs := r.end(); errs != "" {
		t.Fatalf("a key written by Corrupt failed the check: %s", errs)
	}

	r = &recorder{TB: t}
	path = Path(r)
	s, err = storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(storage.BucketChainQ)).Put([]byte("short"), []byte("{"))
	})
	_ = db.Close()
	if errs := r.end(); !strings.Contains(errs, "chainq") {
		t.Fatalf("damage passed the check: %q", errs)
	}
}

// The DOTDOTDOT buckets written through their API (a hosted table, a walkin queue, an owner
// session, a Badge key) pass the end-of-test check; a damaged record in any of them fails it.
func TestDotdotdotBucketsChecked(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	at := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	write := func(s *storage.Store) {
		t.Helper()
		m := []storage.HostedMember{{Hash: hash, Name: "Ann"}}
		for _, err := range []error{
			s.PutHosted(storage.HostedTable{Code: "K7QX", Format: "short", Seats: 3, Status: storage.HostedGathering, Members: m, Created: at, StartsBy: at}),
			s.PutWalkinQueue(storage.WalkinQueue{Format: "short", Pace: "chat", Since: at, Waiting: []storage.QueuedWalkin{{Hash: hash, Name: "Ann"}}}),
			s.PutOwnerSession(storage.SessionBearer, hash, storage.OwnerSession{Agent: "ccd:x/cis-2:a", Expires: at}),
			s.PutBadgeKey(make([]byte, 32), storage.BadgeKey{Agent: "ccd:x/cis-2:a", Token: 3}),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	r := &recorder{TB: t}
	write(Open(r, storage.Options{NoSync: true}))
	if errs := r.end(); errs != "" {
		t.Fatalf("records written through the API failed the check: %s", errs)
	}
	for _, b := range []string{storage.BucketHosted, storage.BucketWalkinQueue, storage.BucketSessions, storage.BucketBadgeKeys} {
		r := &recorder{TB: t}
		path := Path(r)
		s, err := storage.Open(path, storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		write(s)
		_ = s.Close()
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(b)).Put([]byte("junk"), []byte("{")) })
		_ = db.Close()
		if errs := r.end(); !strings.Contains(errs, b+"/") {
			t.Errorf("damage in %s passed the check: %q", b, errs)
		}
	}
}
