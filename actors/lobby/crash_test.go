package lobby_test

import (
	"slices"
	"testing"
	"time"

	"arena/actors/lobby"
)

// A panic inside one queue (here a product's Completed) restarts that queue empty, reports who it
// held, answers the request ErrQueueFault, and leaves every other queue as it was.
func TestPanicRestartsOnlyItsQueue(t *testing.T) {
	r := newRig(t)
	r.open(six("a"), true)
	r.open(six("b"), true)
	r.join("a", "x")
	r.join("a", "y")
	r.join("b", "p")
	r.joinAt("b", "q", 10*time.Second)
	r.join("b", "s")
	r.panicOn("boom")

	_, err := r.l.Join(t.Context(), "a", lobby.Entrant{Key: "boom"})
	wantErr(t, "join that panics", err, lobby.ErrQueueFault)

	in := r.info("a") // answered by the restarted queue, after its Restarting
	if in.Waiting != 0 || in.Seen != 2 {
		t.Fatalf("a after the panic: %+v, want empty with its 2 keys still seen", in)
	}
	d := r.droppedIn("a")
	if len(d) != 1 || len(d[0]) != 2 || d[0][0].Key != "x" || d[0][1].Key != "y" {
		t.Fatalf("a dropped %v, want [x y] once", d)
	}
	if d := r.droppedIn("b"); len(d) != 0 {
		t.Fatalf("b dropped %v", d)
	}
	for i, k := range []string{"p", "q", "s"} {
		if p, err := r.l.Position(t.Context(), "b", k); err != nil || p.Position != i+1 || p.Waiting != 3 {
			t.Fatalf("b position of %s: %+v %v", k, p, err)
		}
	}
	// b's timer runs on: p joined at 0, so its table opens at 30 s.
	r.to(30 * time.Second)
	if tabs := r.formed("b"); len(tabs) != 1 || !slices.Equal(sortedKeys(tabs[0]), []string{"p", "q", "s"}) {
		t.Fatalf("b tables %+v", tabs)
	}
	// a takes joins again, keeps counting its tables and arms its own timer.
	r.panicOn("")
	r.join("a", "x")
	r.join("a", "y")
	r.join("a", "z")
	r.to(59 * time.Second)
	if len(r.formed("a")) != 0 {
		t.Fatal("a opened a table before its timer")
	}
	r.to(60 * time.Second)
	tabs := r.formed("a")
	if len(tabs) != 1 || tabs[0].Number != 1 || !slices.Equal(sortedKeys(tabs[0]), []string{"x", "y", "z"}) {
		t.Fatalf("a tables %+v", tabs)
	}
}

// The tier split a queue reached survives its restart.
func TestSplitSurvivesARestart(t *testing.T) {
	r := newRig(t)
	c := six("a")
	c.SplitAt = 3
	r.open(c, true)
	r.completed["v"] = 10
	for _, k := range []string{"r1", "r2", "v"} {
		r.join("a", k)
	}
	if in := r.info("a"); !in.Split {
		t.Fatalf("info %+v, want split", in)
	}
	r.panicOn("boom")
	_, err := r.l.Join(t.Context(), "a", lobby.Entrant{Key: "boom"})
	wantErr(t, "join that panics", err, lobby.ErrQueueFault)
	if in := r.info("a"); !in.Split || in.Waiting != 0 {
		t.Fatalf("info after the restart %+v, want split and empty", in)
	}
	r.join("a", "r1")
	if got := r.join("a", "v"); got.Position != 1 || got.Tier != lobby.TierOpen {
		t.Fatalf("v after the restart: %+v, want first in the open line", got)
	}
}

// Shutdown reports who was still waiting.
func TestShutdownReportsTheWaiting(t *testing.T) {
	r := newRig(t)
	r.open(six("a"), false)
	r.join("a", "x")
	if err := r.l.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := r.droppedIn("a"); len(d) != 1 || len(d[0]) != 1 || d[0][0].Key != "x" {
		t.Fatalf("dropped %v", d)
	}
	_, err := r.l.Join(t.Context(), "a", lobby.Entrant{Key: "y"})
	wantErr(t, "join after shutdown", err, lobby.ErrClosed)
}
