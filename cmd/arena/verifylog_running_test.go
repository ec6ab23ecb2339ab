package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyLogRunningMatch: the public log of a match still running (no match_end yet) fails
// verify-log with exit 1, saying it can be verified once the match has ended, and counts the
// lines matched before the end in words that fit the number ("1 line", "2 lines").
func TestVerifyLogRunningMatch(t *testing.T) {
	raw, err := os.ReadFile(workedExample)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for _, c := range []struct {
		keep int
		want string
	}{{1, "\n1 line matched before it\n"}, {2, "\n2 lines matched before it\n"}} {
		p := filepath.Join(t.TempDir(), "running.jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(lines[:c.keep], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, _ := runVerifyLog(t, p)
		if code != 1 || !strings.Contains(out, "a running match can be verified once it has ended") || !strings.HasSuffix(out, c.want) {
			t.Errorf("%d lines kept: exit %d, %q; want exit 1, the running-match hint and %q", c.keep, code, out, c.want)
		}
	}
}
