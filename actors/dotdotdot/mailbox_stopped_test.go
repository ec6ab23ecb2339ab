package dotdotdot

import (
	"testing"
	"testing/synctest"
	"time"

	"arena/actors"
	"arena/games"
)

// TestMailboxTableStopped: a stop for another table, seat or round is ignored; the seat's own
// stop drops the open move (not missed), answers polls with NextStopped, makes answers stale,
// answers a move redelivered after an ops restart with silence, and ignores that round's end.
func TestMailboxTableStopped(t *testing.T) {
	h := newMboxHarness()
	p := mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))
	h.m.deliver(p)
	for _, other := range []actors.TableStopped{
		{Table: "p2", Round: "T-7", Seat: 1, Status: actors.StatusStopped},
		{Table: "p1", Round: "T-7", Seat: 2, Status: actors.StatusStopped},
		{Table: "p1", Round: "T-6", Seat: 1, Status: actors.StatusStopped},
	} {
		if h.m.stop(&other) {
			t.Fatalf("stop %+v taken by the mailbox of p1 seat 1 in T-7", other)
		}
	}
	if n := h.poll(t); n.Status != NextMove {
		t.Fatalf("before the stop: status %q, want move", n.Status)
	}
	if !h.m.stop(&actors.TableStopped{Table: "p1", Round: "T-7", Seat: 1, Status: actors.StatusFailed}) {
		t.Fatal("the seat's own stop was not taken")
	}
	if h.m.stop(&actors.TableStopped{Table: "p1", Round: "T-7", Seat: 1, Status: actors.StatusStopped}) {
		t.Fatal("a second stop was taken again")
	}
	n := h.poll(t)
	if n.Status != NextStopped || n.Round != "T-7" || n.Table != "p1" || !n.Waiting || n.Prompt != nil {
		t.Fatalf("after the stop the poll answered %+v", n)
	}
	if h.m.missed != 0 {
		t.Errorf("the dropped move counted as missed: %d", h.m.missed)
	}
	if r := h.claim("T-7", p.Prompt.Move); r.Err == nil || r.Err.Code != games.CodeStale {
		t.Fatalf("answer after the stop: %+v, want stale", r)
	}
	// An ops restart redelivers the open move: silence at once, once.
	h.m.deliver(p)
	h.m.deliver(p)
	if len(h.silenced) != 1 || h.silenced[0].Input.Move != p.Prompt.Move || h.silenced[0].Round != "T-7" {
		t.Fatalf("redelivered move after the stop: silenced %+v, want it once", h.silenced)
	}
	if n := h.poll(t); n.Status != NextStopped {
		t.Fatalf("poll after the redelivery: %q, want stopped", n.Status)
	}
}

// TestStoppedSeatNotRespawned: after its table is stopped, the walk-in's seat leaves the live
// index (no mailbox respawned, no table restarted by the desk at the next boot), the record's
// live seat is cleared, and a claim through the token is stale. It runs in a synctest bubble.
func TestStoppedSeatNotRespawned(t *testing.T) { inBubble(t, stoppedSeatNotRespawned) }

func stoppedSeatNotRespawned(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	token, _ := e.a.RegisterWalkin(ctx, "Parked Pat", "")
	j, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	deskMustPoll(t, e.a, token)
	if got := e.a.liveWalkinTables(); len(got) != 1 || got[0] != j.Table {
		t.Fatalf("live walk-in tables before the stop: %v", got)
	}
	if err := e.a.StopTable(ctx, j.Table); err != nil {
		t.Fatal(err)
	}
	n, err := e.a.NextMove(ctx, token, 0)
	if err != nil || n.Status != NextStopped || n.Table != j.Table {
		t.Fatalf("poll after the stop: %+v, %v", n, err)
	}
	// The live entry is forgotten by the desk after the mailbox told it (asynchronously).
	synctest.Wait()
	if got := e.a.liveWalkinTables(); len(got) != 0 {
		t.Fatalf("live walk-in tables after the stop, the arena at rest: %v", got)
	}
	j2, err := e.a.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil || j2.Table == j.Table || j2.Status != "seated" {
		t.Fatalf("join after the stop: %+v, %v", j2, err)
	}
}
