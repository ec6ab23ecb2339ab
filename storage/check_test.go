package storage

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// oldFile writes a data file the way the builds before the typed API did: storage's buckets
// (with the empty agents bucket), the chain actor's and the join nonces' own buckets, a journal,
// each with a value, schema 1.
func oldFile(t *testing.T, agents map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "arena.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hash := strings.Repeat("ab", 32)
	txID := strings.Repeat("cd", 32)
	rec, _ := json.Marshal(ChainSubmission{ID: txID, Data: "0102", BlockItem: "00", Tx: txID, Nonce: 7})
	ev, _ := json.Marshal(ev("T-1", 1, "x"))
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range []string{"tables", "events", "rounds", "walkins", "agents", "ledger", "commands", "chainq", "meta",
			"journal", "chainidx", "chainmeta", "join_nonces"} {
			if _, err := tx.CreateBucket([]byte(b)); err != nil {
				return err
			}
		}
		put := func(b, k string, v []byte) {
			if err == nil {
				err = tx.Bucket([]byte(b)).Put([]byte(k), v)
			}
		}
		put("meta", "schema", u64(1))
		put("meta", "seq/round", u64(1))
		put("tables", "tbl", []byte("record"))
		put("rounds", "T-1", []byte("tbl"))
		put("events", string(eventKey("T-1", 1)), ev)
		put("walkins", hash, []byte(`{"name":"Ada"}`))
		put("walkins", "name/ada", []byte(hash))
		id, _ := hex.DecodeString(txID)
		put("chainq", string(id), rec)
		put("chainidx", "\x01\x02", rec)
		put("chainmeta", "next_nonce", u64(8))
		put("join_nonces", "n1", binary.BigEndian.AppendUint64(nil, uint64(time.Now().Add(time.Hour).Unix())))
		for k, v := range agents {
			put("agents", k, []byte(v))
		}
		if err != nil {
			return err
		}
		jb, err := tx.Bucket([]byte("journal")).CreateBucket([]byte("tbl"))
		if err != nil {
			return err
		}
		for _, in := range []string{"head", "in1"} {
			n, _ := jb.NextSequence()
			if err := jb.Put(binary.BigEndian.AppendUint64(nil, n), []byte(in)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// A data file written before the typed API opens and reads the same through it: nothing moves,
// the unused agents bucket goes, and the file passes Check.
func TestOldDataFileKeepsWorking(t *testing.T) {
	path := oldFile(t, nil)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rec, err := s.LoadTable("tbl"); err != nil || string(rec) != "record" {
		t.Fatalf("table: %q %v", rec, err)
	}
	if evs, err := s.Events("T-1"); err != nil || len(evs) != 1 || evs[0].Type != "x" {
		t.Fatalf("events: %+v %v", evs, err)
	}
	if in, err := s.Inputs("tbl"); err != nil || len(in) != 2 || string(in[1].Data) != "in1" || in[1].Seq != 2 {
		t.Fatalf("inputs: %+v %v", in, err)
	}
	if err := s.CommitInputs("tbl", nil, [][]byte{[]byte("in2")}, nil); err != nil {
		t.Fatal(err)
	}
	if in, _ := s.Inputs("tbl"); len(in) != 3 || in[2].Seq != 3 {
		t.Fatalf("appended after the old inputs: %+v", in)
	}
	if h, err := s.Walkins().Get("name/ada"); err != nil || string(h) != strings.Repeat("ab", 32) {
		t.Fatalf("walk-in name: %q %v", h, err)
	}
	pending, next, bad, err := s.ChainQueue()
	if err != nil || next != 8 || len(bad) != 0 || len(pending) != 1 || pending[0].Nonce != 7 {
		t.Fatalf("chain queue: %+v %d %v %v", pending, next, bad, err)
	}
	if l, ok, err := s.ChainLookup([]byte{1, 2}); err != nil || !ok || l.Nonce != 7 {
		t.Fatalf("chain lookup: %+v %v %v", l, ok, err)
	}
	if fresh, err := s.UseNonce("n1", time.Now(), time.Now().Add(time.Hour)); err != nil || fresh {
		t.Fatalf("a nonce used before the upgrade was fresh: %v %v", fresh, err)
	}
	if n, err := s.Next("round"); err != nil || n != 2 {
		t.Fatalf("counter: %d %v", n, err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// An agents bucket that holds keys is left for an operator (Check names it), never deleted.
func TestRetiredBucketWithKeysStays(t *testing.T) {
	s, err := Open(oldFile(t, map[string]string{"a1": "rating"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), `stray bucket "agents"`) {
		t.Fatalf("Check: %v", err)
	}
}

// Check names each kind of problem with its bucket and key.
func TestCheckFindsDamage(t *testing.T) {
	s, _ := openTest(t, Options{NoSync: true})
	if err := s.CommitInputs("tbl", []byte("r"), [][]byte{[]byte("in")}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("sound file: %v", err)
	}
	damage := []struct {
		bucket, key string
		val         []byte
		want        string // in Check's report
	}{
		{"meta", "colour", []byte("x"), `meta/"colour": stray key`},
		{"events", "T-9/12345678", []byte("{"), "event does not decode"},
		{"events", string(eventKey("T-9", 3)), mustJSON(ev("T-9", 3, "x")), "round T-9 has no table"},
		{"events", string(eventKey("T-8", 3)), mustJSON(ev("T-8", 4, "x")), "event T-8/4 under key T-8/3"},
		{"walkins", "name/bob", []byte("nobody"), "not a record key"},
		{"walkins", "colour", []byte("{}"), `walkins/"colour": stray key`},
		{"chainq", strings.Repeat("k", 32), []byte(`{"id":"00"}`), "under another key"},
		{"chainmeta", "next_nonce", []byte{1}, "not 8 bytes"},
		{"join_nonces", "n", []byte{1}, "expiry is not 8 bytes"},
		{"commands", "p1", nil, "not <player>/<command id>"},
		{"journal", "loose", []byte("x"), "not a table's log"},
		{"rounds", "T-8", []byte("a/b"), `rounds/"T-8"`},
		{"ledger", string(u64(2)), []byte("row"), "row 2 where 1 was due"},
		{"market", string(u64(3)), []byte("{}"), "market: row 3 where 1 was due"},
	}
	err := s.write(func(tx *bolt.Tx) error {
		for _, d := range damage {
			if err := tx.Bucket([]byte(d.bucket)).Put([]byte(d.key), d.val); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("journal")).Bucket([]byte("tbl")).Put(u64(9), []byte("x")); err != nil {
			return err
		}
		_, err := tx.CreateBucket([]byte("colours"))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Check()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Check: %v", err)
	}
	want := []string{`stray bucket "colours"`, "input seq 9 outside 1..1"}
	for _, d := range damage {
		want = append(want, d.want)
	}
	for _, want := range want {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check did not report %q:\n%v", want, err)
		}
	}
	// undo, so that openTest's cleanup check passes
	err = s.write(func(tx *bolt.Tx) error {
		for _, d := range damage {
			if err := tx.Bucket([]byte(d.bucket)).Delete([]byte(d.key)); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte("journal")).Bucket([]byte("tbl")).Delete(u64(9)); err != nil {
			return err
		}
		return tx.DeleteBucket([]byte("colours"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// A read-only store reads what a writer left and refuses every write; it needs an existing file.
func TestReadOnlyStore(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	if err := s.CommitStep("tbl", []byte("r"), nil); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := ro.LoadTable("tbl"); err != nil || string(rec) != "r" {
		t.Fatalf("read: %q %v", rec, err)
	}
	if err := ro.PutTable("tbl", []byte("w")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write: %v", err)
	}
	if _, err := ro.UseNonce("n", time.Now(), time.Now()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("nonce write: %v", err)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true}); err == nil {
		t.Fatal("a read-only open created a file")
	}
}

// A stopped earlier build's file, read as it is (read-only, before any writable Open has dropped
// its empty agents bucket), is sound: check-data on an untouched old ./data says so.
func TestCheckOldFileReadOnly(t *testing.T) {
	s, err := Open(oldFile(t, nil), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("Check of an old file: %v", err)
	}
}
