package dotdotdot

import (
	"encoding/json"
	"testing"
	"time"

	"arena/actors"
	"arena/games"
)

// Tests of the mailbox's state machine alone (no actor system): what a poll sees, when a move is
// gone, the away rule, stale answers.

var mboxT0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

type mboxHarness struct {
	m        *mailbox
	now      time.Time
	silenced []actors.SubmitAnswer
}

func newMboxHarness() *mboxHarness {
	h := &mboxHarness{now: mboxT0}
	h.m = &mailbox{hash: "h", table: "p1", seat: 1, game: "blitz",
		now:     func() time.Time { return h.now },
		silence: func(s actors.SubmitAnswer) { h.silenced = append(h.silenced, s) }}
	return h
}

func mboxMove(turn int, phase string, ex int, deadline time.Time) *delivery {
	mv := games.Move{Turn: turn, Phase: phase, Exchange: ex}
	return &delivery{Table: "p1", Round: "T-7", Seat: 1,
		Envelope: []byte(`{"v":1,"round":"T-7","turn":` + deskItoa(turn) + `,"sig":"ed25519:00"}`),
		Prompt:   games.Prompt{Seat: 1, Move: mv, Deadline: deadline}}
}

func deskItoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// poll is a poll that does not wait; it returns what the mailbox answered.
func (h *mboxHarness) poll(t *testing.T) Next {
	t.Helper()
	ch := make(chan Next, 1)
	h.m.await(mboxWaiter{ch: ch, done: make(chan struct{}), wait: false})
	select {
	case n := <-ch:
		return n
	default:
		t.Fatal("a poll that does not wait was not answered")
		return Next{}
	}
}

func (h *mboxHarness) claim(round string, mv games.Move) *mboxClaimReply {
	return h.m.claim(&mboxClaim{Echo: walkinEcho{Round: round, Move: mv}, At: h.now})
}

func TestMailboxPollNeverConsumes(t *testing.T) {
	h := newMboxHarness()
	p := mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))
	h.m.deliver(p)
	for i := 0; i < 3; i++ {
		n := h.poll(t)
		if n.Status != NextMove || n.Waiting || n.Prompt.Move != p.Prompt.Move || string(n.Envelope) != string(p.Envelope) {
			t.Fatalf("poll %d: got %+v, want the move talk 1 with its envelope", i, n)
		}
	}
	if r := h.claim("T-7", p.Prompt.Move); r.Err != nil {
		t.Fatalf("claim: %v", r.Err)
	}
	h.m.claimDone(&mboxClaimDone{Round: "T-7", Move: p.Prompt.Move, Outcome: claimAnswered})
	if n := h.poll(t); n.Status != NextPlaying || !n.Waiting || n.Round != "T-7" {
		t.Fatalf("after the answer: got %+v, want waiting/playing in T-7", n)
	}
}

func TestMailboxDroppedPollKeepsMove(t *testing.T) {
	// A poll that ended (client dropped) before the move came must not take the move with it.
	for i := 0; i < 100; i++ {
		h := newMboxHarness()
		done := make(chan struct{})
		ch := make(chan Next, 1)
		h.m.await(mboxWaiter{ch: ch, done: done, wait: true})
		close(done) // the client dropped
		p := mboxMove(1, "talk", 1+i%3, mboxT0.Add(time.Minute))
		h.m.deliver(p)
		if len(ch) != 0 {
			t.Fatalf("iteration %d: a gone waiter was answered", i)
		}
		if len(h.m.waiters) != 0 {
			t.Fatalf("iteration %d: %d waiters kept after the move", i, len(h.m.waiters))
		}
		if n := h.poll(t); n.Status != NextMove || n.Prompt.Move != p.Prompt.Move {
			t.Fatalf("iteration %d: re-poll got %+v, want the same move", i, n)
		}
	}
}

func TestMailboxWaitersWokenAndPruned(t *testing.T) {
	h := newMboxHarness()
	var chans []chan Next
	for i := 0; i < 5; i++ {
		done := make(chan struct{})
		if i < 3 {
			close(done) // three polls already ended
		}
		ch := make(chan Next, 1)
		chans = append(chans, ch)
		h.m.await(mboxWaiter{ch: ch, done: done, wait: true})
	}
	if got := len(h.m.waiters); got > 3 {
		t.Fatalf("ended polls were kept: %d waiters", got)
	}
	p := mboxMove(2, "commit", 0, mboxT0.Add(time.Minute))
	h.m.deliver(p)
	for i, ch := range chans {
		want := 0
		if i >= 3 {
			want = 1
		}
		if len(ch) != want {
			t.Fatalf("poll %d: %d answers, want %d", i, len(ch), want)
		}
	}
	if n := <-chans[4]; n.Prompt == nil || n.Prompt.Move.Phase != "commit" {
		t.Fatalf("woken poll got %+v", n)
	}
}

