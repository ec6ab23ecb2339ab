package blitz

import (
	"testing"
	"time"

	"arena/games"
	"arena/games/blitz/commitment"
)

// chatSetup is Short on the chat clock (§4.5: three-minute moves, phases close as soon as
// every seat answered), seat 1 a BYO agent with a human beside it (the one kind of seat whose
// human can veto at this pace: a walk-in answers for itself), the mole seat 3 drawn the veto task.
func chatSetup(t *testing.T) *harness {
	s := testSetup("short", 3, `{"mole":3,"task":{"kind":"veto","named":[]}}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human, o.Walkin, o.Kind = true, false, "byo" })
	s.Pace = games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 3 * time.Minute, "talk": 3 * time.Minute, "commit": 3 * time.Minute, "settle": time.Second}}
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	return h
}

// chatWindow is the veto window on chatSetup's clock: a fifth of its 3-minute commit phase.
const chatWindow = 36 * time.Second

// vetoTarget is seat 1's signed commitment to the mole (10 CCD, due 2) and its pending id.
func vetoTarget(h *harness) (body, id string) {
	h.t.Helper()
	body = h.signed(1, base(1, 1, 1, 3, 10*ccd, 2))
	_, can, err := commitment.Parse([]byte(body))
	if err != nil {
		h.t.Fatal(err)
	}
	return body, can.ID
}

// sealedTarget reports whether the only sealed commitment is vetoTarget's.
func sealedTarget(cs []Record) bool {
	return len(cs) == 1 && cs[0].Payer == 1 && cs[0].Payee == 3
}

// §12 veto "only during commit" at chat pace: once every seat has answered, the commit phase
// stays open for the lever holder's veto window (36 s, a fifth of the 3-minute commit, from its
// own answer); the veto
// then closes it at once, and the veto task's rung 1 rings in commit (§9).
func TestChatVetoWindowVetoCloses(t *testing.T) {
	h := chatSetup(t)
	answered := h.now.Add(time.Millisecond)
	target, id := vetoTarget(h)
	h.mustNoDrop(1, commitBody(target))
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	if mv := h.m.Phase(); mv != (games.Move{Turn: 1, Phase: "commit"}) {
		t.Fatalf("phase %+v after every seat answered: want commit held for the veto", mv)
	}
	if d, _ := h.m.Deadline(); !d.Equal(answered.Add(chatWindow)) {
		t.Fatalf("deadline %v, want the veto window's end %v", d, answered.Add(chatWindow))
	}
	if ps := h.m.Prompts(); len(ps) != 0 {
		t.Fatalf("prompts while held: %+v", ps)
	}
	h.now = h.now.Add(30 * time.Second) // inside the 36 s
	if _, err := h.act(1, "veto", `{"pending_id":"`+id+`"}`); err != nil {
		t.Fatalf("veto inside the window: %v", err)
	}
	if mv := h.m.Phase(); mv != (games.Move{Turn: 2, Phase: "talk", Exchange: 1}) {
		t.Fatalf("phase %+v after the veto: want turn 2 talk (commit closed, settle takes no time)", mv)
	}
	if r := h.m.Rungs(); len(r) != 1 || r[0] != 1 {
		t.Fatalf("rungs %v, want [1]", r)
	}
	if b := h.events("mole.rung"); len(b) != 1 || string(b[0].Payload) != `{"phase":"commit","rung":1,"turn":1}` {
		t.Fatalf("bell %+v", b)
	}
	if cs := h.m.Commitments(); len(cs) != 0 {
		t.Fatalf("sealed %+v: the vetoed pending must not seal", cs)
	}
}

// No veto: the phase closes at the window's end (Advance), not at the three-minute end, and
// the pending commitment seals.
func TestChatVetoWindowLapses(t *testing.T) {
	h := chatSetup(t)
	answered := h.now.Add(time.Millisecond)
	h.mustNoDrop(1, commitBody(first(vetoTarget(h))))
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	if st := h.m.Advance(answered.Add(chatWindow - time.Millisecond)); len(st.Events) != 0 {
		t.Fatalf("closed before the window's end: %+v", st.Events)
	}
	h.next()
	if !h.now.Equal(answered.Add(chatWindow)) {
		t.Fatalf("closed at %v, want %v", h.now, answered.Add(chatWindow))
	}
	if mv := h.m.Phase(); mv != (games.Move{Turn: 2, Phase: "talk", Exchange: 1}) {
		t.Fatalf("phase %+v", mv)
	}
	if cs := h.m.Commitments(); !sealedTarget(cs) {
		t.Fatalf("sealed %+v", cs)
	}
	if len(h.m.Rungs()) != 0 {
		t.Fatalf("rungs %v without a veto", h.m.Rungs())
	}
}

// The window runs from the holder's own answer: when the others answered more than a window
// later (over 36 s), the holder already had its window and the phase closes on the last answer. A holder
// with no pending commitment, or whose veto is spent, holds nothing either.
func TestChatVetoWindowNoHold(t *testing.T) {
	h := chatSetup(t)
	h.mustNoDrop(1, commitBody(first(vetoTarget(h))))
	h.now = h.now.Add(chatWindow + time.Second)
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	if mv := h.m.Phase(); mv.Turn != 2 || mv.Phase != "talk" {
		t.Fatalf("phase %+v: the holder's window had passed, want turn 2 talk", mv)
	}
	if cs := h.m.Commitments(); !sealedTarget(cs) {
		t.Fatalf("sealed %+v", cs)
	}

	h = chatSetup(t)
	h.mustNoDrop(1, `{}`)
	h.mustNoDrop(2, commitBody(`{"ref":"w","payee":1,"amount":10000000,"condition":{"always":true},"due":2}`,
		`{"ref":"x","payee":3,"amount":10000000,"condition":{"always":true},"due":2}`))
	if _, err := h.act(2, "veto", `{"ref":"x"}`); err != nil {
		t.Fatal(err)
	}
	if mv := h.m.Phase(); mv.Phase != "commit" {
		t.Fatalf("phase %+v before seat 3 answered", mv)
	}
	h.mustNoDrop(3, `{}`)
	if mv := h.m.Phase(); mv.Turn != 2 || mv.Phase != "talk" {
		t.Fatalf("phase %+v: no seat can still veto, want turn 2 talk", mv)
	}
	if cs := h.m.Commitments(); len(cs) != 1 || cs[0].Ref != "w" {
		t.Fatalf("sealed %+v", cs)
	}
}

// A snapshot taken while the phase is held restores to the same deadline and the same close.
func TestChatVetoWindowRestore(t *testing.T) {
	h := chatSetup(t)
	h.mustNoDrop(1, commitBody(first(vetoTarget(h))))
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	snap, err := h.m.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	rm, err := NewEngine(DefaultFees()).Restore(snap, h.keys)
	if err != nil {
		t.Fatal(err)
	}
	r := rm.(*Match)
	d1, _ := h.m.Deadline()
	d2, _ := r.Deadline()
	if !d1.Equal(d2) || r.Phase() != h.m.Phase() {
		t.Fatalf("restored deadline %v phase %+v, want %v %+v", d2, r.Phase(), d1, h.m.Phase())
	}
	a, b := h.m.Advance(d1), r.Advance(d2)
	ha, _ := TranscriptHash(mustEvents(h.m.Events()))
	hb, _ := TranscriptHash(mustEvents(r.Events()))
	if len(a.Events) == 0 || len(a.Events) != len(b.Events) || ha != hb || r.Phase().Turn != 2 {
		t.Fatalf("restored match closes differently: %d vs %d events", len(a.Events), len(b.Events))
	}
}

// The window never runs past the commit phase's scheduled end: a holder answering 10 s before
// the end holds the phase to the end, not 36 s on.
func TestChatVetoWindowCappedAtPhaseEnd(t *testing.T) {
	h := chatSetup(t)
	end, _ := h.m.Deadline()
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	h.now = end.Add(-10 * time.Second)
	h.mustNoDrop(1, commitBody(first(vetoTarget(h))))
	if d, _ := h.m.Deadline(); !d.Equal(end) || h.m.Phase().Phase != "commit" {
		t.Fatalf("deadline %v phase %+v, want held to the phase end %v", d, h.m.Phase(), end)
	}
	h.next()
	if !h.now.Equal(end) || h.m.Phase().Turn != 2 {
		t.Fatalf("closed at %v into %+v, want %v into turn 2", h.now, h.m.Phase(), end)
	}
}

func first(body, _ string) string { return body }

// A walk-in is its own human: on the chat clock its commit answer closes the phase like any
// other seat's, holding no veto window (§4.5: a round is as slow as its slowest player and no
// slower), and with only walk-in humans at a chat table the veto task is never drawn (§9).
func TestChatWalkinHoldsNoVetoWindow(t *testing.T) {
	s := testSetup("short", 3, `{"mole":3}`)
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Human = true })
	s.Pace = games.Pace{Name: "chat", CloseEarly: true, Steps: map[string]time.Duration{"scouting": 3 * time.Minute, "talk": 3 * time.Minute, "commit": 3 * time.Minute, "settle": time.Second}}
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"v","payee":3,"amount":10000000,"condition":{"always":true},"due":2}`))
	h.mustNoDrop(2, `{}`)
	h.mustNoDrop(3, `{}`)
	if mv := h.m.Phase(); mv.Turn != 2 || mv.Phase != "talk" {
		t.Fatalf("phase %+v after every seat answered: a walk-in holds no window, want turn 2 talk", mv)
	}
	for seed := 0; seed < 200; seed++ {
		s.Seed = [32]byte{byte(seed), byte(seed >> 8), 7}
		m, err := NewEngine(DefaultFees()).New(s, h.keys)
		if err != nil {
			t.Fatal(err)
		}
		if k := m.(*Match).Task().Kind; k == "veto" {
			t.Fatalf("seed %d drew veto at a chat table whose only human is a walk-in", seed)
		}
	}
}
