package dotdotdot

import (
	"context"
	"testing"
	"time"

	"arena/actors"
	"arena/games/blitz"
)

// TestRunBenchBlitzPractice runs the load tool's Practice mode on the real Blitz engine: six
// named house seats per table, the house policy answering every move, the agent clock compressed.
func TestRunBenchBlitzPractice(t *testing.T) {
	spec, err := PracticeBench(blitz.NewEngine(blitz.DefaultFees()), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := actors.RunBench(context.Background(), actors.BenchOptions{Tables: 4, Move: 50 * time.Millisecond, NoSync: true, Spec: spec,
		Engine: blitz.NewEngine(blitz.DefaultFees()), Keys: BenchKeys, Dir: t.TempDir(), Timeout: 30 * time.Second,
		HeapEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Commits are counted per transaction, and the table's commit pipeline puts every step that
	// arrives while one commit is in flight into the next (actors/commit.go), so how many a round
	// takes depends on the machine's load: only "every table committed" is fixed.
	if r.Completed != 4 || r.TimerSamples < 4*5 || r.CommitSamples < 4 || r.TablesPerSecond <= 0 || r.HeapPerTable == 0 {
		t.Fatalf("bench result %v", r)
	}
	// The heap through the round: samples taken while the tables were live, their mean no more
	// than their peak.
	if len(r.HeapSamples) == 0 || r.HeapPeak == 0 || r.HeapMean == 0 || r.HeapMean > r.HeapPeak {
		t.Fatalf("heap samples %v mean %d peak %d", r.HeapSamples, r.HeapMean, r.HeapPeak)
	}
	if _, err := PracticeBench(blitz.NewEngine(blitz.DefaultFees()), "long"); err == nil {
		t.Fatal("practice format long was run")
	}
}
