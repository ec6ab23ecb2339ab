package a2a

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// jsAgent is the A2A JS SDK agent of testagent/ running under node.
type jsAgent struct {
	Base     string // http://127.0.0.1:PORT
	Endpoint string // Base + "/a2a"
	Agent    string
	Key      ed25519.PrivateKey
}

// testagentDir is transport/a2a/testagent, found from this file.
func testagentDir(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testagent")
}

// startJSAgent runs testagent/agent.mjs with node. It skips, loudly, only when node is not
// installed; missing node_modules are installed with `npm ci` (scripts/install-test-deps.sh
// does the same ahead of time). arenaKey ("" for none) is the key the agent verifies
// envelopes with.
func startJSAgent(t testing.TB, agent string, seed byte, arenaKey string) *jsAgent {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the A2A JS SDK agent (transport/a2a/testagent) cannot run; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	dir := testagentDir(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@a2a-js", "sdk")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s (run scripts/install-test-deps.sh): %v\n%s", dir, err, out)
		}
	}
	s := make([]byte, 32)
	for i := range s {
		s[i] = seed
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, "agent.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AGENT_ID="+agent, "AGENT_SEED="+hex.EncodeToString(s), "AGENT_NAME=Ada", "ARENA_KEY="+arenaKey, "PORT=0")
	cmd.Stderr = testWriter{t}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "testagent: listening on ") {
				lines <- strings.TrimPrefix(l, "testagent: listening on ")
			}
		}
	}()
	select {
	case base := <-lines:
		return &jsAgent{Base: base, Endpoint: base + "/a2a", Agent: agent, Key: ed25519.NewKeyFromSeed(s)}
	case <-time.After(20 * time.Second):
		t.Fatal("the JS agent did not start within 20 s")
	}
	return nil
}

// stats is GET /stats of the JS agent.
func (a *jsAgent) stats(t testing.TB) map[string]any {
	t.Helper()
	resp, err := http.Get(a.Base + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("stats %s: %v", b, err)
	}
	return m
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("node: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
