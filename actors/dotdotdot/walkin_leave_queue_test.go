package dotdotdot

import (
	"context"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"arena/storage"
)

// TestWalkinLeavesAFreeTable: a walk-in waiting at a Free play gathering table (between a
// registered agent and a second walk-in) leaves it by POST /v1/walkin/leave (LeaveTable): the
// stored gathering lacks it once the leave is answered, the others keep their order, its poll
// says idle, a second leave is not_at_a_table, a restart does not give the place back (still
// idle, the stored gathering unchanged), and it may join Practice. A walk-in never queued
// anywhere is not_at_a_table; the last walk-in to leave a table of walk-ins alone deletes its
// record.
func TestWalkinLeavesAFreeTable(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	j := kindAgent(1, KindFree, quickPace) // blitz: six seats, three of them taken here
	first, err := h.arena.JoinAgent(ctx, j)
	if err != nil || first.Status != "gathering" {
		t.Fatalf("the agent's join %+v %v", first, err)
	}
	reg := func(name string) (string, string) {
		t.Helper()
		tok, err := h.arena.RegisterWalkin(ctx, name, "")
		if err != nil {
			t.Fatal(err)
		}
		hash, _ := walkinTokenHash(tok)
		return tok, hash
	}
	wanda, wandaHash := reg("Wanda")
	xena, xenaHash := reg("Xena")
	idle, _ := reg("Idle")
	if err := h.arena.LeaveTable(ctx, idle); codeOf(err) != CodeNotAtATable {
		t.Fatalf("a leave by a walk-in waiting nowhere: %v, want %s", err, CodeNotAtATable)
	}
	for _, tok := range []string{wanda, xena} {
		if jr, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Table: KindFree}); err != nil || jr.Table != first.Table {
			t.Fatalf("a walk-in's Free join %+v %v", jr, err)
		}
	}
	if err := h.arena.LeaveTable(ctx, wanda); err != nil {
		t.Fatalf("Wanda's leave: %v", err)
	}
	stored := func(when string) {
		t.Helper()
		recs, err := h.arena.Store().Gatherings()
		if err != nil || len(recs) != 1 || recs[0].Table != first.Table || len(recs[0].Agents) != 2 ||
			recs[0].Agents[0].Agent != j.Agent || recs[0].Agents[1].Walkin != xenaHash {
			t.Fatalf("%s: stored gathering %+v %v: the agent then Xena, no Wanda (%s)", when, recs, err, wandaHash)
		}
		gs, err := h.arena.Gatherings(ctx)
		if err != nil || len(gs) != 1 || !reflect.DeepEqual(gs[0].Players, []string{"Kind 1", "Xena"}) {
			t.Fatalf("%s: gatherings %+v %v", when, gs, err)
		}
		if n, err := h.arena.NextMove(ctx, wanda, 0); err != nil || n.Status != NextIdle {
			t.Fatalf("%s: Wanda's poll %+v %v", when, n, err)
		}
		if n, err := h.arena.NextMove(ctx, xena, 0); err != nil || n.Status != NextGathering {
			t.Fatalf("%s: Xena's poll %+v %v", when, n, err)
		}
		if err := h.arena.LeaveTable(ctx, wanda); codeOf(err) != CodeNotAtATable {
			t.Fatalf("%s: a second leave: %v, want %s", when, err, CodeNotAtATable)
		}
	}
	stored("once the leave is answered")
	h.stop()
	h.start()
	stored("after a restart")
	if jr, err := h.arena.JoinWalkin(ctx, wanda, JoinRequest{Format: "short"}); err != nil || jr.Round == "" {
		t.Fatalf("Wanda's Practice join after leaving: %+v %v", jr, err)
	}
}

