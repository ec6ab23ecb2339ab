package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
)

// Hostile tests of what the match keeps from an answer: nothing a step hands out owes anything
// to the answer's body.

// scribbledTwins plays two matches of one round in lockstep from the same partly hostile inputs
// (hostileInput: talk and commit answers, signed and forged commitments, intents, calls,
// vetoes, accusations), each given its own copy of every body; the first twin's copy is
// overwritten as soon as Act returns, as a transport reusing its read buffer would. Every step
// must read the same in both twins when handed out and at the end of the round. It returns the
// twins, scribbled first.
func scribbledTwins(t *testing.T, seed uint64) (*Match, *Match) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 6))
	a, b, keys := hostileTwins(t, seed+60)
	seqs := map[int]*int{}
	for i := 1; i <= 6; i++ {
		seqs[i] = new(int)
	}
	type kept struct {
		step games.Step
		want []byte
	}
	var keep []kept
	acts, taken := 0, 0
	for i := 0; i < 2000; i++ {
		dl, ok := a.Deadline()
		if !ok {
			break
		}
		sa, sb := a.Advance(dl), b.Advance(dl)
		if !bytes.Equal(stepBytes(sa), stepBytes(sb)) {
			t.Fatalf("seed %d advance %d: the twins differ", seed, i)
		}
		keep = append(keep, kept{sa, stepBytes(sa)})
		mv := a.Phase()
		for _, p := range a.Prompts() {
			for k := 0; k < 1+r.IntN(2); k++ {
				in := hostileInput(r, keys, seqs, mv, p.Seat)
				at := dl.Add(time.Duration(1+r.IntN(900)) * time.Millisecond)
				ina, inb := in, in
				ina.Body, inb.Body = bytes.Clone(in.Body), bytes.Clone(in.Body)
				sa, ea := a.Act(at, ina)
				for j := range ina.Body {
					ina.Body[j] = "\"\\{x"[j%4]
				}
				sb, eb := b.Act(at, inb)
				acts++
				if fmt.Sprint(ea) != fmt.Sprint(eb) {
					t.Fatalf("seed %d act %d (%s %.80s): scribbled twin %v, plain twin %v", seed, acts, in.Kind, in.Body, ea, eb)
				}
				if ea != nil {
					continue
				}
				taken++
				ba, bb := stepBytes(sa), stepBytes(sb)
				if !bytes.Equal(ba, bb) {
					t.Fatalf("seed %d act %d (%s %.80s): the step differs once the body was overwritten:\n%.400s\n%.400s",
						seed, acts, in.Kind, in.Body, ba, bb)
				}
				keep = append(keep, kept{sa, bytes.Clone(bb)})
			}
		}
	}
	if _, ok := a.Result(); !ok {
		t.Fatalf("seed %d: round not revealed", seed)
	}
	for k, kp := range keep {
		if got := stepBytes(kp.step); !bytes.Equal(got, kp.want) {
			t.Fatalf("seed %d: step %d reads differently at the end of the round:\n got  %.300s\n want %.300s", seed, k, got, kp.want)
		}
	}
	if taken < 100 {
		t.Fatalf("seed %d: %d inputs taken of %d: too few to judge", seed, taken, acts)
	}
	return a, b
}

// TestAnswerBodyScribbled: no message text, commitment, condition, sig or id a step
// hands out is a view of the answer's body: the twin whose bodies were overwritten hands out the same bytes, then and at the end.
// This asks more than games.Match.Act promises (the match may keep in.Body; its
// input log does, for the snapshot, so the snapshot itself is not compared): what a step hands
// out goes to other goroutines and to storage, and owes nothing to the body.
func TestAnswerBodyScribbled(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		a, b := scribbledTwins(t, seed)
		x, _ := a.Result()
		y, _ := b.Result()
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if !bytes.Equal(jx, jy) {
			t.Fatalf("seed %d: the twins' results differ", seed)
		}
	}
}
