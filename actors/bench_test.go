package actors

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestRunBenchSmall checks the load tool itself: every table completes and every figure is
// filled in.
func TestRunBenchSmall(t *testing.T) {
	r, err := RunBench(context.Background(), BenchOptions{Tables: 20, Move: 100 * time.Millisecond, NoSync: true,
		Dir: t.TempDir(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Each table's 3 turns close on timers (the first opens in Started); at most 3 turns × 3
	// answers + 4 advances commit (an answer that arrives after its deadline commits nothing).
	if r.Completed != 20 || r.TimerSamples != 20*3 || r.CommitSamples < 20*4 || r.CommitSamples > 20*13 ||
		r.TablesPerSecond <= 0 || r.LatenessP99 <= 0 {
		t.Fatalf("bench result %v", r)
	}
}

// BenchmarkTablesUnderLoad is the arena's load run:
//
//	ARENA_BENCH_TABLES=10000 go test -run '^$' -bench TablesUnderLoad -benchtime 1x ./actors
//
// (ARENA_BENCH_MOVE sets the move length, ARENA_BENCH_SPREAD the opening spread, "-1s" for all
// at once; ARENA_BENCH_SYNC=1 fsyncs every commit; ARENA_BENCH_REBOOT=1 shuts the arena down once
// every table is open and starts it again on the same store).
func BenchmarkTablesUnderLoad(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("ARENA_BENCH_TABLES"))
	move, _ := time.ParseDuration(os.Getenv("ARENA_BENCH_MOVE"))
	spread, _ := time.ParseDuration(os.Getenv("ARENA_BENCH_SPREAD")) // "-1s": all at once
	for i := 0; i < b.N; i++ {
		r, err := RunBench(context.Background(), BenchOptions{Tables: n, Move: move, Spread: spread, Dir: b.TempDir(),
			NoSync: os.Getenv("ARENA_BENCH_SYNC") != "1", Reboot: os.Getenv("ARENA_BENCH_REBOOT") == "1"})
		if err != nil {
			b.Fatal(err)
		}
		b.Log(r.String())
		b.Log(r.Windows)
		if r.ShutdownTime > 0 {
			b.Logf("reboot: shutdown %v, start with boot recovery %v", r.ShutdownTime, r.RecoverTime)
		}
		b.ReportMetric(r.TablesPerSecond, "tables/s")
		b.ReportMetric(float64(r.LatenessP50.Microseconds())/1000, "lateness-p50-ms")
		b.ReportMetric(float64(r.LatenessP99.Microseconds())/1000, "lateness-p99-ms")
		b.ReportMetric(float64(r.CommitP50.Microseconds())/1000, "commit-p50-ms")
		b.ReportMetric(float64(r.CommitP99.Microseconds())/1000, "commit-p99-ms")
		b.ReportMetric(float64(r.HeapPerTable), "heap-B/table")
	}
}
