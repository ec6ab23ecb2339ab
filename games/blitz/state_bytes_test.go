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
	check := func(prompts []games.Prompt) {
		for _, e := range m.Events()[seen:] {
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
		seen = len(m.Events())
		if err := blitz.CheckStates(m, prompts); err != nil {
			t.Fatal(err)
		}
		tail := append(append([]byte(`,"public_log":[`), want...), "]}"...)
		for _, p := range prompts {
			envelopes++
			if !json.Valid(p.State) {
				t.Fatalf("seat %d %+v: state is not valid JSON", p.Seat, p.Move)
			}
			if !bytes.HasPrefix(p.State, []byte(`{"me":{"seat":`)) || !bytes.HasSuffix(p.State, tail) {
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
			var body json.RawMessage
			switch cur.Phase {
			case "talk":
				body = f.talk[p.Seat]
			case "commit":
				body = f.commit[p.Seat][cur.Turn]
			default:
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
}
