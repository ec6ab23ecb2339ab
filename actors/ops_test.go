package actors

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"arena/actors/internal/countdown"
	"arena/games"
	"arena/games/blitz"
	"arena/storage"
	"arena/storage/storagetest"
)

// TestBlitzOpsRestartKeepsPrompts: ops restarts of a running Blitz table (match rebuilt from
// the store: journal head and entries) and a stop, reboot and restart: an accepted answer
// survives each (a second one is stale), and the open move's prompt redelivered by each new
// incarnation is byte for byte the one first delivered (same move, deadline, state and inbox).
func TestBlitzOpsRestartKeepsPrompts(t *testing.T) { inBubble(t, blitzOpsRestartKeepsPrompts) }

func blitzOpsRestartKeepsPrompts(t *testing.T) {
	h := bzHarness(t)
	ctx := context.Background()
	mb := h.mailbox("mb-bo-1")
	spec := bzHouseSpec("bo")
	spec.Seats[0].Channel, spec.Seats[0].Actor = ChannelMailbox, "mb-bo-1"
	bzWalkinSeat(&spec.Seats[0])
	spec.Pace.CloseEarly = false
	round := h.open(spec)
	nextPrompt(t, mb, 0)
	h.clock.Advance(time.Minute)
	first := nextPrompt(t, mb, 1)
	mv := first.Prompt.Move
	answer := func() SubmitAnswerReply {
		r, err := h.arena.Submit(ctx, SubmitAnswer{Table: "bo", Round: round, Input: games.Input{Seat: 1, Kind: "answer", Move: mv,
			Body: json.RawMessage(`{"messages":[{"type":"public","text":"kept across restarts <&>"}]}`)}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	redelivered := func(what string) {
		t.Helper()
		p := nextPrompt(t, mb, 1)
		if p.Prompt.Move != mv || !bytes.Equal(p.Wire, first.Wire) {
			t.Fatalf("%s: the open move's prompt changed:\nfirst %.300s\nnow   %.300s", what, first.Wire, p.Wire)
		}
	}
	// the house seats' lines of this exchange are committed first (restarts while they answer:
	// TestBlitzOpsRestartWhileSeatsAnswer)
	for seat := 2; seat <= 6; seat++ {
		from := []byte(`"from":` + strconv.Itoa(seat) + `,`)
		h.waitEvent("house line", func(e games.Event) bool {
			return e.Type == "message.public" && e.Turn == 1 && bytes.Contains(e.Payload, from)
		})
	}
	h.state("bo")
	if err := h.arena.RestartTable(ctx, "bo"); err != nil {
		t.Fatal(err)
	}
	redelivered("after an ops restart")
	if err := h.arena.StopTable(ctx, "bo"); err != nil {
		t.Fatal(err)
	}
	h.stop()
	h.start()
	if err := h.arena.RestartTable(ctx, "bo"); err != nil {
		t.Fatal(err)
	}
	redelivered("after stop, reboot and restart")
	if r := answer(); r.Code != "" {
		t.Fatalf("answer: %+v", r)
	}
	if err := h.arena.RestartTable(ctx, "bo"); err != nil {
		t.Fatal(err)
	}
	if r := answer(); r.Code != games.CodeStale {
		t.Fatalf("the answer was lost by an ops restart: %+v", r)
	}
	h.stop()
	h.start()
	if r := answer(); r.Code != games.CodeStale {
		t.Fatalf("the answer was lost by a reboot: %+v", r)
	}
	for i := 0; i < 200 && h.record("bo").Status != StatusFinished; i++ {
		h.clock.Advance(time.Minute)
		h.state("bo")
	}
	h.waitStatus("bo", StatusFinished)
	bzStoredReplays(t, h, "bo", round)
	evs, _ := h.store.Events(round)
	n := 0
	for _, e := range evs {
		if e.Type == "message.public" && bytes.Contains(e.Payload, []byte("kept across restarts")) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the walk-in's line is in the transcript %d times, want once", n)
	}
}

// slowHarness is newHarness with Blitz in the bracket, a replying anchorer, and commits that
// take 300 ms while slow is set (so a test can have a commit in flight and steps queued).
func slowHarness(t *testing.T, slow *atomic.Bool) (*harness, *replyingAnchorer) {
	h := &harness{t: t, clock: NewFakeClock(t0), eng: &countdown.Engine{},
		key:    ed25519.NewKeyFromSeed(make([]byte, 32)),
		probes: map[string]chan any{}, events: make(chan games.Event, 100000),
		status: make(chan [2]string, 100000), last: map[string]string{}}
	st, err := storage.Open(storagetest.Path(t), storage.Options{NoSync: true,
		CommitHook: func(string) error {
			if slow.Load() {
				time.Sleep(300 * time.Millisecond)
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	h.store = st
	t.Cleanup(func() {
		if h.arena != nil {
			_ = h.arena.Shutdown(context.Background())
		}
		_ = st.Close()
	})
	an := &replyingAnchorer{}
	an.sys = h.system
	h.anchorer = an
	h.eng2 = blitz.NewEngine(blitz.DefaultFees())
	h.start()
	return h, an
}

// A table that is stopping takes no input and starts no commit (answer unavailable; the next
// incarnation redelivers the open move). An ops restart or stop poisons the table; settleFlight
// on Stopping waits for the flight and drops the steps queued behind it, and protoactor keeps
// handing a stopping actor its user messages until its children (round, seats) have stopped. An
// input applied then (a walk-in's answer, a house seat's, sent after the poison) would be
// committed with the old match: Journal (or Snapshot) hands out every input the match holds, the
// dropped steps' included, while the commit carries only the new step's events, so the store
// would hold inputs whose events it never stored (a seq gap in the transcript, a stored state
// that replays to events the store does not hold).
//
// It runs in a synctest bubble, so its pauses are on the bubble's clock: the 100 ms pause ends
// with one commit in flight (the hook's 300 ms) and the house answers queued behind it.
func TestBlitzStoppingTableTakesNoInput(t *testing.T) {
	inBubble(t, stoppingTableTakesNoInput)
}

func stoppingTableTakesNoInput(t *testing.T) {
	var slow atomic.Bool
	h, _ := slowHarness(t, &slow)
	ctx := context.Background()
	mb := h.mailbox("mb-bs-1")
	spec := bzHouseSpec("bs")
	spec.Seats[0].Channel, spec.Seats[0].Actor = ChannelMailbox, "mb-bs-1"
	bzWalkinSeat(&spec.Seats[0])
	spec.Pace.CloseEarly = false
	round := h.open(spec)
	nextPrompt(t, mb, 0)
	pid := h.arena.TablePID("bs")
	root := h.arena.System().Root
	// At turns 1 to 3 (the race with the children's stop is timing-dependent: three tries)
	for turn := 1; turn <= 3; turn++ {
		slow.Store(true) // a commit takes 300 ms: steps queue behind the one in flight
		var p *delivered
		for p == nil {
			h.clock.Advance(time.Minute)
			select {
			case m := <-mb:
				if d, ok := m.(*delivered); ok && d.Prompt.Move.Turn == turn && d.Prompt.Move.Phase == "talk" {
					p = d // talk opens: its prompts left once its commit landed; the house seats answer now
				}
			case <-time.After(time.Second):
			}
		}
		time.Sleep(100 * time.Millisecond) // their answers: one commit in flight, the rest queued
		root.Poison(pid)                   // what an ops restart or stop does first
		root.Send(pid, &SubmitAnswer{Table: "bs", Round: round, Input: games.Input{Seat: 1, Kind: "answer", Move: p.Prompt.Move,
			Body: json.RawMessage(`{"messages":[{"type":"public","text":"sent after the poison"}]}`)}})
		time.Sleep(800 * time.Millisecond) // any commit started while stopping lands
		slow.Store(false)
		if err := h.arena.RestartTable(ctx, "bs"); err != nil {
			t.Fatal(err)
		}
		pid = h.arena.TablePID("bs")
		h.state("bs")
	}
	for i := 0; i < 60 && h.record("bs").Status != StatusFinished; i++ {
		h.clock.Advance(time.Minute)
		h.state("bs")
	}
	if rec := h.record("bs"); rec.Status != StatusFinished {
		t.Fatalf("not finished after the round's deadlines (%s, turn %d %s)", rec.Status, rec.Turn, rec.Phase)
	}
	evs, err := h.store.Events(round)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("the stored transcript has a gap: event %d has seq %d (after seq %d)", i+1, e.Seq, evs[max(i-1, 0)].Seq)
		}
	}
	bzStoredReplays(t, h, "bs", round)
}

// An ops restart or stop that reaches a table while its last commit (the reveal) is in flight
// waits for that commit (the commit pipeline's settleFlight) and then releases every output of
// the flight, not only its events: its anchors (the transcript anchor goes to the chain actor)
// and the finish (the finished status, RoundEnded to the walk-in's mailbox). The record says
// finished, so no next incarnation would do it: without that, the round's end is stored but
// never announced, and its transcript never anchored.
func TestBlitzOpsRestartOnFinalCommit(t *testing.T) { inBubble(t, opsRestartOnFinalCommit) }

func opsRestartOnFinalCommit(t *testing.T) {
	// commits take 300 ms while slow is set, so the restart surely reaches the table while the
	// reveal's commit is in flight
	var slow atomic.Bool
	h, _ := slowHarness(t, &slow)
	ctx := context.Background()
	mb := h.mailbox("mb-bfc-1")
	spec := bzHouseSpec("bfc")
	spec.Seats[0].Channel, spec.Seats[0].Actor = ChannelMailbox, "mb-bfc-1"
	bzWalkinSeat(&spec.Seats[0])
	spec.Pace.CloseEarly = false
	round := h.open(spec)
	restarted := false
	for i := 0; i < 60; i++ {
		rec := h.record("bfc")
		if rec.Status == StatusFinished {
			break
		}
		last := rec.Turn == 5 && rec.Phase == "commit" // the last turn settles and reveals as its commit closes
		if last {
			synctest.Wait() // the house answers' commits land: the reveal's is the next
			h.state("bfc")
			slow.Store(true)
		}
		h.clock.Advance(time.Minute)
		if last { // this deadline reveals the round: restart while its commit is in flight
			if err := h.arena.RestartTable(ctx, "bfc"); err != nil && !errors.Is(err, ErrBadSpec) {
				t.Fatal(err)
			}
			restarted = true
			break
		}
		h.state("bfc")
	}
	if !restarted {
		t.Fatal("never reached turn 5's commit")
	}
	slow.Store(false)
	h.waitStatus("bfc", StatusFinished) // the reveal's commit lands, and the arena's status says so
	if rec := h.record("bfc"); rec.Status != StatusFinished {
		t.Fatalf("not finished: %s turn %d %s", rec.Status, rec.Turn, rec.Phase)
	}
	nextRoundEnded(t, mb) // the walk-in is told the round ended
	h.waitEvent("transcript anchor recorded", and(roundIs(round), typeIs("transcript.anchored")))
}
