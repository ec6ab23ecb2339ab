package storage

import (
	"errors"
	"testing"
	"time"
)

// A paid table is kept through a reopen with its holds, as written last; a table that does not
// fit the layout is refused and nothing of its write is stored.
func TestPaidTablesSurviveReopen(t *testing.T) {
	s, path := openTest(t, Options{NoSync: true})
	t0 := time.Date(2026, 9, 9, 14, 0, 0, 0, time.UTC)
	hold := PaidHold{ID: "h_1", SeatToken: "st_1", Agent: "ccd:x/cis-2:A", Name: "A", Endpoint: "https://a.example/a2a",
		Kind: "byo", Human: true, PayFrom: []string{"ccd:x:owner"}, Status: PaidHolding}
	filling := PaidTable{ID: "o-1", Format: "short", Entry: 50_000_000, StartsAt: t0, Status: PaidFilling, Holds: []PaidHold{hold}}
	seated := hold
	seated.ID, seated.SeatToken, seated.Status, seated.Paid, seated.PaidBy, seated.Amount, seated.Seat = "h_2", "st_2", PaidSeated, true, "ccd:x:owner", 60_000_000, 1
	open := PaidTable{ID: "o-2", Format: "short", Entry: 50_000_000, StartsAt: t0, Status: PaidOpen, Round: "T-9", House: []int{2, 3},
		Holds: []PaidHold{seated}, Voided: "stopped", VoidHash: "sha256:00"}
	if err := s.PutPaidTables(filling, open); err != nil {
		t.Fatal(err)
	}
	filling.Status = PaidDecided
	if err := s.PutPaidTables(filling); err != nil {
		t.Fatal(err)
	}
	twice := open
	twice.ID, twice.Holds = "o-3", []PaidHold{seated, seated}
	bad := []PaidTable{
		{ID: "", Entry: 1, Status: PaidFilling},
		{ID: "o-4", Entry: 1, Status: "gathering"},
		{ID: "o-4", Entry: 0, Status: PaidFilling},
		{ID: "o-4", Entry: 1, Status: PaidOpen},
		twice,
		{ID: "o-4", Entry: 1, Status: PaidFilling, Holds: []PaidHold{{ID: "h", SeatToken: "st", Status: PaidSeated}}},
		{ID: "o-4", Entry: 1, Status: PaidFilling, Holds: []PaidHold{{ID: "h", SeatToken: "st", Status: PaidHolding, Paid: true}}},
		{ID: "o-4", Entry: 1, Status: PaidFilling, Voided: "stopped", VoidHash: "sha256:00"},
		{ID: "o-4", Entry: 1, Status: PaidOpen, Round: "T-1", Voided: "stopped"},
	}
	for _, b := range bad {
		if err := s.PutPaidTables(filling, b); !errors.Is(err, ErrBadKey) {
			t.Errorf("%+v: %v, want ErrBadKey", b, err)
		}
	}
	_ = s.Close()
	s2, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.PaidTables()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "o-1" || got[0].Status != PaidDecided || len(got[0].Holds) != 1 || got[0].Holds[0].PayFrom[0] != "ccd:x:owner" ||
		!got[0].StartsAt.Equal(t0) || got[1].Round != "T-9" || len(got[1].House) != 2 || got[1].Holds[0].Amount != 60_000_000 || got[1].Holds[0].Seat != 1 ||
		got[1].Voided != "stopped" || got[1].VoidHash != "sha256:00" {
		t.Fatalf("after reopen: %+v", got)
	}
	if err := s2.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestPaidCheckFindsDamage(t *testing.T) {
	checkDamage(t, BucketPaid, []damaged{
		{"o-1", []byte("{"), "paid table does not decode"},
		{"o-2", mustJSON(PaidTable{ID: "o-1", Entry: 1, Status: PaidFilling}), "under another key"},
		{"o-3", mustJSON(PaidTable{ID: "o-3", Entry: 1, Status: "gone"}), `status "gone"`},
		{"o-4", mustJSON(PaidTable{ID: "o-4", Entry: 1, Status: PaidSettled}), "without its round"},
		{"o-5", mustJSON(PaidTable{ID: "o-5", Entry: 1, Status: PaidFilling, Holds: []PaidHold{{ID: "h", Status: PaidHolding}}}), "seat token"},
	})
}
