package lobby_test

import (
	"slices"
	"testing"
	"time"

	"arena/actors/lobby"
)

// six is a queue of tables of 6, at least 3 on the timer, no house.
func six(id string) lobby.Config {
	return lobby.Config{ID: id, TableSize: 6, Min: 3, Seed: [32]byte{1}}
}

func TestTableOpensAtTableSize(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false)
	ks := names("k", 8)
	for i, k := range ks[:5] {
		got := r.join("g", k)
		if got.Seated || got.Position != i+1 || got.Waiting != i+1 || got.Tier != lobby.TierOpen {
			t.Fatalf("join %s: %+v, want position %d of %d, open", k, got, i+1, i+1)
		}
	}
	if n := len(r.formed("g")); n != 0 {
		t.Fatalf("%d tables before the sixth", n)
	}
	got := r.join("g", ks[5])
	if !got.Seated || got.Table != 1 || got.Position != 0 {
		t.Fatalf("sixth join: %+v, want seated at table 1", got)
	}
	tabs := r.formed("g")
	if len(tabs) != 1 {
		t.Fatalf("%d tables, want 1", len(tabs))
	}
	tf := tabs[0]
	if tf.Queue != "g" || tf.Number != 1 || tf.Reason != lobby.ReasonFull || !tf.Ranked || tf.Tier != lobby.TierOpen ||
		!tf.At.Equal(t0) {
		t.Fatalf("table: %+v", tf)
	}
	if got := sortedKeys(tf); !slices.Equal(got, ks[:6]) {
		t.Fatalf("seats %v, want %v", got, ks[:6])
	}
	for _, s := range tf.Seats {
		if s.House || s.Staff || !s.Joined.Equal(t0) || s.Tier != lobby.TierOpen {
			t.Fatalf("seat %+v", s)
		}
	}
	if in := r.info("g"); in.Waiting != 0 || in.Tables != 1 {
		t.Fatalf("info %+v", in)
	}
	if n := r.clock.Pending(); n != 0 {
		t.Fatalf("%d timers armed on an empty queue", n)
	}
	// The next arrivals start a new line.
	if got := r.join("g", ks[6]); got.Position != 1 || got.Waiting != 1 {
		t.Fatalf("seventh join: %+v", got)
	}
}

func TestLobbyTimerOpensWithMin(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false)
	r.joinAt("g", "a", 0)
	r.joinAt("g", "b", 10*time.Second)
	r.joinAt("g", "c", 20*time.Second)
	r.to(29*time.Second + 999*time.Millisecond)
	if n := len(r.formed("g")); n != 0 {
		t.Fatalf("%d tables before the timer", n)
	}
	r.to(30 * time.Second) // 30 s after the longest-waiting entrant joined
	tabs := r.formed("g")
	if len(tabs) != 1 {
		t.Fatalf("%d tables at 30 s, want 1", len(tabs))
	}
	if tf := tabs[0]; tf.Reason != lobby.ReasonTimer || !tf.Ranked || !slices.Equal(sortedKeys(tf), []string{"a", "b", "c"}) ||
		!tf.At.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("table %+v seats %v", tf, keys(tf))
	}
}

func TestLobbyTimerBelowMinDoesNothing(t *testing.T) {
	r := newRig(t)
	r.open(six("g"), false) // no house: the queue waits for company
	r.joinAt("g", "a", 0)
	r.joinAt("g", "b", 5*time.Second)
	r.to(30 * time.Second)
	r.to(10 * time.Minute)
	if n := len(r.formed("g")); n != 0 {
		t.Fatalf("%d tables with 2 of 3", n)
	}
	if n := r.clock.Pending(); n != 0 {
		t.Fatalf("%d timers armed with nothing that can become due", n)
	}
	// The longest-waiting has waited past the timer: the entrant that makes Min opens the table.
	if got := r.joinAt("g", "c", 10*time.Minute+time.Second); !got.Seated {
		t.Fatalf("third join after the timer: %+v, want seated", got)
	}
	if tabs := r.formed("g"); len(tabs) != 1 || tabs[0].Reason != lobby.ReasonTimer || len(tabs[0].Seats) != 3 {
		t.Fatalf("tables %+v", tabs)
	}
}

// After a table forms, the next one is timed from the longest-waiting entrant left.
func TestLobbyTimerRunsFromOldestLeft(t *testing.T) {
	r := newRig(t)
	r.open(lobby.Config{ID: "g", TableSize: 3, Min: 2, Seed: [32]byte{2}}, false)
	r.joinAt("g", "a", 0)
	r.joinAt("g", "b", 5*time.Second)
	r.joinAt("g", "c", 10*time.Second) // full: a, b, c
	r.joinAt("g", "d", 12*time.Second)
	r.joinAt("g", "e", 40*time.Second)
	r.to(41 * time.Second)
	if n := len(r.formed("g")); n != 1 {
		t.Fatalf("%d tables at 41 s, want 1", n)
	}
	r.to(42 * time.Second) // d joined at 12 s
	tabs := r.formed("g")
	if len(tabs) != 2 || tabs[1].Reason != lobby.ReasonTimer || !slices.Equal(sortedKeys(tabs[1]), []string{"d", "e"}) {
		t.Fatalf("tables %d, second %+v", len(tabs), tabs[len(tabs)-1])
	}
}

// A full line takes the TableSize longest-waiting; the rest wait on.
func TestFullTableTakesTheLongestWaiting(t *testing.T) {
	r := newRig(t)
	r.open(lobby.Config{ID: "g", TableSize: 3, Min: 3, Seed: [32]byte{3}}, false)
	ks := names("k", 3)
	for _, k := range ks {
		r.join("g", k)
	}
	if tabs := r.formed("g"); len(tabs) != 1 || !slices.Equal(sortedKeys(tabs[0]), ks) {
		t.Fatalf("tables %v", tabs)
	}
}
