package blitz

import (
	"reflect"
	"testing"
)

// TestSeasonPoolPart: §11.3 "Arena agents' collateral gains go to the season pool". Seats 2
// and 6 are house seats, 3 an arena seat, the rest walk-ins; mole 6 (broker). Turn 1: seat 1
// pays house seat 2 10 CCD, arena seat 3 pays seat 1 5 CCD. Nobody accuses and the mole reaches
// no rung, so it takes the whole 60 CCD bounty. In-house collateral gains: seat 2 110 − 100 =
// 10 CCD, seat 6 160 − 100 = 60 CCD; seat 3 lost, and seat 1's gain is a walk-in's, its own.
func TestSeasonPoolPart(t *testing.T) {
	s := testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`)
	for _, seat := range []int{2, 6} {
		seatOpts(&s.Seats[seat-1], func(o *SeatOptions) { o.Kind, o.Levers = "house", LeversNone })
	}
	seatOpts(&s.Seats[2], func(o *SeatOptions) { o.Kind, o.Levers = "arena", LeversNone })
	h := newHarness(t, s)
	h.to(1, "commit", 0)
	h.mustNoDrop(1, commitBody(c(2, 10*ccd, 1)))
	h.mustNoDrop(3, commitBody(c(1, 5*ccd, 1)))
	r := h.finish()
	if want := map[int]int64{2: 10 * ccd, 6: 60 * ccd}; !reflect.DeepEqual(r.Pool, want) {
		t.Fatalf("pool %v, want %v", r.Pool, want)
	}
	want := map[int]int64{1: 95*ccd + 85*ccd, 2: 110*ccd + 90*ccd, 3: 95*ccd + 85*ccd, 4: 190 * ccd, 5: 190 * ccd, 6: 160*ccd + 90*ccd}
	if !reflect.DeepEqual(r.Payouts, want) {
		t.Fatalf("payouts %v, want %v", r.Payouts, want)
	}
	// A replay of the input log gives the same pool.
	if rr, ok := h.replayLog().Result(); !ok || !reflect.DeepEqual(rr.Pool, r.Pool) {
		t.Fatalf("replayed pool %v", rr.Pool)
	}
}
