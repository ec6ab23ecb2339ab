package dotdotdot

import (
	"bytes"
	"path/filepath"
	"testing"

	"arena/storage"
)

// A process killed (SIGKILL) right after the last commit of a walk-in's Practice round can leave
// the table's record finished and its transcript revealed while the walk-in's record still holds
// the round as live (the actors.RoundEnded that would have cleared it died with the process).
// Boot recovery starts only live tables, so no actors.RoundEnded is sent again: the desk must
// free the walk-in from the finished table's record, or GET /v1/walkin/next would wait forever
// and every join be refused in_a_round.
// This test builds that stored state directly (the walk-in record as it was while the round was
// live, beside a finished table) and wants what protocol-notes (§4.4 long poll) promise: the
// round's result, read from the table's record after a restart, and a free walk-in.
func TestDeskWalkinFreedAfterKillAtReveal(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, err := e.a.RegisterWalkin(ctx, "Kira", "gpt")
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	deskMustPoll(t, e.a, token) // the first move: the seat is taken and recorded
	var key string
	var liveRec []byte
	if err := e.db.Walkins().Scan("", func(k string, v []byte) error {
		if bytes.Contains(v, []byte(`"live"`)) && bytes.Contains(v, []byte(j.Round)) {
			key, liveRec = k, append([]byte(nil), v...)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if key == "" {
		t.Fatal("no stored walk-in record holds the live round")
	}
	end := deskPlayRound(t, e.a, token)
	if end.Status != NextRevealed || end.Result == nil {
		t.Fatalf("round end: %+v", end)
	}
	dir, clock := e.dir, e.clock
	e.stop()

	// What a SIGKILL between the reveal's commit and the walk-in's actors.RoundEnded leaves on disk.
	db, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Walkins().Put(key, liveRec); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := newDeskEnv(t, dir, clock)
	last, err := e2.a.NextMove(ctx, token, 0)
	if err != nil {
		t.Fatal(err)
	}
	if last.Status != NextRevealed || last.Round != j.Round || last.Result == nil ||
		last.Result.Payouts[1] != end.Result.Payouts[1] {
		t.Fatalf("poll after the restart: status %q round %q result %v; want %q of %s with payout %d",
			last.Status, last.Round, last.Result != nil, NextRevealed, j.Round, end.Result.Payouts[1])
	}
	if _, err := e2.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"}); err != nil {
		t.Fatalf("join after the restart: %v (the walk-in is stuck in a finished round)", err)
	}
}
