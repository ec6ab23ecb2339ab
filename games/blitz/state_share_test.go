package blitz

import (
	"bytes"
	"slices"
	"testing"

	"arena/games"
)

// How a phase's states share memory (phaseTail, shared, buildPrompts): every seat's state of a
// phase is its own "me" followed by one tail, the same segments; the agents array's pieces are
// the last phase's own segments when their bytes did not change; and the prompts' legal kinds,
// carved from one block, are each capped so that an append to one never reaches another's.

// docSegments is d's walk, collected.
func docSegments(d games.Doc) [][]byte {
	var out [][]byte
	for p := range d.Segments() {
		out = append(out, p)
	}
	return out
}

// agentsPieces is the new-bytes pieces of a state's agents array: the segments after "me" up to
// the one that starts the rest of the shared members (`,"bounty":`), less the terms buffers.
func agentsPieces(t *testing.T, d games.Doc) [][]byte {
	t.Helper()
	var out [][]byte
	for i, p := range docSegments(d) {
		switch {
		case i == 0:
			if !bytes.HasPrefix(p, []byte(`{"me":`)) {
				t.Fatalf("first segment %.40q is not the seat's \"me\"", p)
			}
		case bytes.HasPrefix(p, []byte(`,"bounty":`)):
			return out
		case bytes.HasPrefix(p, []byte(`{"id":`)):
		default:
			out = append(out, p)
		}
	}
	t.Fatal("no bounty member in the state's segments")
	return nil
}

func TestPhaseStatesShareTail(t *testing.T) {
	var last games.Move
	var lastPieces [][]byte
	var phaseFirst games.Prompt
	phases, kept, written := 0, 0, 0
	playShared(t, 1, func(is issued) {
		p := is.p
		segs := docSegments(p.State)
		if p.Move != last || phaseFirst.State.IsZero() {
			// a new phase: its agents pieces are the last phase's memory when they are its bytes
			pieces := agentsPieces(t, p.State)
			if lastPieces != nil {
				equal := len(pieces) == len(lastPieces)
				for k := 0; equal && k < len(pieces); k++ {
					equal = bytes.Equal(pieces[k], lastPieces[k])
				}
				for k := 0; equal && k < len(pieces); k++ {
					if &pieces[k][0] != &lastPieces[k][0] {
						t.Fatalf("%+v: agents piece %d is the last phase's bytes in new memory", p.Move, k)
					}
				}
				if equal {
					kept++
				} else {
					written++
				}
			}
			phases++
			last, lastPieces, phaseFirst = p.Move, pieces, p
			return
		}
		// another seat of the same phase: its own "me", then the same segments, the same memory
		first := docSegments(phaseFirst.State)
		if len(segs) != len(first) {
			t.Fatalf("%+v: seat %d state has %d segments, seat %d's %d", p.Move, p.Seat, len(segs), phaseFirst.Seat, len(first))
		}
		if &segs[0][0] == &first[0][0] {
			t.Fatalf("%+v: seats %d and %d share their \"me\"", p.Move, p.Seat, phaseFirst.Seat)
		}
		for k := 1; k < len(segs); k++ {
			if &segs[k][0] != &first[k][0] || len(segs[k]) != len(first[k]) {
				t.Fatalf("%+v: segment %d of seat %d's state is not seat %d's", p.Move, k, p.Seat, phaseFirst.Seat)
			}
		}
	})
	// the round must see both: agents arrays kept and agents arrays changed
	if phases < 15 || kept == 0 || written == 0 {
		t.Fatalf("%d phases: agents pieces kept %d times, written %d", phases, kept, written)
	}
}

// An append to one prompt's Legal reallocates: it never writes into the next seat's kinds.
func TestPromptLegalCapped(t *testing.T) {
	checked := 0
	playShared(t, 2, func(is issued) {
		l := is.p.Legal
		if len(l) == 0 || cap(l) != len(l) {
			t.Fatalf("seat %d %+v: legal %q (cap %d)", is.p.Seat, is.p.Move, l, cap(l))
		}
		checked++
	})
	s := testSetup("blitz", 6, `{"mole":4,"task":{"kind":"broker","named":[]}}`)
	gm, err := NewEngine(DefaultFees()).New(s, newTestKeys(6))
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*Match)
	for {
		dl, ok := m.Deadline()
		if !ok {
			t.Fatal("no phase with prompts")
		}
		m.Advance(dl)
		ps := m.Prompts()
		if len(ps) < 2 {
			continue
		}
		want := games.Names(ps[1].Legal)
		_ = append(ps[0].Legal, games.Actions("X", "Y", "Z")...)
		if !slices.Equal(games.Names(ps[1].Legal), want) {
			t.Fatalf("an append to seat %d's legal changed seat %d's: %q, was %q", ps[0].Seat, ps[1].Seat, ps[1].Legal, want)
		}
		break
	}
	if checked < 100 {
		t.Fatalf("%d prompts checked", checked)
	}
}
