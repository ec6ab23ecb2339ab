package storagetest

import (
	"fmt"
	"strings"
	"testing"

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
