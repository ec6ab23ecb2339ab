package blitz

import (
	"bytes"
	"testing"

	"arena/games"
	"arena/games/canon"
)

// TestBriefReadsEnvelopeState: a prompt whose state is the envelope's (JCS: members sorted, so
// public_log is not the last member; what an agent or a walk-in holds, and what
// decodeState's comment says it reads: "a prompt decoded from JSON") is briefed as the same
// prompt straight from the match: decodeState must not cut the document at `,"public_log":[`,
// which would drop every member sorted after it (talking, task_category) and put the mole's task
// in the "" category.
func TestBriefReadsEnvelopeState(t *testing.T) {
	e := NewEngine(DefaultFees())
	differ := 0
	n := briefPrompts(t, func(p games.Prompt) {
		j, err := canon.Canonical(p.State.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		env := p
		env.View = nil
		env.State = games.RawDoc(j)
		b1, a1 := e.Brief(p)
		b2, a2 := e.Brief(env)
		if b1 != b2 || !bytes.Equal(a1, a2) {
			if differ == 0 {
				t.Errorf("seat %d %+v: brief from the match\n%s\nfrom the envelope's state\n%s", p.Seat, p.Move, b1, b2)
			}
			differ++
		}
	})
	if differ > 0 {
		t.Errorf("%d of %d prompts briefed differently from the envelope's state", differ, n)
	}
}
