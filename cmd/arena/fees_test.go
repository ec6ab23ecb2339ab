package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// TestTableFeeFromConfig: `arena serve --table-fee` is what a walk-in's Practice charges its
// human seat at round settlement (§14 "arena config"): round.settled names 7 CCD for seat 1, the
// walk-in (a walk-in thinks on its own model: no inference fee), and the house seats, which have
// no human, pay none.
func TestTableFeeFromConfig(t *testing.T) {
	bin := buildArena(t)
	s := startServeArgs(t, bin, filepath.Join(t.TempDir(), "data"), []string{"--table-fee", "7000000", "--inference-fee", "1000000"}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	round, _ := playPractice(t, ctx, s, "short")
	tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
	var body struct {
		Events []struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(tr.raw, &body); err != nil || tr.status != 200 {
		t.Fatalf("transcript %d: %v", tr.status, err)
	}
	for _, e := range body.Events {
		if e.Type != "round.settled" {
			continue
		}
		var p struct {
			Fees map[string]int64 `json:"fees"`
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Fees) != 1 || p.Fees["1"] != 7_000_000 {
			t.Fatalf("round.settled fees %s, want 7 CCD from seat 1 alone", e.Payload)
		}
		return
	}
	t.Fatal("no round.settled in the transcript")
}
