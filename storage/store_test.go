package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"arena/games"
)

func openTest(t *testing.T, opts Options) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data", "arena.db")
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		checkFile(t, path)
	})
	return s, path
}

// checkFile runs Check on the closed file at path, as storagetest does for other packages.
func checkFile(t *testing.T, path string) {
	t.Helper()
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Errorf("reopen read-only: %v", err)
		return
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}

func ev(round string, seq int64, typ string) games.Event {
	return games.Event{Seq: seq, Round: round, Turn: 1, Phase: "talk", At: "2026-09-09T14:00:00.000Z",
		Type: typ, Visibility: "public", Payload: json.RawMessage(`{"n":` + fmt.Sprint(seq) + `}`)}
}

func TestCommitStepEventsOrderedAndPrefixSafe(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	// seqs above 255 and 65535 catch a little-endian or decimal key; T-1 vs T-10 catches a prefix
	// scan without the '/'.
	var evs []games.Event
	for _, seq := range []int64{70000, 2, 256, 1, 255} {
		evs = append(evs, ev("T-1", seq, "x"))
	}
	if err := s.CommitStep("a", []byte(`{"v":1}`), evs); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitStep("b", []byte(`{"v":2}`), []games.Event{ev("T-10", 3, "y")}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Events("T-1")
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, e := range got {
		seqs = append(seqs, e.Seq)
		if e.Round != "T-1" || e.Type != "x" {
			t.Fatalf("event from another round: %+v", e)
		}
	}
	if fmt.Sprint(seqs) != "[1 2 255 256 70000]" {
		t.Fatalf("seqs = %v", seqs)
	}
	if string(got[4].Payload) != `{"n":70000}` {
		t.Fatalf("payload = %s", got[4].Payload)
	}
	if id, err := s.RoundTable("T-10"); err != nil || id != "b" {
		t.Fatalf("RoundTable(T-10) = %q, %v", id, err)
	}
	if rec, err := s.LoadTable("b"); err != nil || string(rec) != `{"v":2}` {
		t.Fatalf("LoadTable(b) = %s, %v", rec, err)
	}
	none, err := s.Events("T-2")
	if err != nil || len(none) != 0 {
		t.Fatalf("Events(T-2) = %v, %v", none, err)
	}
}

func TestCommitStepIsAtomic(t *testing.T) {
	fail := errors.New("disk on fire")
	armed := false
	s, _ := openTest(t, Options{NoSync: true, CommitHook: func(string) error {
		if armed {
			return fail
		}
		return nil
	}})
	if err := s.CommitStep("a", []byte("one"), []games.Event{ev("T-1", 1, "x")}); err != nil {
		t.Fatal(err)
	}
	armed = true
	err := s.CommitStep("a", []byte("two"), []games.Event{ev("T-1", 2, "x")})
	if !errors.Is(err, fail) {
		t.Fatalf("err = %v, want the hook's", err)
	}
	// A failure inside the transaction (bad key) must roll back the snapshot too.
	armed = false
	err = s.CommitStep("a", []byte("three"), []games.Event{ev("T-1", 3, "x"), ev("bad/round", 4, "x")})
	if !errors.Is(err, ErrBadKey) {
		t.Fatalf("err = %v, want ErrBadKey", err)
	}
	rec, _ := s.LoadTable("a")
	evs, _ := s.Events("T-1")
	if string(rec) != "one" || len(evs) != 1 {
		t.Fatalf("after failed commits: record %q, %d events; want \"one\", 1", rec, len(evs))
	}
	// Replaying the same step overwrites rather than duplicates.
	if err := s.CommitStep("a", []byte("one"), []games.Event{ev("T-1", 1, "x")}); err != nil {
		t.Fatal(err)
	}
	if evs, _ := s.Events("T-1"); len(evs) != 1 {
		t.Fatalf("replayed step duplicated: %d events", len(evs))
	}
}

func TestRecordsAndCounters(t *testing.T) {
	s, path := openTest(t, Options{})
	w := s.Walkins()
	if _, err := w.Get("h1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get missing: %v", err)
	}
	val := func(k string) []byte { return []byte(`"v` + k + `"`) }
	for _, k := range []string{"live/p1/c2", "live/p1/c1", "live/p2/c1"} {
		if err := w.Put(k, val(k)); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	if err := w.Scan("live/p1/", func(k string, v []byte) error {
		if string(v) != string(val(k)) {
			t.Errorf("value of %s = %s", k, v)
		}
		keys = append(keys, k)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(keys) != "[live/p1/c1 live/p1/c2]" {
		t.Fatalf("Scan = %v", keys)
	}
	if err := w.Delete("live/p1/c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Get("live/p1/c1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after Delete: %v", err)
	}
	if err := w.Put("", nil); !errors.Is(err, ErrBadKey) {
		t.Fatalf("empty key: %v", err)
	}
	for want := uint64(1); want <= 3; want++ {
		if n, err := s.Next("round"); err != nil || n != want {
			t.Fatalf("Next = %d, %v; want %d", n, err, want)
		}
	}
	if err := s.CommitStep("t1", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	var ids []string
	_ = s.ListTables(func(id string, _ []byte) error { ids = append(ids, id); return nil })
	if fmt.Sprint(ids) != "[t1]" {
		t.Fatalf("ListTables = %v", ids)
	}
	// Everything survives a reopen; the counter continues.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if n, _ := s2.Next("round"); n != 4 {
		t.Fatalf("Next after reopen = %d, want 4", n)
	}
	if v, err := s2.Walkins().Get("live/p2/c1"); err != nil || string(v) != string(val("live/p2/c1")) {
		t.Fatalf("Get after reopen = %s, %v", v, err)
	}
}

func TestOpenRefusesNewerSchemaAndSecondOpener(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arena.db") // not openTest: the file ends from the future
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := Open(path, Options{LockTimeout: 50e6}); err == nil {
		t.Fatal("second Open of a locked file succeeded")
	}
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(BucketMeta)).Put([]byte("schema"), u64(SchemaVersion+1))
	}); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if _, err := Open(path, Options{}); !errors.Is(err, ErrSchema) {
		t.Fatalf("Open newer schema: %v, want ErrSchema", err)
	}
}

