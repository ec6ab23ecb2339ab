package actors

import (
	"encoding/hex"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// losingAnchorer answers every anchor job at once, except the round's transcript anchor while
// lose is set: that job is swallowed, as when the process is killed (SIGKILL) after the reveal's
// commit landed and before the chain actor's answer reached the table.
type losingAnchorer struct {
	sys  func() *actor.ActorSystem
	lose atomic.Bool
	mu   sync.Mutex
	lost []AnchorJob
}

func (l *losingAnchorer) Anchor(job AnchorJob) {
	if l.lose.Load() && job.Request.Kind == "transcript" {
		l.mu.Lock()
		l.lost = append(l.lost, job)
		l.mu.Unlock()
		return
	}
	l.sys().Root.Send(job.ReplyTo, &Anchored{Table: job.Table, Round: job.Round, Request: job.Request,
		Tx: hex.EncodeToString(job.Request.Hash[:4])})
}

// A process killed (SIGKILL) after the reveal's commit and before the chain actor answered the
// transcript anchor: after the restart, the finished round's pending anchors
// (games.AnchorKeeper) are asked for again and recorded, so its transcript gets its
// transcript.anchored line and `arena anchor-check` passes. The reveal's commit stores the table
// as finished before the chain actor has answered, and boot recovery (tablesActor.recover)
// starts only live tables, so the finished round's anchors must be re-sent apart from them.
func TestBlitzKilledAfterRevealStillAnchorsTranscript(t *testing.T) {
	inBubble(t, killedAfterRevealStillAnchorsTranscript)
}

func killedAfterRevealStillAnchorsTranscript(t *testing.T) {
	var slow atomic.Bool
	h, _ := slowHarness(t, &slow)
	la := &losingAnchorer{}
	la.sys = h.system
	la.lose.Store(true)
	h.anchorer = la
	h.stop()
	h.start()

	round := h.open(bzHouseSpec("kr1")) // six house seats on the chat clock: plays to the end at once
	h.waitStatus("kr1", StatusFinished)
	h.waitEvent("round revealed", and(roundIs(round), typeIs("round.revealed")))
	la.mu.Lock()
	lost := len(la.lost)
	la.mu.Unlock()
	if lost != 1 {
		t.Fatalf("transcript anchor jobs swallowed: %d, want 1", lost)
	}

	// The process dies here; it comes back on the same store with a chain actor that answers.
	h.stop()
	la.lose.Store(false)
	h.start()

	h.quiet() // the recovered anchors are asked for, answered and recorded: the arena is at rest
	evs, err := h.store.Events(round)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if int64(i+1) != e.Seq {
			t.Fatalf("seq gap: event %d has seq %d", i+1, e.Seq)
		}
		if e.Type == "transcript.anchored" {
			return
		}
	}
	last := games.Event{}
	if len(evs) > 0 {
		last = evs[len(evs)-1]
	}
	t.Fatalf("round %s: no transcript.anchored line once the restarted arena is at rest (%d events, last %d %s): the revealed round is never anchored",
		round, len(evs), last.Seq, last.Type)
}
