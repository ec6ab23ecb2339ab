package blitz

import (
	"fmt"
	"testing"
)

// §7.1: a seq reused or decreasing across an agent's submissions is refused, judged in the
// order the agent submitted them, whatever order the seal later puts them in. Seat 2 (BYO,
// signing its own seqs) submits x and then its pair side p2 with a seq not above x's. The pair
// seals at p1's place (§7.5, ahead of x), so checking p2 only against what is already sealed
// would let two commitments of seat 2 seal with one seq (or p2 below x). p2 is bad_seq, its
// partner p1 pair_unmatched, x seals.
func TestPairPartnerCannotReuseAnEarlierSubmissionsSeq(t *testing.T) {
	for _, tc := range []struct{ x, p2 int }{{3, 3}, {5, 4}} {
		t.Run(fmt.Sprintf("x%d_p2%d", tc.x, tc.p2), func(t *testing.T) {
			h := newHarness(t, byoSetup())
			h.to(1, "commit", 0)
			pair := `,"pair":"deal:0000000a"`
			h.mustNoDrop(1, commitBody(h.signed(1, base(1, 1, 1, 2, 2*ccd, 2)+pair)))
			h.mustNoDrop(2, commitBody(h.signed(2, base(1, tc.x, 2, 3, ccd, 2)), h.signed(2, base(1, tc.p2, 2, 1, 2*ccd, 2)+pair)))
			h.next()
			codes := map[string]string{}
			for _, r := range h.m.Rejections() {
				codes[fmt.Sprintf("%d/%d", r.Seat, r.Index)] = r.Code
			}
			if len(codes) != 2 || codes["2/1"] != CodeBadSeq || codes["1/0"] != CodePairUnmatched {
				t.Fatalf("rejections %+v, want seat 2's p2 bad_seq and seat 1's p1 pair_unmatched", h.m.Rejections())
			}
			cs := h.m.Commitments()
			if len(cs) != 1 || cs[0].Payer != 2 || cs[0].Payee != 3 || cs[0].Seq != int64(tc.x) {
				t.Fatalf("sealed %+v, want only seat 2's x (seq %d)", cs, tc.x)
			}
			if got := h.m.seat(2).lastSeq; got != int64(tc.x) {
				t.Fatalf("seat 2 last sealed seq %d, want %d", got, tc.x)
			}
		})
	}
}

// Two pairs crossing two seats' answers (seat 1 [P, z], seat 2 [x, P2]; pairs P/P2 and x/z):
// no order seals each pair together and keeps both seats' submissions in order. The pair whose
// later member came last (P/P2: P2 is the last submission) is refused pair_unmatched; then z
// and x are both at their seats' heads and seal together. No seat's seqs go backwards.
func TestCrossedPairsRefuseTheLaterCompletedPair(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"P","payee":2,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`,
		`{"ref":"z","payee":2,"amount":3000000,"condition":{"always":true},"due":2,"pair":"deal:0000000b"}`))
	h.mustNoDrop(2, commitBody(
		`{"ref":"x","payee":1,"amount":3000000,"condition":{"always":true},"due":2,"pair":"deal:0000000b"}`,
		`{"ref":"P2","payee":1,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.next()
	var rj []string
	for _, r := range h.m.Rejections() {
		rj = append(rj, r.Ref+":"+r.Code)
	}
	if fmt.Sprint(rj) != "[P:pair_unmatched P2:pair_unmatched]" {
		t.Fatalf("rejections %v, want [P:pair_unmatched P2:pair_unmatched]", rj)
	}
	var got []string
	for _, c := range h.m.Commitments() {
		got = append(got, fmt.Sprintf("%s:%d", c.Ref, c.Seq))
	}
	if fmt.Sprint(got) != "[z:2 x:1]" {
		t.Fatalf("sealed (ref:seq) %v, want [z:2 x:1]", got)
	}
	if a, b := h.m.seat(1).lastSeq, h.m.seat(2).lastSeq; a != 2 || b != 1 {
		t.Fatalf("last sealed seqs %d and %d, want 2 and 1", a, b)
	}
	if a := h.account(1); a.Budget != h.account(3).Budget-DefaultFees().Action {
		t.Fatalf("seat 1 budget %d, want one fee (z) below seat 3's %d", a.Budget, h.account(3).Budget)
	}
}

// A pair waits for its partner's seat's earlier submissions, and that seat's later ones wait
// for the pair: seat 1 [P, y], seat 2 [x, P2] seal x, P, P2, y (never y ahead of P).
func TestPairWaitsAndSeatsKeepTheirOrder(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"P","payee":2,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`,
		`{"ref":"y","payee":3,"amount":1000000,"condition":{"always":true},"due":2}`))
	h.mustNoDrop(2, commitBody(
		`{"ref":"x","payee":4,"amount":1000000,"condition":{"always":true},"due":2}`,
		`{"ref":"P2","payee":1,"amount":2000000,"condition":{"always":true},"due":2,"pair":"deal:0000000a"}`))
	h.mustNoDrop(3, commitBody(`{"ref":"w","payee":4,"amount":1000000,"condition":{"always":true},"due":2}`))
	h.next()
	if rj := h.m.Rejections(); len(rj) != 0 {
		t.Fatalf("rejections %+v, want none", rj)
	}
	var got []string
	for _, c := range h.m.Commitments() {
		got = append(got, c.Ref)
	}
	if fmt.Sprint(got) != "[x P P2 y w]" {
		t.Fatalf("sealed %v, want [x P P2 y w]", got)
	}
}
