package actors

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
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
	an.sys = func() *actor.ActorSystem { return h.arena.System() }
	h.anchorer = an
	h.stop()
	h.start()
	round := h.open(TableSpec{ID: "an-1", Seats: seats(ChannelHouse, ChannelHouse),
		Pace: games.Pace{Commit: 20 * time.Second, CloseEarly: true}})
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

// fakeAgent is an A2A agent: it checks the envelope's signature and answers n = seat.
type fakeAgent struct {
	pub   ed25519.PublicKey
	mu    sync.Mutex
	calls int
	bad   error
}

func (f *fakeAgent) Call(ctx context.Context, endpoint string, env []byte, deadline time.Time) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if err := VerifyEnvelope(f.pub, env); err != nil {
		f.bad = err
		return nil, err
	}
	if endpoint != "https://agent.example/a2a" {
		f.bad = errors.New("endpoint " + endpoint)
	}
	if _, ok := ctx.Deadline(); !ok {
		f.bad = errors.New("no deadline on the call")
	}
	return []byte(`{"n":8}`), nil
}

func TestA2ASeatAnswersThroughTheCaller(t *testing.T) {
	h := newHarness(t)
	ag := &fakeAgent{pub: h.key.Public().(ed25519.PublicKey)}
	h.agents = ag
	h.stop()
	h.start()
	sp := seats(ChannelA2A, ChannelHouse)
	sp[0].Seat.Kind, sp[0].Seat.Agent, sp[0].Endpoint = "byo", "ccd:x/cis-2:agent", "https://agent.example/a2a"
	round := h.open(TableSpec{ID: "a2a-1", Seats: sp, Pace: games.Pace{Commit: 20 * time.Second, CloseEarly: true}})
	h.waitStatus("a2a-1", StatusFinished)
	evs, _, _ := h.arena.Transcript(context.Background(), round)
	n := 0
	for _, e := range evs {
		if e.Type == "answer" && e.Visibility == "private:1" {
			if string(e.Payload) != `{"n":8,"seat":1}` {
				t.Fatalf("agent answer %s", e.Payload)
			}
			n++
		}
	}
	ag.mu.Lock()
	defer ag.mu.Unlock()
	if n != 3 || ag.calls != 3 || ag.bad != nil {
		t.Fatalf("%d answers from %d calls; agent saw %v", n, ag.calls, ag.bad)
	}
}
