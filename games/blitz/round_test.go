package blitz

import (
	"testing"
)

// A quiet round: nobody says anything; the round still settles, conserves money and reveals.
func TestQuietRound(t *testing.T) {
	h := newHarness(t, allByo(testSetup("blitz", 6, `{"mole":2,"task":{"kind":"broker","named":[]}}`)))
	r := h.finish()
	var total int64
	for _, p := range r.Payouts {
		total += p
	}
	if total+r.House != 6*200*ccd {
		t.Fatalf("payouts %d + house %d != entries", total, r.House)
	}
	// nobody accused, no rung: the mole takes the whole pot (6 × 10 CCD)
	if got := r.Payouts[2]; got != 100*ccd+90*ccd+60*ccd {
		t.Fatalf("mole payout %d", got)
	}
	if len(h.events("agent.dark")) != 6 {
		t.Fatalf("dark events %d, want 6 (every seat silent two turns)", len(h.events("agent.dark")))
	}
}
