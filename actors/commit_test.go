package actors

import (
	"testing"
	"testing/synctest"
	"time"

	"arena/games"
)

// TestFailedCommitDoesNotSpin: a commit that fails reloads the match and owes its open prompts
// again, but pays that debt on the retry a second later, not at once. Redelivering at once made a
// table whose disk keeps failing spin: the house seats answer the prompts again, that step's
// commit fails, the prompts go out again, and a walk-in's mailbox is flooded with the same prompt
// as fast as the table can reload, for as long as the disk fails.
//
// It runs in a synctest bubble and holds every commit after the third at the disk, so a table
// that spins comes to rest there: "nothing more was committed" is read once every goroutine is
// blocked (synctest.Wait), not after a pause.
func TestFailedCommitDoesNotSpin(t *testing.T) { inBubble(t, failedCommitDoesNotSpin) }

func failedCommitDoesNotSpin(t *testing.T) {
	h := newHarness(t)
	mb := h.mailbox("mb-spin")
	sp := seats(ChannelHouse, ChannelHouse, ChannelMailbox)
	sp[2].Actor = "mb-spin"
	h.failFrom.Store(2) // turn 1 opens (commit 1); the house seats' answers to it fail
	h.hold(4)           // a fourth commit before the retry is due is a spin
	round := h.open(TableSpec{ID: "spin", Seats: sp, Pace: games.Pace{Steps: map[string]time.Duration{"commit": time.Minute}}})
	nextPrompt(t, mb, 1)
	synctest.Wait() // the house answers are committed (and fail); the table is at rest
	if n := h.commits.Load(); n < 2 {
		t.Fatalf("%d commits: the house answers were never committed", n)
	}
	// Time stands still, so no retry is due: nothing may be committed or delivered again.
	if n := h.commits.Load(); n > 3 {
		t.Fatalf("%d commits attempted with the disk failing and the clock standing still (1 landed, 2 house answers)", n)
	}
	if n := len(mb); n > 0 {
		t.Fatalf("the walk-in was delivered %d prompts again before the retry was due", n)
	}
	h.state("spin") // and the table still answers
	// The disk is back: the retry a second later redelivers, the house seats answer, it lands.
	h.failFrom.Store(0)
	h.unhold()
	h.clock.Advance(time.Second)
	nextPrompt(t, mb, 1)
	h.waitEvents("the house answers", 2, and(roundIs(round), typeIs("answer")))
}