// TestWalkinLeavesTheLastPlaceAtAFreeTable: a walk-in alone at a Free play table leaves it: the
// table's record is deleted before the answer, the lobby lists no table, and the top-up that
// was armed for it opens nothing. A walk-in whose Free table filled (it opened at once) is
// refused table_started: its seat is there.
func TestWalkinLeavesTheLastPlaceAtAFreeTable(t *testing.T) {
	h := kindsHarness(t)
	ctx := context.Background()
	tok, err := h.arena.RegisterWalkin(ctx, "Wanda", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.arena.JoinWalkin(ctx, tok, JoinRequest{Table: KindFree, Format: "short"}); err != nil {
		t.Fatal(err)
	}
	if err := h.arena.LeaveTable(ctx, tok); err != nil {
		t.Fatalf("the leave: %v", err)
	}
	if recs, err := h.arena.Store().Gatherings(); err != nil || len(recs) != 0 {
		t.Fatalf("stored gatherings after the last leave %+v %v", recs, err)
	}
	h.clock.Advance(h.arena.paces().WalkinTopUp)
	if gs, err := h.arena.Gatherings(ctx); err != nil || len(gs) != 0 {
		t.Fatalf("gatherings after the top-up %+v %v", gs, err)
	}
	if n, err := h.arena.NextMove(ctx, tok, 0); err != nil || n.Status != NextIdle {
		t.Fatalf("the poll after the top-up %+v %v", n, err)
	}

	var others []string
	for _, name := range []string{"Ann", "Bo"} {
		o, err := h.arena.RegisterWalkin(ctx, name, "")
		if err != nil {
			t.Fatal(err)
		}
		others = append(others, o)
	}
	for _, o := range append(others, tok) {
		if _, err := h.arena.JoinWalkin(ctx, o, JoinRequest{Table: KindFree, Format: "short", Seats: 3}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.arena.LeaveTable(ctx, tok); codeOf(err) != CodeTableStarted {
		t.Fatalf("a leave once the table filled: %v, want %s", err, CodeTableStarted)
	}
}

// TestWalkinLeavesTheWalkinQueue: a walk-in in the walkin table's queue leaves it the same
// way: the stored queue lacks it once the leave is answered (the one behind keeps its place),
// its poll says idle, a restart does not give the place back, and it may join again.
func TestWalkinLeavesTheWalkinQueue(t *testing.T) { inBubble(t, walkinLeavesTheWalkinQueue) }

func walkinLeavesTheWalkinQueue(t *testing.T) {
	e := newDeskEnv(t, "", nil)
	ctx := deskCtx(t)
	ann, _ := practised(t, e, "Ann")
	bo, boHash := practised(t, e, "Bo")
	for _, tok := range []string{ann, bo} {
		if _, err := e.a.JoinWalkin(ctx, tok, JoinRequest{Table: "walkin", Format: "short"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.a.LeaveTable(ctx, ann); err != nil {
		t.Fatalf("Ann's leave: %v", err)
	}
	check := func(when string) {
		t.Helper()
		qs, err := e.db.WalkinQueues()
		if err != nil || len(qs) != 1 || !reflect.DeepEqual(hashes(qs[0].Waiting), []string{boHash}) {
			t.Fatalf("%s: stored queue %+v %v: Bo alone", when, qs, err)
		}
		if n, err := e.a.NextMove(ctx, ann, 0); err != nil || n.Status != NextIdle {
			t.Fatalf("%s: Ann's poll %+v %v", when, n, err)
		}
		deskWantCode(t, e.a.LeaveTable(ctx, ann), CodeNotAtATable)
	}
	check("once the leave is answered")
	e.clock.Advance(30 * time.Second)
	e = restartDesk(t, e)
	synctest.Wait()
	check("after a restart")
	if _, err := e.a.JoinWalkin(ctx, ann, JoinRequest{Table: "walkin", Format: "short"}); err != nil {
		t.Fatalf("Ann's join again: %v", err)
	}
}

func hashes(ws []storage.QueuedWalkin) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, w.Hash)
	}
	return out
}
