package dotdotdot

import (
	"strings"
	"testing"
)

// A walk-in moved from one instance to another (ExportWalkin there, ImportWalkin here,
// ForgetWalkin there) keeps its record, Practice rounds and name, joins the walkin table here,
// and is unknown where it was, whose name is free again. A walk-in in a round or short of its
// Practice rounds is not exported for the walkin table (JoinWalkin's refusals), and a record
// whose name another walk-in holds here is refused name_taken, nothing written.
func TestWalkinMovesWithItsRecord(t *testing.T) {
	from, to := newDeskEnv(t, "", nil), newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	tok, err := from.a.RegisterWalkin(ctx, "Mover", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = from.a.ExportWalkin(ctx, tok, true)
	deskWantCode(t, err, CodeNotYet)
	played := map[string]bool{}
	for range PracticeRoundsForWalkin {
		played[deskPlayRound(t, from.a, mustJoin(t, from.a, tok)).Round] = true
	}
	mustJoin(t, from.a, tok)
	_, err = from.a.ExportWalkin(ctx, tok, true)
	deskWantCode(t, err, CodeInARound)
	played[deskPlayRound(t, from.a, tok).Round] = true

	rec, err := from.a.ExportWalkin(ctx, tok, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := to.a.ImportWalkin(ctx, tok, rec); err != nil {
		t.Fatal(err)
	}
	if err := to.a.ImportWalkin(ctx, tok, rec); err != nil {
		t.Fatalf("importing the same record again: %v", err)
	}
	if err := from.a.ForgetWalkin(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := from.a.ForgetWalkin(ctx, tok); err != nil {
		t.Fatalf("forgetting a record no longer here: %v", err)
	}
	if r := deskRecord(t, to.a, tok); r.Name != "Mover" || r.Practice != PracticeRoundsForWalkin+1 || r.Rounds != PracticeRoundsForWalkin+1 || !r.WalkinTable {
		t.Fatalf("the moved record %+v", r)
	}
	_, err = from.a.WalkinRecord(ctx, tok)
	deskWantCode(t, err, CodeUnknownToken)
	if j, err := to.a.JoinWalkin(ctx, tok, JoinRequest{Table: "walkin", Format: "short"}); err != nil || j.Status != "gathering" {
		t.Fatalf("the moved walk-in joins the walkin table: %+v %v", j, err)
	}
	// Topped up with house seats, its walkin table plays here; its round id is one its record has
	// from the other instance (round ids are per instance), and the seat is taken all the same.
	if _, err := to.a.Board(ctx); err != nil { // the desk has queued it (FIFO behind the join)
		t.Fatal(err)
	}
	to.clock.Advance(walkinTopUpAfter)
	for {
		n, err := to.a.NextMove(ctx, tok, MaxPollWait)
		if err != nil {
			t.Fatal(err)
		}
		if n.Status != NextGathering {
			break
		}
	}
	if end := deskPlayRound(t, to.a, tok); end.Result == nil || !played[end.Round] || !strings.HasPrefix(end.Table, "w") {
		t.Fatalf("the moved walk-in's walkin round %+v (its record has rounds %v)", end, played)
	}
	if _, err := from.a.RegisterWalkin(ctx, "Mover", ""); err != nil {
		t.Fatalf("the moved walk-in's name is not free where it was: %v", err)
	}

	// The name is taken here: refused, nothing written.
	other, err := from.a.RegisterWalkin(ctx, "Twin", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := to.a.RegisterWalkin(ctx, "twin", ""); err != nil {
		t.Fatal(err)
	}
	rec2, err := from.a.ExportWalkin(ctx, other, false)
	if err != nil {
		t.Fatal(err)
	}
	deskWantCode(t, to.a.ImportWalkin(ctx, other, rec2), CodeNameTaken)
	_, err = to.a.WalkinRecord(ctx, other)
	deskWantCode(t, err, CodeUnknownToken)
	deskWantCode(t, to.a.ImportWalkin(ctx, other, []byte(`{"name":""}`)), "bad_request")
}