func TestCreateTable(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	build := func(n uint64) ([]byte, string, error) {
		return []byte(fmt.Sprintf("round %d", n)), fmt.Sprintf("T-%d", n), nil
	}
	if n, err := s.CreateTable("a", "round", build); err != nil || n != 1 {
		t.Fatalf("CreateTable(a) = %d, %v", n, err)
	}
	if _, err := s.CreateTable("a", "round", build); !errors.Is(err, ErrExists) {
		t.Fatalf("CreateTable(a) again: %v", err)
	}
	boom := errors.New("game refused")
	if _, err := s.CreateTable("b", "round", func(uint64) ([]byte, string, error) { return nil, "", boom }); !errors.Is(err, boom) {
		t.Fatalf("refused build: %v", err)
	}
	if _, err := s.LoadTable("b"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("refused build left a record: %v", err)
	}
	// Concurrent creations get distinct, gapless numbers (failed ones roll back theirs).
	const k = 50
	got := make(chan uint64, k)
	for i := 0; i < k; i++ {
		go func(i int) {
			n, err := s.CreateTable(fmt.Sprintf("c%d", i), "round", build)
			if err != nil {
				t.Error(err)
			}
			got <- n
		}(i)
	}
	seen := map[uint64]bool{}
	for i := 0; i < k; i++ {
		seen[<-got] = true
	}
	for n := uint64(2); n <= k+1; n++ {
		if !seen[n] {
			t.Fatalf("round number %d missing: %v", n, seen)
		}
	}
	if rec, _ := s.LoadTable("a"); string(rec) != "round 1" {
		t.Fatalf("record a = %q", rec)
	}
	if id, err := s.RoundTable("T-1"); err != nil || id != "a" {
		t.Fatalf("RoundTable(T-1) = %q, %v", id, err)
	}
}
