package blitz

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"time"

	"arena/games"
)

// testPacker packs for the tests as a table actor's side does: one games.Deflater lent to one
// caller at a time, behind a lock.
var testPacker = &lockedPacker{}

type lockedPacker struct {
	mu sync.Mutex
	z  games.Deflater
}

func (p *lockedPacker) Pack(d *games.PackDict, run *games.Packed, raw ...[]byte) *games.Packed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.z.Pack(d, run, raw...)
}

// twinRounds plays one house round twice in lockstep, compacting one of the twins after every
// step as the table actor does (Compact) and never the other, and hands every pair of steps (and
// the matches) to check.
func twinRounds(t *testing.T, seed string, names []string, check func(packed, plain *Match, a, b games.Step)) {
	t.Helper()
	mk := func() *harness {
		s := testSetup("blitz", 6, `{}`)
		for i := range s.Seats {
			seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Kind, o.Collateral = "house", 120*ccd }) // as a Practice table's house seats
			if i < len(names) {
				s.Seats[i].Name = names[i]
			}
		}
		copy(s.Seed[:], seed)
		s.Pace = games.Pace{Name: "agent", Steps: map[string]time.Duration{"scouting": 2 * time.Second, "talk": 2 * time.Second, "commit": 2 * time.Second, "settle": 2 * time.Second}}
		return newHarness(t, s)
	}
	a, b := mk(), mk()
	e := NewEngine(DefaultFees())
	for i := 0; i < 200; i++ {
		if _, ok := a.m.Deadline(); !ok {
			break
		}
		sa, sb := a.next(), b.next() // next checks each state against encoding/json (CheckStates)
		a.m.Compact(testPacker)
		check(a.m, b.m, sa, sb)
		for _, p := range sa.Prompts {
			body := e.HouseAnswer(p, uint64(i*7+p.Seat))
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}
			xa, erra := a.m.Act(a.now, in)
			xb, errb := b.m.Act(b.now, in)
			if (erra == nil) != (errb == nil) {
				t.Fatalf("step %d seat %d: packed twin %v, plain twin %v", i, p.Seat, erra, errb)
			}
			a.m.Compact(testPacker)
			check(a.m, b.m, xa, xb)
		}
	}
	if _, ok := a.m.Result(); !ok {
		t.Fatal("the round did not finish")
	}
}

// stepBytes is every byte a step hands out: events, prompts (state, inbox), anchors, reply.
func stepBytes(s games.Step) []byte {
	var b []byte
	for _, ev := range s.Events {
		b = fmt.Appendf(b, "%d %s %s %s|", ev.Seq, ev.Type, ev.Visibility, ev.Payload)
	}
	for _, p := range s.Prompts {
		b = fmt.Appendf(b, "%d %+v %v %v|", p.Seat, p.Move, p.Deadline, p.Legal)
		b = p.State.AppendTo(b)
		for _, m := range p.Inbox {
			b = append(append(b, '|'), m...)
		}
	}
	for _, a := range s.Anchors {
		b = fmt.Appendf(b, "%+v|", a)
	}
	return append(b, s.Reply...)
}

// TestCompactChangesNoByte: a round whose match is compacted after every step (public log
// packed, agents' terms rewritten each phase, answered prompts dropped) hands out exactly the
// bytes of the same round never compacted: every step's events, states and inboxes, the open
// prompts, the public log, the result. Its states really are packed, commitments were sealed
// (so agents[].commitments is written), and its log packs to a fraction of its size.
func TestCompactChangesNoByte(t *testing.T) {
	packedStates := 0
	var last *Match
	// names not in the packing dictionary (a Practice table's roster)
	twinRounds(t, "compact twin round", []string{"Ada", "Basil", "Cleo", "Dara", "Emil", "Faye"},
		func(packed, plain *Match, a, b games.Step) {
			last = packed
			if !bytes.Equal(stepBytes(a), stepBytes(b)) {
				t.Fatalf("a compacted match's step differs:\n%.300s\n%.300s", stepBytes(a), stepBytes(b))
			}
			for _, p := range a.Prompts {
				if p.State.Packed() {
					packedStates++
				}
			}
			pa, pb := packed.Prompts(), plain.Prompts()
			if len(pa) != len(pb) {
				t.Fatalf("open prompts: %d compacted, %d plain", len(pa), len(pb))
			}
			for i := range pa {
				if !pa[i].State.Equal(pb[i].State) {
					t.Fatalf("open prompt of seat %d differs", pa[i].Seat)
				}
			}
			if !bytes.Equal(packed.pubLog.bytes(), plain.pubLog.bytes()) {
				t.Fatal("public logs differ")
			}
		})
	if packedStates == 0 || len(last.sealed) == 0 {
		t.Fatalf("no state handed out had a packed log (%d), or no commitment was sealed (%d): the terms went untested",
			packedStates, len(last.sealed))
	}
	if n, k := last.pubLog.packed.Len(), last.pubLog.packed.PackedLen(); n < 20<<10 || k > n/4 {
		t.Fatalf("a round's public log packed %d bytes into %d", n, k)
	}
}

// TestCompactDropsAnsweredPrompts: once a seat has answered, its prompt's state and view are
// let go; an open prompt keeps exactly the state handed out.
func TestCompactDropsAnsweredPrompts(t *testing.T) {
	s := testSetup("blitz", 6, `{}`)
	h := newHarness(t, s)
	h.to(1, "talk", 1)
	first := h.m.Prompts()
	if len(first) != 6 {
		t.Fatalf("%d open prompts", len(first))
	}
	h.answer(2, `{"messages":[{"type":"public","text":"hello table"}]}`)
	h.m.Compact(testPacker)
	for _, p := range h.m.current {
		answered := p.Seat == 2
		if answered != (p.State.IsZero() && p.View == nil && p.Inbox == nil) {
			t.Fatalf("seat %d (answered %v): state %d bytes, view %v, inbox %v", p.Seat, answered, p.State.Len(), p.View != nil, p.Inbox)
		}
	}
	open := h.m.Prompts()
	if len(open) != 5 {
		t.Fatalf("%d open prompts after one answer", len(open))
	}
	for _, p := range open {
		if !p.State.Equal(first[p.Seat-1].State) || p.View == nil {
			t.Fatalf("seat %d's open prompt changed", p.Seat)
		}
	}
}

// TestCompactConcurrentReaders (go test -race): states handed out are flattened on other
// goroutines (a walk-in's mailbox, an A2A call) while the match goes on and packs its log; each
// reads what it read when it was handed out.
func TestCompactConcurrentReaders(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	twinRounds(t, "concurrent readers", nil, func(packed, plain *Match, a, b games.Step) {
		for i := range a.Prompts {
			want := b.Prompts[i].State.Bytes()
			doc := a.Prompts[i].State
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < 3; k++ {
					if got := doc.Bytes(); !bytes.Equal(got, want) {
						errs <- fmt.Errorf("a state read on another goroutine differs (%d bytes, want %d)", len(got), len(want))
						return
					}
				}
			}()
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
