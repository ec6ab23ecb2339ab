package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveAgent is the Node agent running in the background, its milestones streamed as they come.
type liveAgent struct {
	args  []string
	cmd   *exec.Cmd
	steps chan map[string]any // every milestone, closed when the agent exits
	mu    sync.Mutex
	all   []map[string]any
	out   strings.Builder
	errs  strings.Builder
	done  chan error
}

func startAgent(t *testing.T, node, dir, base string, args ...string) *liveAgent {
	t.Helper()
	full := append([]string{filepath.Join(dir, "agent.mjs"), "--base", base, "--host", "breakroom.localhost",
		"--game", "dilemma", "--timeout-s", "150"}, args...)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	a := &liveAgent{args: args, cmd: exec.CommandContext(ctx, node, full...), steps: make(chan map[string]any, 1024), done: make(chan error, 1)}
	a.cmd.Dir = dir
	a.cmd.Stderr = &a.errs
	out, err := a.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer cancel()
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			a.mu.Lock()
			a.out.WriteString(sc.Text() + "\n")
			a.mu.Unlock()
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				a.mu.Lock()
				a.all = append(a.all, m)
				a.mu.Unlock()
				a.steps <- m
			}
		}
		close(a.steps)
		a.done <- a.cmd.Wait()
	}()
	return a
}

// until reads milestones until one whose step is step (false when the agent ended first).
func (a *liveAgent) until(step string) (map[string]any, bool) {
	for m := range a.steps {
		if m["step"] == step {
			return m, true
		}
	}
	return nil, false
}

// wait is the finished run.
func (a *liveAgent) wait() agentRun {
	for range a.steps {
	}
	err := <-a.done
	a.mu.Lock()
	defer a.mu.Unlock()
	return agentRun{args: a.args, err: err, steps: a.all, out: a.out.String(), errs: a.errs.String()}
}

// freeAddr is a loopback address with a port free now, for a server that must come back on it.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestBreakroomMatchSurvivesKill9: `arena serve` is killed (SIGKILL) in the middle of a Dilemma
// match that one Node agent plays over the WebSocket and another over the HTTP fallback; it
// comes back on the same data and address; both agents, joining again with fresh signed joins,
// are re-seated at the match and seat they had, play it to its end and exit 0 with its
// match_end.
func TestBreakroomMatchSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: kills and restarts the binary mid-match")
	}
	node, dir := breakroomAgent(t)
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	// house bots pause 50 ms a move here, so the match is still on when the server dies
	args := append(append([]string{}, breakroomFast...), "--addr", freeAddr(t), "--breakroom-house-pause", "50ms")
	s := startServeArgs(t, bin, data, args, nil)
	agents := []*liveAgent{
		startAgent(t, node, dir, s.url, "--transport", "ws", "--survive-restart"),
		startAgent(t, node, dir, s.url, "--transport", "http", "--survive-restart"),
	}
	matches := make([]string, len(agents))
	for i, a := range agents {
		seated, ok := a.until("seated")
		if !ok {
			t.Fatalf("agent %v ended before it was seated:\n%s", a.args, a.wait().out)
		}
		matches[i], _ = seated["match_id"].(string)
		if _, ok := a.until("moved"); !ok {
			t.Fatalf("agent %v ended before its first move:\n%s", a.args, a.wait().out)
		}
	}
	if matches[0] == "" || matches[0] != matches[1] {
		t.Fatalf("the agents sit at %q", matches)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()
	s2 := startServeArgs(t, bin, data, args, nil)
	for _, a := range agents {
		r := a.wait()
		done := r.last()
		if r.err != nil || done == nil || done["step"] != "done" {
			t.Fatalf("agent %v: %v\nstdout:\n%s\nstderr:\n%s", r.args, r.err, r.out, r.errs)
		}
		end := done["match_end"].(map[string]any)
		var lost, reseated bool
		for _, st := range r.steps {
			lost = lost || st["step"] == "lost"
			reseated = reseated || st["step"] == "reseated" && st["match_id"] == matches[0]
		}
		if end["match_id"] != matches[0] || !lost || !reseated {
			t.Fatalf("agent %v: match_end of %v (seated at %s), lost %v, re-seated %v:\n%s", r.args, end["match_id"], matches[0], lost, reseated, r.out)
		}
	}
	// The match's public log, served at /r/{match_id}.jsonl, re-simulates from its revealed seed
	// across the crash: `arena verify-log` passes.
	req, _ := http.NewRequest("GET", s2.url+"/r/"+matches[0]+".jsonl", nil)
	req.Host = "breakroom.localhost"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(log, []byte(`"type":"match_end"`)) {
		t.Fatalf("/r/%s.jsonl: %d\n%s", matches[0], resp.StatusCode, log)
	}
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if err := os.WriteFile(file, log, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "verify-log", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok: dilemma match") {
		t.Fatalf("verify-log: %v\n%s\nlog:\n%s", err, out, log)
	}
}
