package storage_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/storage/storagetest"
)

// checkFile opens the file at path read-only, checks it and closes it: nil for a sound file.
func checkFile(path string) error {
	st, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	err = st.Check()
	if cerr := st.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// Check of a damaged file leaves no goroutine of bbolt's reading the file behind it: the walk
// finds the damage first, so bbolt's check (whose freelist rebuild would panic at the first
// problem and leave its reader running over the unmapped file) never sees it.
func TestCheckOfDamageLeavesNoReader(t *testing.T) {
	path := pagedFile(t)
	ids, pageSize := storagetest.LivePages(t, path)
	before := runtime.NumGoroutine()
	for _, id := range ids {
		bad := filepath.Join(t.TempDir(), "arena.db")
		storagetest.BreakPage(t, path, bad, id, pageSize)
		if err := checkFile(bad); !errors.Is(err, storage.ErrCorrupt) {
			t.Fatalf("page %d damaged: %v, want ErrCorrupt", id, err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines before, %d after checking damaged files:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// Each kind of damage the walk looks for, made by hand in a sound file, is reported by name.
func TestPageWalkNamesTheDamage(t *testing.T) {
	path := pagedFile(t)
	ids, pageSize := storagetest.LivePages(t, path)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var branch int
	for _, id := range ids {
		if binary.LittleEndian.Uint16(good[id*pageSize+8:]) == 0x01 {
			branch = id
			break
		}
	}
	if branch == 0 {
		t.Fatal("no branch page: the file is too small for the test")
	}
	at := branch * pageSize
	cases := []struct {
		name, want string
		damage     func(b []byte)
	}{
		{"child past the high-water mark", "out of bounds", func(b []byte) {
			binary.LittleEndian.PutUint64(b[at+16+8:], 1<<40)
		}},
		{"two children one page", "multiple references", func(b []byte) {
			copy(b[at+16+16+8:at+16+16+16], b[at+16+8:at+16+16])
		}},
		{"header names another page", "its header names page", func(b []byte) {
			binary.LittleEndian.PutUint64(b[at:], uint64(branch+1))
		}},
		{"elements past the page", "elements run past the page", func(b []byte) {
			binary.LittleEndian.PutUint16(b[at+10:], 0xFFF0)
		}},
		{"key past the page", "runs past the page", func(b []byte) {
			binary.LittleEndian.PutUint32(b[at+16+4:], 1<<30)
		}},
		{"overflow past the mark", "overflow pages run past", func(b []byte) {
			binary.LittleEndian.PutUint32(b[at+12:], 1<<30)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), good...)
			c.damage(b)
			bad := filepath.Join(t.TempDir(), "arena.db")
			if err := os.WriteFile(bad, b, 0o600); err != nil {
				t.Fatal(err)
			}
			err := checkFile(bad)
			if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want ErrCorrupt naming %q", err, c.want)
			}
		})
	}
}

// No bytes written over a sound file make Check (or the read-only Open before it) panic or end
// the process: the answer is nil, ErrCorrupt or ErrSchema.
func FuzzCheckFile(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "good.db")
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	rows := make([][]byte, 200)
	for i := range rows {
		rows[i] = []byte(strings.Repeat("r", 60))
	}
	if err := st.AppendLedger(1, rows); err != nil {
		f.Fatal(err)
	}
	if err := st.CommitStep("tbl", []byte("r"), nil); err != nil {
		f.Fatal(err)
	}
	if err := st.Close(); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(2*4096+8), []byte{0xa5, 0x5a})
	f.Add(uint32(3*4096+16), []byte{0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(4096+56), []byte{0x02})
	f.Fuzz(func(t *testing.T, at uint32, over []byte) {
		b := append([]byte(nil), good...)
		if int(at) >= len(b) || len(over) > 64 {
			return
		}
		copy(b[at:], over)
		bad := filepath.Join(t.TempDir(), "arena.db")
		if err := os.WriteFile(bad, b, 0o600); err != nil {
			t.Fatal(err)
		}
		err := checkFile(bad)
		if err != nil && !errors.Is(err, storage.ErrCorrupt) && !errors.Is(err, storage.ErrSchema) &&
			!strings.Contains(err.Error(), "invalid") && !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("%v: want nil, ErrCorrupt, ErrSchema or bbolt's refusal of the meta pages", err)
		}
	})
}
