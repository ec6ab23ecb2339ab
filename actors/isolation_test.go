package actors

import (
	"testing"
)

// TestBlitzPanicNeighbourIsolated: a Practice table of six house seats (its public log packed
// between steps) plays its round to the end, never restarting, and its stored inputs replay to
// its stored events, whether it is alone in its arena or shares it with a Blitz table that
// panics again and again while the round is played (the neighbour restarts, or is poisoned:
// either way it is its own business). The two rounds are not compared byte for byte: each house
// seat is an actor of its own, so the order its answers reach the table is the scheduler's.
func TestBlitzPanicNeighbourIsolated(t *testing.T) { inBubble(t, blitzPanicNeighbourIsolated) }

func blitzPanicNeighbourIsolated(t *testing.T) {
	play := func(neighbour bool) []byte {
		h := bzHarness(t)
		round := h.open(bzHouseSpec("iso"))
		if neighbour {
			spec := bzHouseSpec("bad")
			spec.Seed = fixedSeed(77)
			h.open(spec)
			for i := 0; i < 6; i++ {
				h.arena.System().Root.Send(h.arena.TablePID("bad"), &CrashTable{Tag: "neighbour"})
				h.arena.System().Root.Send(h.arena.TablePID("iso"), &tableState{}) // interleave with iso's round
			}
		}
		h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
		h.waitStatus("iso", StatusFinished)
		bzStoredReplays(t, h, "iso", round)
		if neighbour {
			if rec := h.record("bad"); rec.Restarts == 0 {
				t.Fatalf("the neighbour never restarted: %+v", rec.Status)
			}
			if rec := h.record("iso"); rec.Restarts != 0 {
				t.Fatalf("iso restarted %d times", rec.Restarts)
			}
		}
		return bzTranscript(t, h, round)
	}
	for _, neighbour := range []bool{false, true} {
		if tr := play(neighbour); len(tr) == 0 {
			t.Fatalf("neighbour=%v: empty transcript", neighbour)
		}
	}
}
