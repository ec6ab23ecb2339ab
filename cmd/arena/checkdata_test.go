package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"arena/storage"
	"arena/storage/storagetest"
)

// check-data passes a sound file, names the damaged key of a bad one, and refuses a file a
// running server holds.
func TestCheckData(t *testing.T) {
	path := storagetest.Path(t)
	dir := filepath.Dir(path)
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CommitStep("tbl", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := checkDataMain(args, func(k string) string {
			if k == "ARENA_DATA" {
				return dir
			}
			return ""
		}, &out, &errOut)
		return code, out.String() + errOut.String()
	}
	if code, out := run(); code != 1 || !strings.Contains(out, "still running") {
		t.Fatalf("a held file: exit %d\n%s", code, out)
	}
	_ = st.Close()
	if code, out := run(); code != 0 || !strings.Contains(out, "sound") {
		t.Fatalf("a sound file (ARENA_DATA): exit %d\n%s", code, out)
	}
	storagetest.Corrupt(t, path, storage.BucketMeta, []byte("colour"), []byte("x"))
	if code, out := run("--db", path); code != 1 || !strings.Contains(out, `meta/"colour": stray key`) {
		t.Fatalf("a damaged file: exit %d\n%s", code, out)
	}
	if code, _ := run("extra"); code != 2 {
		t.Fatalf("an extra argument: exit %d", code)
	}
}

// check-data on a file with a damaged page reports the damage and exits 1: no panic, no "sound".
func TestCheckDataPageDamage(t *testing.T) {
	path := storagetest.Path(t)
	st, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CommitStep("tbl", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	_ = st.Close()
	ids, pageSize := storagetest.LivePages(t, path)
	for _, id := range ids {
		bad := filepath.Join(t.TempDir(), "arena.db")
		storagetest.BreakPage(t, path, bad, id, pageSize)
		var out, errOut bytes.Buffer
		code := checkDataMain([]string{"--db", bad}, func(string) string { return "" }, &out, &errOut)
		msg := out.String() + errOut.String()
		if code != 1 || strings.Contains(msg, "sound") || !strings.Contains(msg, "corrupt") {
			t.Fatalf("page %d damaged: exit %d\n%s", id, code, msg)
		}
	}
}
