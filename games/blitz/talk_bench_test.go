package blitz_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
	"arena/games/blitz"
)

// BenchmarkTalkRound is BenchmarkRound's round without its commitments: the same six seats
// send the same 8 public and 8 private lines in every exchange of the five turns, and pass
// every commit phase. What it measures is the talk path alone (reading the lines, their
// events, the two running hashes, the public log, the inboxes, the envelopes' states), with
// no signature to check, so a change there shows without the noise of the ed25519 checks.
func BenchmarkTalkRound(b *testing.B) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		f.playTalk(b)
	}
	reportCPU(b, start)
}

// TestTalkRoundShape checks BenchmarkTalkRound's round is what it claims: every line taken,
// 1440 messages, no commitment.
func TestTalkRoundShape(t *testing.T) {
	f := newBenchFixture(t)
	m := f.playTalk(t)
	if n := len(m.Commitments()); n != 0 {
		t.Fatalf("%d commitments, want none", n)
	}
	msgs := 0
	for _, e := range mustEvents(m.Events()) {
		if e.Type == "message.public" || e.Type == "message.private" {
			msgs++
		}
	}
	if want := benchSeats * 15 * 2 * benchMessages; msgs != want {
		t.Errorf("%d messages, want %d", msgs, want)
	}
}

// playTalk plays the benchmark round answering only its talk moves, each taken whole.
func (f *benchFixture) playTalk(tb testing.TB) *blitz.Match {
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(f.setup, f.keys)
	if err != nil {
		tb.Fatal(err)
	}
	m := gm.(*blitz.Match)
	for {
		dl, ok := m.Deadline()
		if !ok {
			return m
		}
		m.Advance(dl)
		cur := m.Phase()
		if cur.Phase != "talk" {
			continue
		}
		for _, p := range m.Prompts() {
			st, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: f.talk[p.Seat]})
			if err != nil {
				tb.Fatalf("seat %d %+v: %v", p.Seat, cur, err)
			}
			if !strings.Contains(string(st.Reply), `"dropped":[]`) {
				tb.Fatalf("seat %d %+v: parts dropped: %s", p.Seat, cur, st.Reply)
			}
		}
	}
}

// TestStepBytesStay checks that what a step hands out is never written again by the match: a
// public event's payload lives in the public log's chunks and an inbox item in a buffer the
// next lines follow in, so each step's events and prompts are written out as JSON when handed
// out and again once the whole round is played, and the two must be equal; the events must
// also be those the replay (Events) gives.
func TestStepBytesStay(t *testing.T) {
	f := newBenchFixture(t)
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(f.setup, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*blitz.Match)
	var steps []games.Step
	var then [][]byte
	keep := func(st games.Step) {
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		steps, then = append(steps, st), append(then, b)
	}
	for {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		keep(m.Advance(dl))
		cur := m.Phase()
		for _, p := range m.Prompts() {
			if body := f.body(cur, p.Seat); body != nil {
				st, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body})
				if err != nil {
					t.Fatal(err)
				}
				keep(st)
			}
		}
	}
	var all []games.Event
	for i, st := range steps {
		now, _ := json.Marshal(st)
		if !bytes.Equal(now, then[i]) {
			t.Fatalf("step %d changed after it was handed out", i)
		}
		all = append(all, st.Events...)
	}
	replay := mustEvents(m.Events())
	a, _ := json.Marshal(all)
	b, _ := json.Marshal(replay)
	if len(all) < 2000 || !bytes.Equal(a, b) {
		t.Fatalf("%d events handed out, replay %d: differ", len(all), len(replay))
	}
}
