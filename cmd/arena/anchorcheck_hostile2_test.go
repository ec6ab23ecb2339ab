package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// Issue 4: the embedded devchain "listens on a loopback port the server reports (in /healthz
// and the logs)", and anchor-check's own usage says that with a transcript URL and no --node it
// takes the node from the "chain_node" member of the server's /healthz. `arena serve` answers
// /healthz with {"status":"ok"} only, so `arena anchor-check URL` on a fresh server exits 2
// ("no chain node: give --node") although the server knows its node.
func TestHostile2AnchorCheckURLFindsTheNodeThroughHealthz(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	h := s.call(ctx, "GET", "/healthz", "", nil)
	var health map[string]any
	_ = json.Unmarshal(h.raw, &health)
	if h.status != 200 || health["chain_node"] != s.chain {
		t.Errorf("/healthz: %d %s; want status ok and chain_node %q (the embedded devchain's address)", h.status, h.raw, s.chain)
	}

	round, _ := playPractice(t, ctx, s, "short")
	revealedTranscript(t, ctx, s, round)
	code, out, errOut := runAnchorCheck(context.Background(), nil, s.url+"/v1/rounds/"+round+"/transcript")
	if code != 0 || firstFail(out) != "" {
		t.Fatalf("anchor-check URL without --node: exit %d, want 0 with the node read from /healthz\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}
