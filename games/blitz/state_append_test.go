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

// appendEverywhere appends junk to every slice a step hands out, as a careless consumer would
// (a JSON writer appending to a payload, a mailbox adding to a prompt's legal list): event
// payloads, each segment of a state (Segments) and its flat form (Bytes), inbox entries, legal
// lists and the reply. Every one of them must be capped at its length (or owned), so no append
// reaches a neighbour's bytes: another seat's state, the next event, the shared tail of a phase,
// the terms block of the agents, the legal block of the phase.
func appendEverywhere(s games.Step) {
	junk := []byte(`"]}XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX`)
	for _, ev := range s.Events {
		_ = append(ev.Payload, junk...)
	}
	for _, p := range s.Prompts {
		for seg := range p.State.Segments() {
			_ = append(seg, junk...)
		}
		_ = append(p.State.Bytes(), junk...)
		for _, m := range p.Inbox {
			_ = append(m, junk...)
		}
		_ = append(p.Legal, games.Actions("junk", "junk", "junk", "junk", "junk", "junk", "junk", "junk")...)
	}
	_ = append(s.Reply, junk...)
}

// TestStepsAppendedTo: two twins of one round fed the same partly hostile inputs
// (hostileInput); the first is compacted after every step (packing its log, dropping and
// rewriting its terms buffers, reusing its agents array when unchanged) and has junk appended to
// everything it hands out (appendEverywhere), the second is left alone. The twins must hand out
// the same bytes at every step, and every step of the first must read at the end of the round
// as it did when it was handed out.
func TestStepsAppendedTo(t *testing.T) {
	for seed := uint64(1); seed <= 1; seed++ { // one round: ~4 s under -race
		r := rand.New(rand.NewPCG(seed, 66))
		a, b, keys := hostileTwins(t, seed+600)
		seqs := map[int]*int{}
		for i := 1; i <= 6; i++ {
			seqs[i] = new(int)
		}
		type kept struct {
			step games.Step
			want []byte
		}
		var keep []kept
		steps, packed := 0, 0
		take := func(what string, sa, sb games.Step) {
			t.Helper()
			steps++
			ba, bb := stepBytes(sa), stepBytes(sb)
			if !bytes.Equal(ba, bb) {
				t.Fatalf("seed %d %s: the appended-to twin hands out other bytes:\n%.400s\n%.400s", seed, what, ba, bb)
			}
			for _, p := range sa.Prompts {
				if p.State.Packed() {
					packed++
				}
				if !json.Valid(p.State.Bytes()) {
					t.Fatalf("seed %d %s: seat %d's state is not JSON", seed, what, p.Seat)
				}
			}
			keep = append(keep, kept{sa, ba})
			appendEverywhere(sa)
			a.Compact(testPacker)
		}
		for i := 0; i < 2000; i++ {
			dl, ok := a.Deadline()
			if !ok {
				break
			}
			take(fmt.Sprintf("advance %d", i), a.Advance(dl), b.Advance(dl))
			mv := a.Phase()
			for _, p := range a.Prompts() {
				in := hostileInput(r, keys, seqs, mv, p.Seat)
				at := dl.Add(time.Duration(1+r.IntN(900)) * time.Millisecond)
				sa, ea := a.Act(at, in)
				sb, eb := b.Act(at, in)
				if fmt.Sprint(ea) != fmt.Sprint(eb) {
					t.Fatalf("seed %d: twins refuse differently: %v / %v", seed, ea, eb)
				}
				if ea == nil {
					take(fmt.Sprintf("act %d seat %d", i, in.Seat), sa, sb)
				}
			}
			// the open prompts, redelivered (a restart): appended to as well
			pa, pb := a.Prompts(), b.Prompts()
			take(fmt.Sprintf("prompts %d", i), games.Step{Prompts: pa}, games.Step{Prompts: pb})
		}
		if _, ok := a.Result(); !ok {
			t.Fatalf("seed %d: round not revealed", seed)
		}
		for k, kp := range keep {
			if got := stepBytes(kp.step); !bytes.Equal(got, kp.want) {
				t.Fatalf("seed %d: step %d changed after junk was appended to what the round handed out:\n got  %.300s\n want %.300s",
					seed, k, got, kp.want)
			}
		}
		if packed == 0 || steps < 100 {
			t.Fatalf("seed %d: %d steps, %d packed states: the round tested too little", seed, steps, packed)
		}
	}
}
