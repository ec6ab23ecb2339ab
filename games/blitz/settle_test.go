package blitz

import (
	"testing"
)

// §8.1/§8.2 worked figures. Seat 1 holds 100 CCD and seals, in order:
//
//	c1 80 CCD to seat 3 (the mole) due 1, lock 40
//	c2 60 CCD to seat 2 due 2, lock 30
//	c3 40 CCD to seat 4 due 2, lock 20     → unlocked 10
//
// Turn 1 settle, c1: 40 from its lock, 10 from unlocked (60 − 50 of other locks), 50 paid, 30
// short → breached; the 30 comes from the other locks newest-first: c3 20 (to 0), c2 10 (to
// 20). Penalty 25% × 80 × 1.5 (payee is the mole) = 30, capped at what is left: c2's 20. Seat
// 1 is at 0 and eliminated; c2 and c3 close breached with 0 paid.
func TestBreachDrainPenaltyElimination(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":3,"task":{"kind":"breach","named":[1]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"c1","payee":3,"amount":80000000,"condition":{"always":true},"due":1}`,
		`{"ref":"c2","payee":2,"amount":60000000,"condition":{"always":true},"due":2}`,
		`{"ref":"c3","payee":4,"amount":40000000,"condition":{"always":true},"due":2}`))
	h.to(1, "settle", 0)
	c1, c2, c3 := h.record("c1"), h.record("c2"), h.record("c3")
	if c1.Outcome != "breached" || c1.Paid != 80*ccd || c1.Penalty != 20*ccd {
		t.Fatalf("c1 %+v, want breached paid 80 CCD penalty 20 CCD", c1)
	}
	for _, c := range []Record{c2, c3} {
		if c.Outcome != "breached" || c.Paid != 0 || c.Penalty != 0 || c.Lock != 0 {
			t.Fatalf("%s %+v, want breached at elimination with 0 paid", c.Ref, c)
		}
	}
	a1, a2, a3, a4 := h.account(1), h.account(2), h.account(3), h.account(4)
	if a1.Collateral != 0 || a1.Alive || a1.Eliminated != 1 {
		t.Fatalf("seat 1 %+v, want eliminated at turn 1 with 0", a1)
	}
	if a1.Budget != 90*ccd-3*5*ccd {
		t.Fatalf("seat 1 budget %d, want 75 CCD (three 5 CCD fees)", a1.Budget)
	}
	if a3.Collateral != 200*ccd || a2.Collateral != 100*ccd || a4.Collateral != 100*ccd {
		t.Fatalf("collateral 2:%d 3:%d 4:%d", a2.Collateral, a3.Collateral, a4.Collateral)
	}
	if h.m.House() != 15*ccd {
		t.Fatalf("house %d, want 15 CCD", h.m.House())
	}
	if got := len(h.events("agent.eliminated")); got != 1 {
		t.Fatalf("eliminated events %d", got)
	}
	// the breach task: the named seat 1 breached three times → rungs 1 and 2; nobody else → no 3
	if r := h.m.Rungs(); len(r) != 2 || r[0] != 1 || r[1] != 2 {
		t.Fatalf("rungs %v, want [1 2]", r)
	}
}

