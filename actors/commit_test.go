package actors

import (
	"testing"
	"time"

	"arena/games"
)

// TestFailedCommitDoesNotSpin: a commit that fails reloads the match and owes its open prompts
// again, but pays that debt on the retry a second later, not at once. Redelivering at once made a
// table whose disk keeps failing spin: the house seats answer the prompts again, that step's
// commit fails, the prompts go out again, and a walk-in's mailbox is flooded with the same prompt
// as fast as the table can reload, for as long as the disk fails.
func TestFailedCommitDoesNotSpin(t *testing.T) {
	h := newHarness(t)
	mb := h.mailbox("mb-spin")
	sp := seats(ChannelHouse, ChannelHouse, ChannelMailbox)
	sp[2].Actor = "mb-spin"
	h.failFrom.Store(2) // turn 1 opens (commit 1); the house seats' answers to it fail
	round := h.open(TableSpec{ID: "spin", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": time.Minute}}})
	nextPrompt(t, mb, 1)
	deadline := time.Now().Add(waitMax)
	for h.commits.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the house answers were never committed")
		}
		time.Sleep(time.Millisecond)
	}
	// Time stands still, so no retry is due: nothing may be committed or delivered again. A
	// spinning table commits hundreds of times in this window, even on a loaded machine.
	time.Sleep(300 * time.Millisecond)
	h.state("spin")
	if n := h.commits.Load(); n > 3 {
		t.Fatalf("%d commits attempted with the disk failing and the clock standing still (1 landed, 2 house answers)", n)
	}
	if n := len(mb); n > 0 {
		t.Fatalf("the walk-in was delivered %d prompts again before the retry was due", n)
	}
	// The disk is back: the retry a second later redelivers, the house seats answer, it lands.
	h.failFrom.Store(0)
	h.clock.Advance(time.Second)
	nextPrompt(t, mb, 1)
	h.waitEvents("the house answers", 2, and(roundIs(round), typeIs("answer")))
}
