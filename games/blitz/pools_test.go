package blitz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// TestConcurrentRoundsSharePools: four matches of the same round, fed the same partly
// hostile inputs (hostileInput, one generator each from the same seed), each played on its own
// goroutine at once. They share whatever the package holds at its top level (the public log's
// dictionary, the vocabularies, the always condition): under go test -race any shared write
// shows, and each round's every step and its whole transcript must be byte for byte the others'.
func TestConcurrentRoundsSharePools(t *testing.T) {
	const n = 4
	var ms []*Match
	var ks []*testKeys
	for i := 0; i < n/2; i++ {
		a, b, keys := hostileTwins(t, 606)
		ms, ks = append(ms, a, b), append(ks, keys, keys)
	}
	out := make([][]byte, n)
	transcripts := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, keys := ms[g], ks[g]
			r := rand.New(rand.NewPCG(606, 6))
			seqs := map[int]*int{}
			for i := 1; i <= 6; i++ {
				seqs[i] = new(int)
			}
			var all []byte
			for i := 0; i < 2000; i++ {
				dl, ok := m.Deadline()
				if !ok {
					break
				}
				all = append(all, stepBytes(m.Advance(dl))...)
				mv := m.Phase()
				for _, p := range m.Prompts() {
					for k := 0; k < 1+r.IntN(2); k++ {
						in := hostileInput(r, keys, seqs, mv, p.Seat)
						st, err := m.Act(dl.Add(time.Duration(1+r.IntN(900))*time.Millisecond), in)
						all = fmt.Appendf(all, "%v|", err)
						all = append(all, stepBytes(st)...)
					}
				}
			}
			if _, ok := m.Result(); !ok {
				errs[g] = fmt.Errorf("goroutine %d: round not revealed", g)
				return
			}
			evs, err := m.Events()
			if err != nil {
				errs[g] = err
				return
			}
			transcripts[g], _ = json.Marshal(evs)
			out[g] = all
		}()
	}
	wg.Wait()
	for g := 0; g < n; g++ {
		if errs[g] != nil {
			t.Fatal(errs[g])
		}
		if !bytes.Equal(out[g], out[0]) {
			i := 0
			for i < len(out[g]) && i < len(out[0]) && out[g][i] == out[0][i] {
				i++
			}
			t.Fatalf("round %d handed out other bytes than round 0 from byte %d:\n%.300s\n%.300s", g, i, out[g][i:], out[0][i:])
		}
		if !bytes.Equal(transcripts[g], transcripts[0]) {
			t.Fatalf("round %d's transcript differs from round 0's", g)
		}
	}
	if len(out[0]) < 100000 {
		t.Fatalf("%d bytes handed out: the round tested too little", len(out[0]))
	}
}