// Honoured with the remainder from unlocked; void releases the lock; penalty without the mole
// is 25%.
func TestHonouredVoidAndPlainPenalty(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"h","payee":2,"amount":30000001,"condition":{"always":true},"due":1}`,
		`{"ref":"v","payee":3,"amount":20000000,"condition":{"survives":[4,1]},"due":1}`))
	h.mustNoDrop(2, commitBody(
		`{"ref":"b","payee":5,"amount":150000000,"condition":{"backs":[1,2,30000001]},"due":1}`))
	h.to(1, "commit", 0)
	// margin locks: ceil(30000001/2) = 15000001
	if a := h.account(1); a.Locks[h.m.pending[0].id] != 0 {
		t.Fatalf("pending must not lock")
	}
	h.next() // seal + settle
	hh, b := h.record("h"), h.record("b")
	if hh.Lock != 0 || hh.Outcome != "honoured" || hh.Paid != 30000001 {
		t.Fatalf("h %+v", hh)
	}
	v := h.record("v")
	if v.Outcome != "honoured" { // seat 4 alive at the start of turn 1
		t.Fatalf("v %+v", v)
	}
	// b: 150 CCD from seat 2 (100 + 30.000001 received): lock 75, then 55.000001 unlocked → 130.000001 paid,
	// 19.999999 short and no other lock → penalty 25% of 150 = 37.5, but nothing is left.
	if b.Outcome != "breached" || b.Paid != 130000001 || b.Penalty != 0 {
		t.Fatalf("b %+v", b)
	}
	if a := h.account(2); a.Alive || a.Collateral != 0 {
		t.Fatalf("seat 2 %+v", a)
	}
}

func TestMarginLockRoundsUp(t *testing.T) {
	for _, c := range []struct{ a, lock int64 }{{1000000, 500000}, {1000001, 500001}, {3, 2}, {40000000, 20000000}} {
		if got := ceilHalf(c.a); got != c.lock {
			t.Errorf("ceilHalf(%d) = %d, want %d", c.a, got, c.lock)
		}
	}
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(`{"ref":"x","payee":2,"amount":3000001,"condition":{"always":true},"due":2}`))
	h.next()
	if r := h.record("x"); r.Lock != 1500001 {
		t.Fatalf("lock %d, want 1500001", r.Lock)
	}
	if a := h.account(1); a.Unlocked != 100*ccd-1500001 {
		t.Fatalf("unlocked %d", a.Unlocked)
	}
}

// The plain 25% penalty, paid in full from a lock that stays attached at its reduced value.
// Seat 1 (100 CCD) seals c2 (seq 1) 100 CCD to seat 3 due 2, lock 50; then c1 (seq 2) 60 CCD to
// seat 2 due 1, lock 30 → unlocked 20. Turn 1: c1 takes 30 (lock) + 20 (unlocked), 10 short →
// 10 from c2's lock (50 → 40): paid 60, breached; penalty 15 from c2's lock (40 → 25). Seat 1
// keeps 25, all of it c2's lock. Turn 2: c2 takes its 25 lock, 75 short, nothing left: breached,
// paid 25, penalty 0; seat 1 eliminated.
func TestPlainPenaltyFromReducedLock(t *testing.T) {
	h := newHarness(t, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(
		`{"ref":"c2","payee":3,"amount":100000000,"condition":{"always":true},"due":2}`,
		`{"ref":"c1","payee":2,"amount":60000000,"condition":{"always":true},"due":1}`))
	h.to(1, "settle", 0)
	c1, c2 := h.record("c1"), h.record("c2")
	if c1.Outcome != "breached" || c1.Paid != 60*ccd || c1.Penalty != 15*ccd || c1.Seq != 2 {
		t.Fatalf("c1 %+v", c1)
	}
	if c2.Outcome != "open" || c2.Lock != 25*ccd {
		t.Fatalf("c2 %+v", c2)
	}
	if a := h.account(1); a.Collateral != 25*ccd || a.Unlocked != 0 || !a.Alive {
		t.Fatalf("seat 1 %+v", a)
	}
	if a := h.account(2); a.Collateral != 175*ccd {
		t.Fatalf("seat 2 %+v", a)
	}
	h.to(2, "settle", 0)
	c2 = h.record("c2")
	if c2.Outcome != "breached" || c2.Paid != 25*ccd || c2.Penalty != 0 {
		t.Fatalf("c2 %+v", c2)
	}
	if a := h.account(1); a.Alive || a.Eliminated != 2 || h.account(3).Collateral != 125*ccd {
		t.Fatalf("seat 1 %+v seat 3 %+v", a, h.account(3))
	}
	// survives [1, 2] is true at turn 2's settle (alive at the start of turn 2), false for turn 3
	if !h.m.Alive(agentID(1), 2) || h.m.Alive(agentID(1), 3) {
		t.Fatal("survives semantics")
	}
}