func TestMailboxMoveGoneWhenNextArrivesOrDeadlinePasses(t *testing.T) {
	h := newMboxHarness()
	a := mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))
	b := mboxMove(1, "talk", 2, mboxT0.Add(2*time.Minute))
	h.m.deliver(a)
	h.m.deliver(b)
	if r := h.claim("T-7", a.Prompt.Move); r.Err == nil || r.Err.Code != games.CodeStale {
		t.Fatalf("answer to the replaced move: %+v, want stale", r)
	}
	if n := h.poll(t); n.Prompt.Move != b.Prompt.Move {
		t.Fatalf("poll: %+v, want exchange 2", n.Prompt)
	}
	h.now = mboxT0.Add(2 * time.Minute) // the deadline instant closes the move
	if r := h.claim("T-7", b.Prompt.Move); r.Err == nil || r.Err.Code != games.CodeStale {
		t.Fatalf("answer past the deadline: %+v, want stale", r)
	}
	if n := h.poll(t); n.Status != NextPlaying {
		t.Fatalf("poll after the deadline: %+v, want playing", n)
	}
}

func TestMailboxStaleEchoes(t *testing.T) {
	h := newMboxHarness()
	p := mboxMove(3, "talk", 2, mboxT0.Add(time.Minute))
	h.m.deliver(p)
	tests := []struct {
		name string
		echo walkinEcho
	}{
		{"another round", walkinEcho{Round: "T-8", Move: p.Prompt.Move}},
		{"another turn", walkinEcho{Round: "T-7", Move: games.Move{Turn: 2, Phase: "talk", Exchange: 2}}},
		{"another phase", walkinEcho{Round: "T-7", Move: games.Move{Turn: 3, Phase: "commit"}}},
		{"another exchange", walkinEcho{Round: "T-7", Move: games.Move{Turn: 3, Phase: "talk", Exchange: 1}}},
		{"another seat", walkinEcho{Round: "T-7", Move: p.Prompt.Move, Seat: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.m.claim(&mboxClaim{Echo: tt.echo, At: h.now})
			if r.Err == nil || r.Err.Code != games.CodeStale {
				t.Fatalf("got %+v, want stale", r)
			}
		})
	}
	// None of them touched the move: the right echo still claims it, once.
	if r := h.m.claim(&mboxClaim{Echo: walkinEcho{Round: "T-7", Move: p.Prompt.Move, Seat: 1}, At: h.now}); r.Err != nil {
		t.Fatalf("right echo: %v", r.Err)
	}
	if r := h.claim("T-7", p.Prompt.Move); r.Err == nil || r.Err.Code != games.CodeStale {
		t.Fatalf("second claim while the first is in flight: %+v, want stale", r)
	}
	// A claim released (the game refused the body) opens the move again.
	h.m.claimDone(&mboxClaimDone{Round: "T-7", Move: p.Prompt.Move, Outcome: claimReleased})
	if r := h.claim("T-7", p.Prompt.Move); r.Err != nil {
		t.Fatalf("claim after release: %v", r.Err)
	}
}

