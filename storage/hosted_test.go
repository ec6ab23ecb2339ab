package storage

import (
	"errors"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A hosted table is kept through a reopen with every member and field; a deleted one is gone,
// and a bad code is refused.
func TestHostedTablesSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	t0 := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	ann, bo := strings.Repeat("a1", 32), strings.Repeat("b2", 32)
	gathering := HostedTable{Code: "K7QX", Format: "short", Seats: 3, Status: HostedGathering,
		Members: []HostedMember{{Hash: ann, Name: "Ann"}, {Hash: bo, Name: "Bo"}}, Created: t0, StartsBy: t0.Add(10 * time.Minute)}
	started := HostedTable{Code: "ZZ22", Format: "blitz", Seats: 6, Status: HostedStarted,
		Members: []HostedMember{{Hash: bo, Name: "Bo"}}, Created: t0, StartsBy: t0.Add(10 * time.Minute),
		Started: t0.Add(time.Minute), Table: "h0011223344556677", Round: "T-4"}
	closed := HostedTable{Code: "AAAA", Format: "short", Seats: 3, Status: HostedGathering,
		Members: []HostedMember{{Hash: ann, Name: "Ann"}}, Created: t0, StartsBy: t0}
	for _, h := range []HostedTable{gathering, started, closed} {
		if err := s.PutHosted(h); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteHosted("AAAA"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "k7qx", "K7/X", strings.Repeat("A", 17)} {
		if err := s.PutHosted(HostedTable{Code: bad}); !errors.Is(err, ErrBadKey) {
			t.Errorf("code %q: %v, want ErrBadKey", bad, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.HostedTables()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !sameHosted(got[0], gathering) || !sameHosted(got[1], started) {
		t.Fatalf("after reopen: %+v", got)
	}
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}

func sameHosted(a, b HostedTable) bool {
	if len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Members {
		if a.Members[i] != b.Members[i] {
			return false
		}
	}
	a.Members, b.Members = nil, nil
	return a.Code == b.Code && a.Format == b.Format && a.Seats == b.Seats && a.Status == b.Status &&
		a.Created.Equal(b.Created) && a.StartsBy.Equal(b.StartsBy) && a.Started.Equal(b.Started) &&
		a.Table == b.Table && a.Round == b.Round
}

func TestHostedCheckFindsDamage(t *testing.T) {
	h := strings.Repeat("a1", 32)
	checkDamage(t, BucketHosted, []damaged{
		{"K7QX", []byte("{"), "hosted table does not decode"},
		{"k7qx", mustJSON(HostedTable{Code: "k7qx"}), "key is not a table code"},
		{"K7QY", mustJSON(HostedTable{Code: "K7QX", Status: HostedGathering, Seats: 3, Members: []HostedMember{{Hash: h}}}), "under another key"},
		{"K7QZ", mustJSON(HostedTable{Code: "K7QZ", Status: "open", Seats: 3}), `status "open"`},
		{"K7Q2", mustJSON(HostedTable{Code: "K7Q2", Status: HostedGathering, Seats: 3}), "no member"},
		{"K7Q3", mustJSON(HostedTable{Code: "K7Q3", Status: HostedStarted, Seats: 3, Table: "h1", Members: []HostedMember{{Hash: h}}}), "a started table with round"},
		{"K7Q4", mustJSON(HostedTable{Code: "K7Q4", Status: HostedStarting, Seats: 3, Members: []HostedMember{{Hash: h}}}), `a starting table with table id ""`},
		{"K7Q5", mustJSON(HostedTable{Code: "K7Q5", Status: HostedGathering, Seats: 3, Members: []HostedMember{{Hash: "Ann"}}}), "not a record key"},
		{"K7Q6", mustJSON(HostedTable{Code: "K7Q6", Status: HostedGathering, Seats: 1, Members: []HostedMember{{Hash: h}, {Hash: h}}}), "2 members at 1 seats"},
	})
}

// damaged is one bad record for checkDamage: its key, value and what Check must say of it.
type damaged struct {
	key  string
	val  []byte
	want string
}

// checkDamage writes each record into bucket, bypassing the API, and wants Check to name every
// one (with its bucket); it removes them again so the file's own end-of-test check passes.
func checkDamage(t *testing.T, bucket string, ds []damaged) {
	t.Helper()
	s, _ := openTest(t, Options{NoSync: true})
	if err := s.Check(); err != nil {
		t.Fatalf("sound file: %v", err)
	}
	put := func(del bool) error {
		return s.write(func(tx *bolt.Tx) error {
			for _, d := range ds {
				b := tx.Bucket([]byte(bucket))
				var err error
				if del {
					err = b.Delete([]byte(d.key))
				} else {
					err = b.Put([]byte(d.key), d.val)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := put(false); err != nil {
		t.Fatal(err)
	}
	err := s.Check()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Check: %v", err)
	}
	for _, d := range ds {
		if !strings.Contains(err.Error(), bucket+"/") || !strings.Contains(err.Error(), d.want) {
			t.Errorf("Check did not report %s/%q: %q:\n%v", bucket, d.key, d.want, err)
		}
	}
	if err := put(true); err != nil {
		t.Fatal(err)
	}
}
