package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestEveryCommandsHelpExitsZero: `arena -h`, and -h and --help of every sub-command of the
// table (commands) and of chain's own, print their usage on standard output, nothing on standard
// error, and exit 0; asked with nothing, arena prints its usage on standard error and exits 2.
func TestEveryCommandsHelpExitsZero(t *testing.T) {
	bin := buildArena(t)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0, out.String(), errb.String()
		case errors.As(err, &exit):
			return exit.ExitCode(), out.String(), errb.String()
		}
		t.Fatalf("arena %q: %v", args, err)
		return 0, "", ""
	}
	lines := [][]string{{}, {"help"}}
	for name := range commands() {
		lines = append(lines, []string{name})
	}
	lines = append(lines, []string{"chain", "sign-register-data"}, []string{"chain", "status"})
	for _, line := range lines {
		for _, h := range []string{"-h", "--help"} {
			args := append(append([]string{}, line...), h)
			code, out, errOut := run(args...)
			want := "arena " + strings.Join(line, " ")
			if len(line) == 0 || line[0] == "help" {
				want = "usage: arena <command>"
			}
			if code != 0 || errOut != "" || !strings.Contains(strings.ToLower(out), "usage") || !strings.Contains(out, want) {
				t.Errorf("arena %q: exit %d, stdout %.80q, stderr %.200q; want 0, a usage naming %q on stdout, nothing on stderr",
					args, code, out, errOut, want)
			}
		}
	}
	if code, out, errOut := run(); code != 2 || out != "" || !strings.Contains(errOut, "usage: arena <command>") {
		t.Errorf("arena with no command: exit %d, stdout %q, stderr %.80q", code, out, errOut)
	}
}