func TestMailboxAwayRule(t *testing.T) {
	h := newMboxHarness()
	dl := mboxT0.Add(time.Hour)
	h.m.deliver(mboxMove(1, "talk", 1, dl)) // polled, never answered
	h.poll(t)
	h.m.deliver(mboxMove(1, "talk", 2, dl)) // talk 1 missed (1 in a row)
	if h.m.away || len(h.silenced) != 0 {
		t.Fatalf("away after one miss: away=%v silenced=%d", h.m.away, len(h.silenced))
	}
	h.m.deliver(mboxMove(1, "commit", 0, dl)) // talk 2 missed (2 in a row): away, commit silenced
	if !h.m.away || len(h.silenced) != 1 {
		t.Fatalf("after two misses: away=%v silenced=%d, want away and one silent answer", h.m.away, len(h.silenced))
	}
	s := h.silenced[0]
	if s.Table != "p1" || s.Round != "T-7" || s.Input.Seat != 1 || s.Input.Kind != "answer" ||
		s.Input.Move != (games.Move{Turn: 1, Phase: "commit"}) {
		t.Fatalf("silent answer %+v", s)
	}
	if got, want := string(s.Input.Body), `{"phase":"commit","round":"T-7","turn":1}`; got != want {
		t.Fatalf("silent body %s, want %s", got, want)
	}
	h.m.deliver(mboxMove(2, "talk", 1, dl))
	if len(h.silenced) != 2 || string(h.silenced[1].Input.Body) != `{"exchange":1,"phase":"talk","round":"T-7","turn":2}` {
		t.Fatalf("away seat not silenced at once: %d", len(h.silenced))
	}
	// A silenced move is answered: a late answer to it is stale.
	if r := h.claim("T-7", games.Move{Turn: 2, Phase: "talk", Exchange: 1}); r.Err == nil || r.Err.Code != games.CodeStale {
		t.Fatalf("answer to a silenced move: %+v, want stale", r)
	}
	// The seat asks again: away ends; the next move waits for it.
	if n := h.poll(t); n.Status != NextPlaying {
		t.Fatalf("poll while the silenced move stands: %+v", n)
	}
	h.m.deliver(mboxMove(2, "talk", 2, dl))
	if h.m.away || len(h.silenced) != 2 {
		t.Fatalf("after polling: away=%v silenced=%d, want not away", h.m.away, len(h.silenced))
	}
	if n := h.poll(t); n.Status != NextMove || n.Prompt.Move != (games.Move{Turn: 2, Phase: "talk", Exchange: 2}) {
		t.Fatalf("poll: %+v, want talk 2", n)
	}
}

func TestMailboxAnsweringResetsMisses(t *testing.T) {
	h := newMboxHarness()
	dl := mboxT0.Add(time.Hour)
	h.m.deliver(mboxMove(1, "talk", 1, dl))
	p := mboxMove(1, "talk", 2, dl)
	h.m.deliver(p) // talk 1 missed
	if r := h.claim("T-7", p.Prompt.Move); r.Err != nil {
		t.Fatal(r.Err)
	}
	h.m.claimDone(&mboxClaimDone{Round: "T-7", Move: p.Prompt.Move, Outcome: claimAnswered})
	h.m.deliver(mboxMove(1, "commit", 0, dl))
	h.m.deliver(mboxMove(2, "talk", 1, dl)) // commit missed: one in a row since the answer
	if h.m.away || len(h.silenced) != 0 {
		t.Fatalf("away after an answer and one miss: away=%v", h.m.away)
	}
	h.m.deliver(mboxMove(2, "talk", 2, dl)) // two in a row
	if !h.m.away || len(h.silenced) != 1 {
		t.Fatalf("not away after two misses in a row: away=%v silenced=%d", h.m.away, len(h.silenced))
	}
}

func TestMailboxRedeliveryKeepsState(t *testing.T) {
	h := newMboxHarness()
	p := mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))
	h.m.deliver(p)
	h.m.deliver(mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))) // table restarted: same move
	if h.m.missed != 0 {
		t.Fatalf("redelivery counted as a miss: %d", h.m.missed)
	}
	if r := h.claim("T-7", p.Prompt.Move); r.Err != nil {
		t.Fatal(r.Err)
	}
	h.m.claimDone(&mboxClaimDone{Round: "T-7", Move: p.Prompt.Move, Outcome: claimAnswered})
	h.m.deliver(mboxMove(1, "talk", 1, mboxT0.Add(time.Minute))) // again, after the answer
	if n := h.poll(t); n.Status != NextPlaying {
		t.Fatalf("an answered move came back on redelivery: %+v", n)
	}
}

func TestMailboxResult(t *testing.T) {
	h := newMboxHarness()
	ch := make(chan Next, 1)
	h.m.await(mboxWaiter{ch: ch, done: make(chan struct{}), wait: true})
	res := games.Result{Payouts: map[int]int64{1: 210_000_000}}
	if !h.m.ended(&actors.RoundEnded{Table: "p1", Round: "T-7", Seat: 1, Result: res}) {
		t.Fatal("first RoundEnded not taken")
	}
	h.m.wake(h.m.resultNext())
	if h.m.ended(&actors.RoundEnded{Table: "p1", Round: "T-7", Seat: 1, Result: res}) {
		t.Fatal("a repeated RoundEnded was taken twice")
	}
	n := <-ch
	if n.Status != NextRevealed || n.Waiting || n.Result == nil || n.Result.Payouts[1] != 210_000_000 {
		t.Fatalf("waiter got %+v", n)
	}
	if n := h.poll(t); n.Status != NextRevealed || n.Round != "T-7" {
		t.Fatalf("poll after the round: %+v", n)
	}
}
