package dotdotdot

import (
	"bytes"
	"path/filepath"
	"testing"

	"arena/storage"
)

// Defect (found by the README user test U1: `arena serve`, a walk-in's Practice round, SIGKILL
// right after the 200 to the last commit's answer, restart on the same data dir; seen once in 8
// tries, round T-10): the table's record says finished and the transcript is revealed, but the
// walk-in's record still holds the round as live (rounds 0, practice 0, last []: the
// actors.RoundEnded that would have cleared it died with the process). After the restart the walk-in is
// stuck for good: GET /v1/walkin/next answers {"waiting":true,"round":"","status":"playing"} and
// a join is refused in_a_round, because liveGone (mailbox_stopped.go) frees a seat only when its
// table is stopped or failed, never when it finished, and boot recovery starts only live tables,
// so no actors.RoundEnded is ever sent again.
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
