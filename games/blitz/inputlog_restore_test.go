package blitz_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/blitz"
)

// A match restored from its table's input log (games.ReplayLog of the LogHead and the Logged
// entries, as boot recovery does) at any point plays on exactly as the original, which let its
// inputs go at every step (DropInputs): the same events (step by step, byte for byte), the same
// prompts' states, the same result. Snapshot is refused once the inputs are the table's.
func TestInputLogRestoreMatchesOriginal(t *testing.T) {
	f := newBenchFixture(t)
	eng := blitz.NewEngine(blitz.DefaultFees())
	gm, err := eng.New(f.setup, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*blitz.Match)
	head, err := json.Marshal(games.LogHead{V: 1, Setup: f.setup})
	if err != nil {
		t.Fatal(err)
	}
	var entries [][]byte
	logged := func(l games.Logged) {
		t.Helper()
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, b)
	}
	// steps runs the rest of the round on match x, returning every step's events as JSON; log
	// keeps the input log and has x drop its inputs after each step, as a table does.
	steps := func(x *blitz.Match, log bool, stopAfter int) []byte {
		var out []byte
		n := 0
		for {
			dl, ok := x.Deadline()
			if !ok {
				return out
			}
			st := x.Advance(dl)
			if log {
				logged(games.Logged{Op: games.OpAdvance, At: dl})
			}
			n++
			out = appendStep(t, out, st)
			if n == stopAfter { // a phase just opened, its prompts unanswered
				if log {
					x.DropInputs()
				}
				return out
			}
			cur := x.Phase()
			for _, p := range x.Prompts() {
				body := f.body(cur, p.Seat)
				if body == nil {
					continue
				}
				in := games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body}
				st, err := x.Act(dl, in)
				if err != nil {
					t.Fatal(err)
				}
				if log {
					logged(games.Logged{Op: games.OpAct, At: dl, Input: in})
				}
				out = appendStep(t, out, st)
			}
			if log {
				x.DropInputs()
			}
		}
	}
	steps(m, true, 9) // into turn 2, a phase open
	if _, err := m.Snapshot(); err == nil {
		t.Fatal("Snapshot of a match whose inputs are the table's: want an error")
	}
	rm, err := games.ReplayLog(eng, head, entries, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	r := rm.(*blitz.Match)
	if len(m.Prompts()) == 0 || len(m.Prompts()) != len(r.Prompts()) {
		t.Fatalf("open prompts: %d, restored %d", len(m.Prompts()), len(r.Prompts()))
	}
	for i, p := range m.Prompts() {
		if !p.State.Equal(r.Prompts()[i].State) {
			t.Fatalf("seat %d: the restored match's state differs", p.Seat)
		}
	}
	a, b := steps(m, true, -1), steps(r, false, -1)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("the rest of the round differs after ReplayLog (%d vs %d bytes of events)", len(a), len(b))
	}
	ra, okA := m.Result()
	rb, okB := r.Result()
	if !okA || !okB || ra.TranscriptHash != rb.TranscriptHash || ra.TranscriptHash == "" {
		t.Fatalf("results: %v %q, restored %v %q", okA, ra.TranscriptHash, okB, rb.TranscriptHash)
	}
	// The whole log restores the finished round.
	full, err := games.ReplayLog(eng, head, entries, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	if rf, ok := full.Result(); !ok || rf.TranscriptHash != ra.TranscriptHash {
		t.Fatalf("the full input log restores %v %q, want %q", ok, rf.TranscriptHash, ra.TranscriptHash)
	}
	if _, err := games.ReplayLog(eng, []byte(`{"v":2}`), nil, f.keys); err == nil {
		t.Fatal("a head of another version restored")
	}
	if _, err := games.ReplayLog(eng, head, [][]byte{[]byte(`{"op":"jump"}`)}, f.keys); err == nil {
		t.Fatal("an unknown log op restored")
	}
}

func appendStep(t *testing.T, out []byte, st games.Step) []byte {
	t.Helper()
	b, err := json.Marshal(st.Events)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, b...)
}
