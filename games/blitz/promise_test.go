package blitz

import (
	"crypto/sha256"
	"strconv"
	"testing"

	"arena/games/canon"
)

// digestOf reads back the digest canon.IDOf wrote, for every byte value in every position.
func TestDigestOfReadsIDOf(t *testing.T) {
	for i := 0; i < 300; i++ {
		d := sha256.Sum256([]byte(strconv.Itoa(i)))
		if i < 256 {
			for k := range d {
				d[k] = byte(i + k)
			}
		}
		if got := digestOf(canon.IDOf(d)); got != d {
			t.Fatalf("digestOf(%s) = %x, want %x", canon.IDOf(d), got, d)
		}
	}
}

// Sealed always conditions share one copy in the ledger; Commitments hands out copies, so a
// caller writing into one Record's condition changes no other, nor the ledger.
func TestSharedAlwaysConditionCopiedOut(t *testing.T) {
	h := newHarness(t, byoSetup())
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(h.signed(1, base(1, 1, 1, 2, 10*ccd, 2)), h.signed(1, base(1, 2, 1, 3, 10*ccd, 2))))
	h.next()
	cs := h.m.Commitments()
	if len(cs) != 2 || string(cs[0].Condition) != `{"always":true}` || string(cs[1].Condition) != `{"always":true}` {
		t.Fatalf("sealed %+v", cs)
	}
	if &h.m.sealed[0].condRaw[0] != &h.m.sealed[1].condRaw[0] {
		t.Error("the ledger keeps a copy of the always condition per commitment")
	}
	copy(cs[0].Condition, `XXXXXXXXXXXXXXX`)
	if again := h.m.Commitments(); string(again[0].Condition) != `{"always":true}` || string(cs[1].Condition) != `{"always":true}` {
		t.Fatalf("a caller's write reached the ledger: %s, %s", again[0].Condition, cs[1].Condition)
	}
}
