package blitz

import "testing"

// §7.4: "At the end of commit the arena seals pending commitments in submission order". Seat 2
// below submits x (seq 1) and then its pair side p2 (seq 2), whose partner is seat 1's p1. A seal
// that put the pair at its first member's position would seal p2 ahead of x, so seat 2's lastSeq
// would be 2 when x's turn came and x, a valid commitment with a valid seq, would be refused
// bad_seq (a code a walk-in cannot even cause: the arena fills its seq). x, p1 and p2 all seal
// (every §7.4 check passes for each), and the sealed (settlement) order keeps each seat's own
// submissions in submission order.
func TestHostilePairSealsPartnerAheadOfItsEarlierSubmission(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"p1","payee":2,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.mustNoDrop(2, commitBody(
		`{"ref":"x","payee":3,"amount":1000000,"condition":{"always":true},"due":2}`,
		`{"ref":"p2","payee":1,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.next() // commit closes: seal
	if rj := h.m.Rejections(); len(rj) != 0 {
		t.Fatalf("rejections %+v, want none: x (seq 1) was submitted before p2 (seq 2) and passes every §7.4 check", rj)
	}
	pos := map[string]int{}
	for i, c := range h.m.Commitments() {
		pos[c.Ref] = i
	}
	for _, ref := range []string{"p1", "p2", "x"} {
		if _, ok := pos[ref]; !ok {
			t.Fatalf("sealed %v, want p1, p2 and x", pos)
		}
	}
	if pos["x"] > pos["p2"] {
		t.Fatalf("sealed order %v: seat 2's x (seq 1) sealed after its own later p2 (seq 2)", pos)
	}
}
