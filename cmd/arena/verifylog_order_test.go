package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyLogTimeGoesBack: a move dated one second earlier than the line before it — within
// every deadline, so each game's re-simulation alone would take it — fails verify-log at that
// line (exit 1), for every game: the log writer's clock never runs back.
func TestVerifyLogTimeGoesBack(t *testing.T) {
	raw, err := os.ReadFile(workedExample)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	const n = 3 // seat 1's choice at 08:00:02, after seat 0's at 08:00:01
	if !strings.Contains(lines[n], `"t":"2026-10-02T08:00:02.000Z"`) {
		t.Fatalf("line %d: %s", n, lines[n])
	}
	lines[n] = strings.Replace(lines[n], `08:00:02.000Z`, `08:00:00.500Z`, 1)
	p := filepath.Join(t.TempDir(), "back.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runVerifyLog(t, p)
	if code != 1 || !strings.HasPrefix(out, "FAIL line 4 (seq 3, action_private)") || !strings.Contains(out, "earlier than the line before it") {
		t.Fatalf("exit %d, %q; want FAIL at line 4 (seq 3), earlier than the line before it", code, out)
	}
}
