package blitz_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/blitz"
	"arena/games/canon"
)

// TestStatePublicLog plays the benchmark's round (its public log grows past 400 kB, across
// many of the engine's log chunks) and checks every envelope's state: valid JSON, and its
// public_log member, the last, is byte for byte canon.Marshal of the public events emitted
// so far, computed here independently of the engine's own event writer; the rest of each
// state equals the encoding/json reference (CheckStates).
func TestStatePublicLog(t *testing.T) {
	f := newBenchFixture(t)
	gm, err := blitz.NewEngine(blitz.DefaultFees()).New(f.setup, f.keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*blitz.Match)
	var want []byte // the public events' JCS so far, comma-joined
	seen := 0
	envelopes := 0
	var issued []games.Doc // every state as issued, and its bytes then
	var flat [][]byte
	check := func(prompts []games.Prompt) {
		for _, e := range mustEvents(m.Events())[seen:] {
			if e.Visibility != "public" {
				continue
			}
			c, err := canon.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) > 0 {
				want = append(want, ',')
			}
			want = append(want, c...)
		}
		seen = len(mustEvents(m.Events()))
		if err := blitz.CheckStates(m, prompts); err != nil {
			t.Fatal(err)
		}
		tail := append(append([]byte(`,"public_log":[`), want...), "]}"...)
		for _, p := range prompts {
			envelopes++
			got := p.State.Bytes()
			if !json.Valid(got) || p.State.Len() != len(got) {
				t.Fatalf("seat %d %+v: state is not valid JSON", p.Seat, p.Move)
			}
			issued = append(issued, p.State)
			flat = append(flat, bytes.Clone(got))
			if !bytes.HasPrefix(got, []byte(`{"me":{"seat":`)) || !bytes.HasSuffix(got, tail) {
				t.Fatalf("seat %d %+v: state does not end with the public log so far (%d bytes)", p.Seat, p.Move, len(want))
			}
		}
	}
	for {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		st := m.Advance(dl)
		check(st.Prompts)
		cur := m.Phase()
		for _, p := range m.Prompts() {
			body := f.body(cur, p.Seat)
			if body == nil {
				continue
			}
			if _, err := m.Act(dl, games.Input{Seat: p.Seat, Kind: "answer", Move: cur, Body: body}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if envelopes != 126 || len(want) < 400<<10 {
		t.Fatalf("%d envelopes, final log %d bytes: want 126 envelopes and a log past 400 kB", envelopes, len(want))
	}
	// The states share the log's chunks, which kept growing after each was issued: every state
	// still reads as it did when it was issued, not one byte of a later event in it.
	for i, d := range issued {
		if got := d.Bytes(); !bytes.Equal(got, flat[i]) {
			t.Fatalf("envelope %d: its state changed after it was issued (%d bytes, was %d)", i, len(got), len(flat[i]))
		}
	}
}
