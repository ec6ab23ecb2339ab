// Package storagetest opens stores for tests and checks them when the test ends: the store
// closes cleanly, and the file it leaves passes storage's Check (every bucket known, every key
// of its bucket's shape, every value that storage reads decodable).
//
// Tests outside storage/ reach the file only through here and storage's API; this package alone
// (with storage itself) opens the bbolt file directly, for Corrupt.
package storagetest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"arena/storage"
)

// Open opens a store in a fresh directory of t's (with opts; NoSync is usually what a test
// wants) and registers a cleanup that closes it, failing t if the close fails, and then checks
// the file (Check). A test may close the store itself earlier.
func Open(t testing.TB, opts storage.Options) *storage.Store {
	t.Helper()
	path := Path(t)
	s, err := storage.Open(path, opts)
	if err != nil {
		t.Fatalf("storagetest: open %s: %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("storagetest: close: %v", err)
		}
	}) // runs before Path's check (cleanups run last-registered first)
	return s
}

// Path returns a file path in a fresh directory of t's, for a test that opens and closes the
// store itself (a crash and a reboot), and registers a cleanup that checks the file there when
// one exists. Every store on the path must be closed by then: an open one fails the check.
func Path(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "arena.db")
	t.Cleanup(func() { check(t, path) })
	return path
}

// Check opens the file at path read-only and fails t with every problem storage's Check finds,
// after dropping the keys the test damaged on purpose (Corrupt). The file must not be open.
func Check(t testing.TB, path string) {
	t.Helper()
	check(t, path)
}

func check(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return // the test never opened a store here
	}
	if keys := corrupted(path); len(keys) > 0 {
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			t.Errorf("storagetest: %s still open at the end of the test: %v", path, err)
			return
		}
		err = db.Update(func(tx *bolt.Tx) error {
			for _, k := range keys {
				if b := tx.Bucket([]byte(k.bucket)); b != nil {
					if err := b.Delete(k.key); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Errorf("storagetest: drop the corrupted keys of %s: %v", path, err)
			return
		}
	}
	s, err := storage.Open(path, storage.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		t.Errorf("storagetest: reopen %s (is a store still open at the end of the test?): %v", path, err)
		return
	}
	if err := s.Check(); err != nil {
		t.Errorf("storagetest: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("storagetest: close %s after the check: %v", path, err)
	}
}

// Corrupt writes value under key in bucket of the file at path, bypassing storage's API, so a
// test can see how a reader treats a damaged record; the store must be closed. The cleanup
// check leaves out exactly the keys written so.
func Corrupt(t testing.TB, path, bucket string, key, value []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("storagetest: corrupt %s (is the store closed?): %v", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucket))
		if err != nil {
			return err
		}
		return b.Put(key, value)
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("storagetest: corrupt %s/%x: %v", bucket, key, err)
	}
	damaged.Lock()
	damaged.keys[path] = append(damaged.keys[path], badKey{bucket, append([]byte(nil), key...)})
	damaged.Unlock()
}

type badKey struct {
	bucket string
	key    []byte
}

// damaged are the keys Corrupt wrote, by file (tests may run in parallel).
var damaged = struct {
	sync.Mutex
	keys map[string][]badKey
}{keys: map[string][]badKey{}}

func corrupted(path string) []badKey {
	damaged.Lock()
	defer damaged.Unlock()
	keys := damaged.keys[path]
	delete(damaged.keys, path)
	return keys
}

// LivePages lists the leaf and branch pages of the closed file at path that its trees reach (not
// the meta pages, the freelist, or a freed page), by id, and the file's page size in bytes.
func LivePages(t testing.TB, path string) (ids []int, pageSize int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		t.Fatalf("storagetest: pages of %s (is the store closed?): %v", path, err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			info, err := tx.Page(id)
			if err != nil {
				return err
			}
			if info == nil {
				return nil // past the last page
			}
			if info.Type == "leaf" || info.Type == "branch" {
				ids = append(ids, id)
			}
			id += info.OverflowCount
		}
	})
	if err != nil {
		t.Fatalf("storagetest: pages of %s: %v", path, err)
	}
	return ids, db.Info().PageSize
}

// BreakPage writes a copy of the closed file at src to dst with the type of page id overwritten
// by one bbolt has none of (the page header's flags, bytes 8..9): damage below the layout, as a
// bad disk block leaves it. dst is left out of the cleanup check; the test judges it.
func BreakPage(t testing.TB, src, dst string, id, pageSize int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatalf("storagetest: break a page: %v", err)
	}
	at := id*pageSize + 8
	if at+2 > len(b) {
		t.Fatalf("storagetest: page %d is past the end of %s", id, src)
	}
	b[at], b[at+1] = 0xa5, 0x5a
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatalf("storagetest: break a page: %v", err)
	}
}
