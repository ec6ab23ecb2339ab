package blitz_test

import (
	"testing"
	"time"

	"arena/games/canon"
)

// BenchmarkRoundVsVerify measures the round's CPU against its signature checks in one loop: each iteration plays
// BenchmarkRound's round, then does BenchmarkVerifyOnly's 120 signature checks, and the CPU
// time (user + system, every thread: collections included) of each part is summed apart. On a
// shared machine the two benchmarks run seconds apart see different loads; here both parts of
// every iteration see the same, so their ratio holds still where the separate figures swing.
// It reports round-cpu-ns/op, verify-cpu-ns/op and round/verify; BenchmarkRound and
// BenchmarkVerifyOnly stay the figures of record.
func BenchmarkRoundVsVerify(b *testing.B) {
	f := newBenchFixture(b)
	var round, verify time.Duration
	for b.Loop() {
		t0 := cpuTime(b)
		f.play(b)
		t1 := cpuTime(b)
		for i := range f.digests {
			if !canon.Verify(f.signers[i], f.digests[i][:], f.sigs[i]) {
				b.Fatal("signature does not verify")
			}
		}
		t2 := cpuTime(b)
		round += t1 - t0
		verify += t2 - t1
	}
	b.ReportMetric(float64(round)/float64(b.N), "round-cpu-ns/op")
	b.ReportMetric(float64(verify)/float64(b.N), "verify-cpu-ns/op")
	if verify > 0 {
		b.ReportMetric(float64(round)/float64(verify), "round/verify")
	}
}
