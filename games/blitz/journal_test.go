package blitz_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/blitz"
)

// A journaled match (games.Journaler) restored from its head and the entries it handed out at
// any point plays on exactly as the original: the same events (step by step, byte for byte), the
// same prompts' states, the same result. Journal hands each input out once, and Snapshot is
// refused once the inputs are in a journal.
func TestJournalRestoreMatchesOriginal(t *testing.T) {
	f := newBenchFixture(t)
	eng := blitz.NewEngine(blitz.DefaultFees())
	gm, err := eng.New(f.setup, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*blitz.Match)
	var head []byte
	var entries [][]byte
	take := func(m *blitz.Match) {
		t.Helper()
		h, es, err := m.Journal()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case head == nil && h == nil:
			t.Fatal("the first Journal gave no head")
		case head != nil && h != nil:
			t.Fatal("Journal gave the head twice")
		case h != nil:
			head = h
		}
		entries = append(entries, es...)
	}
	// steps runs the rest of the round on match x, returning every step's events as JSON.
	steps := func(x *blitz.Match, journal bool, stopAfter int) []byte {
		var out []byte
		n := 0
		for {
			dl, ok := x.Deadline()
			if !ok {
				return out
			}
			st := x.Advance(dl)
			n++
			out = appendStep(t, out, st)
			if n == stopAfter { // a phase just opened, its prompts unanswered
				if journal {
					take(x)
				}
				return out
			}
			cur := x.Phase()
			for _, p := range x.Prompts() {
				body := f.body(cur, p.Seat)
				if body == nil {
					continue
				}
				st, err := x.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body})
				if err != nil {
					t.Fatal(err)
				}
				out = appendStep(t, out, st)
			}
			if journal {
				take(x)
			}
		}
	}
	steps(m, true, 9) // into turn 2, a phase open
	if _, err := m.Snapshot(); err == nil {
		t.Fatal("Snapshot of a journaled match: want an error")
	}
	if _, es, _ := m.Journal(); len(es) != 0 {
		t.Fatalf("Journal handed out %d entries twice", len(es))
	}
	rm, err := eng.RestoreJournal(head, entries, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	r := rm.(*blitz.Match)
	if h, es, _ := r.Journal(); len(es) != 0 || h != nil {
		t.Fatalf("a restored match handed out %d replayed entries (head %v) again", len(es), h != nil)
	}
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
		t.Fatalf("the rest of the round differs after RestoreJournal (%d vs %d bytes of events)", len(a), len(b))
	}
	ra, okA := m.Result()
	rb, okB := r.Result()
	if !okA || !okB || ra.TranscriptHash != rb.TranscriptHash || ra.TranscriptHash == "" {
		t.Fatalf("results: %v %q, restored %v %q", okA, ra.TranscriptHash, okB, rb.TranscriptHash)
	}
	// The whole journal restores the finished round.
	full, err := eng.RestoreJournal(head, entries, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	if rf, ok := full.Result(); !ok || rf.TranscriptHash != ra.TranscriptHash {
		t.Fatalf("the full journal restores %v %q, want %q", ok, rf.TranscriptHash, ra.TranscriptHash)
	}
	if _, err := eng.RestoreJournal([]byte(`{"v":2}`), nil, f.keys); err == nil {
		t.Fatal("a head of another version restored")
	}
	if _, err := eng.RestoreJournal(head, [][]byte{[]byte(`{"op":"jump"}`)}, f.keys); err == nil {
		t.Fatal("an unknown journal op restored")
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
