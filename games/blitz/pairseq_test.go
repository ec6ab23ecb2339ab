package blitz

import "testing"

// A pair waits at the seal for its partner's seat's earlier submissions (golden pair_seq,
// §7.4: a seat's sealed order is its settlement order and keeps its submission order): seat 2
// submitted x before its pair side p2, so all three seal, in the order x, p1, p2, and the
// seat's seqs go on from the highest sealed.
func TestPairPartnerAheadKeepsEarlierSeq(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"p1","payee":2,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.mustNoDrop(2, commitBody(
		`{"ref":"x","payee":3,"amount":1000000,"condition":{"always":true},"due":2}`,
		`{"ref":"p2","payee":1,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.next()
	if rj := h.m.Rejections(); len(rj) != 0 {
		t.Fatalf("rejections %+v, want none", rj)
	}
	var order []string
	seqs := map[string]int64{}
	for _, c := range h.m.Commitments() {
		order = append(order, c.Ref)
		seqs[c.Ref] = c.Seq
	}
	if len(order) != 3 || order[0] != "x" || order[1] != "p1" || order[2] != "p2" {
		t.Fatalf("sealed order %v, want [x p1 p2]", order)
	}
	if seqs["x"] != 1 || seqs["p2"] != 2 {
		t.Fatalf("seqs %v, want x 1 and p2 2", seqs)
	}
	if got := h.m.seat(2).lastSeq; got != 2 {
		t.Fatalf("seat 2 last sealed seq %d, want 2", got)
	}
	h.to(2, "commit", 0)
	h.mustNoDrop(2, commitBody(`{"ref":"y","payee":4,"amount":1000000,"condition":{"always":true},"due":3}`))
	h.next()
	if rj := h.m.Rejections(); len(rj) != 0 {
		t.Fatalf("turn 2 rejections %+v, want none", rj)
	}
	if r := h.record("y"); r.Seq != 3 || r.SealedTurn != 2 {
		t.Fatalf("y: seq %d sealed turn %d, want seq 3 sealed in turn 2", r.Seq, r.SealedTurn)
	}
}
