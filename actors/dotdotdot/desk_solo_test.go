package dotdotdot

import (
	"testing"
)

// A walk-in's Solo (kinds.go): opened at once with the walk-in in seat 1 and the house roster in
// the rest, blitz only, the mole drawn (not chosen); the round goes into the record as a Solo,
// and does not count towards the three Practice rounds the walk-in table asks.
func TestDeskSoloRound(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Sola", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.a.JoinWalkin(ctx, token, JoinRequest{Table: KindSolo, Format: "short"})
	deskWantCode(t, err, "bad_request")
	mole := 1
	_, err = e.a.JoinWalkin(ctx, token, JoinRequest{Table: KindSolo, Mole: &mole})
	deskWantCode(t, err, "bad_request")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Table: KindSolo})
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != KindSolo || j.Seat != 1 || j.Format != "blitz" || j.Status != "seated" || j.Round == "" {
		t.Fatalf("join %+v", j)
	}
	ti, err := e.a.Table(ctx, j.Table)
	if err != nil {
		t.Fatal(err)
	}
	if ti.Kind != KindSolo || len(ti.Seats) != 6 || ti.Seats[0].Kind != "walkin" {
		t.Fatalf("table %+v", ti)
	}
	for _, s := range ti.Seats[1:] {
		if s.Kind != "house" {
			t.Fatalf("seat %+v", s)
		}
	}
	deskPlayRound(t, e.a, token)
	rec := deskRecord(t, e.a, token)
	if rec.Rounds != 1 || rec.Practice != 0 || len(rec.Last) != 1 || rec.Last[0].Kind != KindSolo {
		t.Fatalf("record %+v", rec)
	}
}
