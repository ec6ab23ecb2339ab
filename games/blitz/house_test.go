package blitz

import "testing"

// BenchmarkHouseRound: a 6-seat Blitz round played by the house policy, every envelope built.
func BenchmarkHouseRound(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		h := newHarness(b, testSetup("blitz", 6, `{"mole":6,"task":{"kind":"broker","named":[]}}`))
		playHouse(h, 7, nil)
	}
}
