package blitz

import (
	"bytes"
	"testing"

	"arena/games"
)

// briefPrompts plays the first phases of a hostile-twins round, compacting after every step,
// and hands every open prompt (its state packed once the log has grown) to check.
func briefPrompts(t *testing.T, check func(p games.Prompt)) int {
	t.Helper()
	a, _, _ := hostileTwins(t, 1)
	n := 0
	for i := 0; i < 60; i++ {
		dl, ok := a.Deadline()
		if !ok {
			break
		}
		a.Advance(dl)
		a.Compact(testPacker)
		for _, p := range a.Prompts() {
			n++
			check(p)
		}
	}
	return n
}

// TestBriefAndHouseReadPackedState: the brief (format=brief) and the house policy read the same
// figures from a prompt whose public log is packed (decodeState walks its segments and stops
// before the log) as from the same state flattened into one segment (decodeState's other path),
// and the house policy answers the same with the prompt's View as without it.
func TestBriefAndHouseReadPackedState(t *testing.T) {
	e := NewEngine(DefaultFees())
	packed := 0
	n := briefPrompts(t, func(p games.Prompt) {
		if p.State.Packed() {
			packed++
		}
		flat := p
		flat.View = nil
		flat.State = games.RawDoc(bytes.Clone(p.State.Bytes()))
		noView := p
		noView.View = nil
		b1, a1 := e.Brief(p)
		b2, a2 := e.Brief(flat)
		if b1 != b2 || !bytes.Equal(a1, a2) || b1 == "" {
			t.Fatalf("seat %d %+v: brief of the packed state\n%s\n%s\nof the flat one\n%s\n%s", p.Seat, p.Move, b1, a1, b2, a2)
		}
		for _, seed := range []uint64{1, 7, 1 << 40} {
			h1, h2, h3 := e.HouseAnswer(p, seed), e.HouseAnswer(noView, seed), e.HouseAnswer(flat, seed)
			if !bytes.Equal(h1, h2) || !bytes.Equal(h1, h3) {
				t.Fatalf("seat %d %+v: house answers differ: view %s, packed state %s, flat state %s", p.Seat, p.Move, h1, h2, h3)
			}
		}
	})
	if n < 60 || packed == 0 {
		t.Fatalf("%d prompts, %d packed: too few", n, packed)
	}
}
