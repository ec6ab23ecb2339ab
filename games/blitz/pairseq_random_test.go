package blitz

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Many pairs at once, crossed every way among four seats: the seal always ends, decides every
// submission exactly once (sealed or refused), seals each pair with its partner or neither, and
// keeps each seat's sealed commitments in its submission (seq) order.
func TestSealManyPairsKeepsEverySeatsOrder(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
		h.to(1, "commit", 0)
		subs := map[int][]string{}
		pairOf := map[string]string{} // ref -> nonce
		for p := 0; p < 1+r.IntN(4); p++ {
			a := 1 + r.IntN(4)
			b := 1 + (a+r.IntN(3))%4
			nonce := fmt.Sprintf("deal:%08x", p+1)
			for _, s := range [][2]int{{a, b}, {b, a}} {
				if len(subs[s[0]]) < 4 {
					ref := fmt.Sprintf("p%d_%d", p, s[0])
					pairOf[ref] = nonce
					c := fmt.Sprintf(`{"ref":%q,"payee":%d,"amount":%d,"condition":{"always":true},"due":2,"pair":%q}`, ref, s[1], int64(1+r.IntN(5))*ccd, nonce)
					at := r.IntN(len(subs[s[0]]) + 1)
					subs[s[0]] = append(subs[s[0]][:at], append([]string{c}, subs[s[0]][at:]...)...)
				}
			}
		}
		for s := 1; s <= 4; s++ {
			for len(subs[s]) < 4 && r.IntN(2) == 0 {
				subs[s] = append(subs[s], fmt.Sprintf(`{"ref":"s%d_%d","payee":5,"amount":1000000,"condition":{"always":true},"due":2}`, s, len(subs[s])))
			}
		}
		submitted := 0
		for _, s := range r.Perm(4) {
			if len(subs[s+1]) > 0 {
				h.mustNoDrop(s+1, commitBody(subs[s+1]...))
				submitted += len(subs[s+1])
			}
		}
		h.next()
		sealed := h.m.Commitments()
		if got := len(sealed) + len(h.m.Rejections()); got != submitted {
			t.Fatalf("seed %d: %d sealed + %d refused, want %d decided", seed, len(sealed), len(h.m.Rejections()), submitted)
		}
		last := map[int]int64{}
		nonces := map[string]int{}
		for _, c := range sealed {
			if c.Seq <= last[c.Payer] {
				t.Fatalf("seed %d: seat %d's %s (seq %d) sealed after its seq %d", seed, c.Payer, c.Ref, c.Seq, last[c.Payer])
			}
			last[c.Payer] = c.Seq
			if n := pairOf[c.Ref]; n != "" {
				nonces[n]++
			}
		}
		for n, k := range nonces {
			if k != 2 {
				t.Fatalf("seed %d: pair %s sealed %d of its members", seed, n, k)
			}
		}
	}
}
