package blitz

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// runningHash gives SHA-256 of "[" e1 "," e2 ... "]" whatever the events' sizes (up to several
// batches) and wherever flush and sum are called.
func TestRunningHashBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for round := 0; round < 200; round++ {
		h := newRunningHash()
		var all [][]byte
		check := func() {
			want := sha256.Sum256(append(append([]byte{'['}, bytes.Join(all, []byte{','})...), ']'))
			if got := h.sum(); got != want {
				t.Fatalf("round %d after %d events: hash differs", round, len(all))
			}
		}
		check()
		for i, n := 0, r.IntN(60); i < n; i++ {
			size := r.IntN(400)
			switch r.IntN(20) {
			case 0:
				size = hashBatch + r.IntN(3*hashBatch)
			case 1:
				size = hashBatch + 511 - r.IntN(3) // around the batch's own size
			}
			ev := make([]byte, size)
			for j := range ev {
				ev[j] = byte('a' + r.IntN(26))
			}
			h.add(ev)
			all = append(all, ev)
			if r.IntN(4) == 0 {
				check()
			}
			if r.IntN(6) == 0 {
				h.flush()
				if h.pending != nil {
					t.Fatal("flush kept its batch")
				}
			}
		}
		check()
		h.flush()
		check()
	}
}
