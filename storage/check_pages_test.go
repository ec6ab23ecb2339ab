package storage_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/storage"
	"arena/storage/storagetest"
)

// pagedFile writes a store big enough for its ledger to span leaf pages under a branch, closes
// it and returns its path (checked sound at the test's end, as every store is).
func pagedFile(t *testing.T) string {
	t.Helper()
	path := storagetest.Path(t)
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]byte, 400)
	for i := range rows {
		rows[i] = []byte(fmt.Sprintf(`{"row":%d,"memo":"%s"}`, i+1, strings.Repeat("m", 40)))
	}
	if err := st.AppendLedger(1, rows); err != nil {
		t.Fatal(err)
	}
	if err := st.CommitStep("tbl", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A page damaged below the layout (a page type bbolt has none of), wherever it lies in the
// trees, is reported as ErrCorrupt by a read-only Open or by Check: never a panic, never sound.
func TestCheckReportsPageDamage(t *testing.T) {
	path := pagedFile(t)
	ids, pageSize := storagetest.LivePages(t, path)
	if len(ids) < 3 {
		t.Fatalf("only %d live pages: the test damages too little", len(ids))
	}
	for _, id := range ids {
		bad := filepath.Join(t.TempDir(), "arena.db")
		storagetest.BreakPage(t, path, bad, id, pageSize)
		st, err := storage.Open(bad, storage.Options{ReadOnly: true})
		if err == nil {
			err = st.Check()
			if cerr := st.Close(); cerr != nil {
				t.Errorf("page %d: close: %v", id, cerr)
			}
		}
		if !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("page %d damaged: %v, want ErrCorrupt", id, err)
		}
	}
}

// A leaf whose keys are out of order reads without a panic; bbolt's own check (tx.Check) finds it
// and Check reports it as page damage before judging any value.
func TestCheckReportsKeysOutOfOrder(t *testing.T) {
	path := pagedFile(t)
	ids, pageSize := storagetest.LivePages(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := false
	for _, id := range ids {
		pg := b[id*pageSize:]
		flags, count := binary.LittleEndian.Uint16(pg[8:]), binary.LittleEndian.Uint16(pg[10:])
		// A ledger leaf: 16-byte header, then {flags, pos, ksize, vsize uint32} per element.
		if flags != 0x02 || count < 2 || binary.LittleEndian.Uint32(pg[16+8:]) != 8 || binary.LittleEndian.Uint32(pg[16:]) != 0 {
			continue
		}
		key := 16 + int(binary.LittleEndian.Uint32(pg[16+4:]))
		pg[key] = 0xff // the first key now sorts after the rest
		broken = true
		break
	}
	if !broken {
		t.Fatal("no ledger leaf found to damage")
	}
	bad := filepath.Join(t.TempDir(), "arena.db")
	if err := os.WriteFile(bad, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := storage.Open(bad, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Check()
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "pages: ") {
		t.Fatalf("keys out of order: %v, want ErrCorrupt naming the pages", err)
	}
}
