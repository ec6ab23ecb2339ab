package actors

import (
	"bytes"
	"testing"
)

// TestBlitzPanicNeighbourIsolated: a Practice table of six house seats (answered by the round
// actor, its public log packed between steps) plays the same round, byte for byte, whether it is
// alone in its arena or shares it with a Blitz table that panics again and again while the round
// is played (the neighbour restarts, or is poisoned: either way it is its own business). The
// rounds are deterministic (one round actor answers the house seats in order; the clock stands
// still), so the transcripts must be equal.
func TestBlitzPanicNeighbourIsolated(t *testing.T) {
	play := func(neighbour bool) []byte {
		h := bzHarness3(t)
		round := h.open(bzHouseSpec3("iso"))
		if neighbour {
			spec := bzHouseSpec3("bad")
			spec.Seed = fixedSeed(77)
			h.open(spec)
			for i := 0; i < 6; i++ {
				h.arena.System().Root.Send(h.arena.TablePID("bad"), &crashTable{Tag: "neighbour"})
				h.arena.System().Root.Send(h.arena.TablePID("iso"), &tableState{}) // interleave with iso's round
			}
		}
		h.waitEvent("round.revealed", and(roundIs(round), typeIs("round.revealed")))
		h.waitStatus("iso", StatusFinished)
		bzStoredReplays3(t, h, "iso", round)
		if neighbour {
			if rec := h.record("bad"); rec.Restarts == 0 {
				t.Fatalf("the neighbour never restarted: %+v", rec.Status)
			}
			if rec := h.record("iso"); rec.Restarts != 0 {
				t.Fatalf("iso restarted %d times", rec.Restarts)
			}
		}
		return bzTranscript3(t, h, round)
	}
	alone, beside := play(false), play(true)
	if !bytes.Equal(alone, beside) {
		i := 0
		for i < len(alone) && i < len(beside) && alone[i] == beside[i] {
			i++
		}
		t.Fatalf("the round beside a panicking table differs from the round alone at byte %d:\n alone  %.300s\n beside %.300s",
			i, alone[max(0, i-100):], beside[max(0, i-100):])
	}
}
