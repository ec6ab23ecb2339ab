package actors

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"arena/games"
)

// replyingAnchorer plays the chain actor: it "signs" at once and answers the table.
type replyingAnchorer struct {
	sys  func() *actor.ActorSystem
	mu   sync.Mutex
	jobs []AnchorJob
}

func (r *replyingAnchorer) Anchor(job AnchorJob) {
	r.mu.Lock()
	r.jobs = append(r.jobs, job)
	r.mu.Unlock()
	r.sys().Root.Send(job.ReplyTo, &Anchored{Table: job.Table, Round: job.Round, Request: job.Request,
		Tx: hex.EncodeToString(job.Request.Hash[:4])})
}

func TestAnchorsAreRecordedInTheTranscript(t *testing.T) {
	h := newHarness(t)
	an := &replyingAnchorer{}
	an.sys = h.system
	h.anchorer = an
	h.stop()
	h.start()
	round := h.open(TableSpec{ID: "an-1", Seats: seats(ChannelHouse, ChannelHouse),
		Pace: games.Pace{CloseEarly: true, Steps: map[string]time.Duration{"commit": 20 * time.Second}}})
	// countdown asks for a "turn" anchor at every turn close; the last comes with the reveal, so
	// the table waits for its answer before it stops.
	h.waitEvents("anchors recorded", 3, and(roundIs(round), typeIs("anchor.turn")))
	h.waitStatus("an-1", StatusFinished)
	var seqs []uint32
	for _, e := range h.log {
		if e.Round == round && e.Type == "anchor.turn" {
			var b games.AnchoredBody
			_ = json.Unmarshal(e.Payload, &b)
			seqs = append(seqs, b.Seq)
			if b.Tx != b.Hash[:8] {
				t.Fatalf("anchor event %+v: tx is not the chain actor's", b)
			}
		}
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[2] != 3 {
		t.Fatalf("anchor seqs %v", seqs)
	}
	evs, _, _ := h.arena.Transcript(context.Background(), round)
	if n := len(evs); n == 0 || evs[n-1].Type != "anchor.turn" {
		t.Fatalf("last transcript event %+v", evs[len(evs)-1])
	}
}
