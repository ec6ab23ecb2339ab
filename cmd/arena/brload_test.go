package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestBrloadPlaysDilemmaMatchesEndToEnd: the load tool at a tiny scale against the in-process
// serve stack: 12 agents, each a BIP-340 key on its own gorilla socket, all connected at once,
// are all seated (three full tables), play Dilemma matches for a second and a half (joining
// again after each match_end), and every match they sat at ends with every agent's match_end.
// Moves were played and timed to their events (the mover's action_private and every seat's
// iteration_end), the heap was sampled, and no agent was sent an error or had its socket closed
// by the server.
func TestBrloadPlaysDilemmaMatchesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the load tool runs the whole serve stack for a few seconds")
	}
	r, err := loadTest(t.Context(), loadOptions{Agents: 12, Duration: 1500 * time.Millisecond, Move: 3 * time.Second,
		Think: 5 * time.Millisecond, LobbyWait: time.Second, HouseAfter: time.Second, Host: "breakroom.localhost",
		Sources: 3, HeapEvery: 300 * time.Millisecond, Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	switch {
	case r.Seated != 12 || r.PeakConnected != 12:
		t.Errorf("seated %d, connected peak %d; want all 12", r.Seated, r.PeakConnected)
	case r.Matches < 3 || r.Ended != r.Matches || r.PeakLive < 3:
		t.Errorf("matches %d, ended %d, live peak %d; want at least the first three tables, every match ended", r.Matches, r.Ended, r.PeakLive)
	case r.Moves <= 0 || r.MovesPerSecond <= 0:
		t.Errorf("moves %d (%.1f/s)", r.Moves, r.MovesPerSecond)
	case r.Samples <= r.FanOutSamples || r.FanOutSamples <= 0 || r.P99 <= 0 || r.P50 > r.P99 || r.P99 > r.Max:
		t.Errorf("latency samples %d (fan-out %d), p50 %v p99 %v max %v", r.Samples, r.FanOutSamples, r.P50, r.P99, r.Max)
	case len(r.Errors) != 0 || len(r.Closes) != 0 || r.Drops != 0:
		t.Errorf("errors %v, closes %v, drops %d (%s): a well-behaved agent got none", r.Errors, r.Closes, r.Drops, r.FirstDrop)
	case len(r.HeapSamples) == 0 || r.HeapPerAgentPeak == 0 || r.CPU <= 0 || r.MaxRSS == 0:
		t.Errorf("heap samples %v (peak %d B/agent), cpu %v, rss %d", r.HeapSamples, r.HeapPerAgentPeak, r.CPU, r.MaxRSS)
	}
	if t.Failed() {
		t.Logf("%v", r)
	}
}

// TestBrloadRefusesBadFlags: out-of-range flags are usage errors (exit 2) naming the flag, and
// nothing is started.
func TestBrloadRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--agents", "0"}, "--agents 0"},
		{[]string{"--move", "0s"}, "--move"},
		{[]string{"--sources", "300"}, "--sources 300"},
		{[]string{"--url", "ftp://x"}, `--url "ftp://x"`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := brloadMain(t.Context(), tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() != 0 {
			t.Errorf("brload %q: exit %d, stdout %q, stderr %.120q; want 2 naming %q", tc.args, code, out.String(), errb.String(), tc.want)
		}
	}
}
