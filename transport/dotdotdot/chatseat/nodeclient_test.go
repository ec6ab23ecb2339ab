package chatseat

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestNodeClientPlaysPractice is the real client of §4.5: the official MCP TypeScript SDK
// (testclient/client.mjs, @modelcontextprotocol/sdk over Streamable HTTP) against a running
// `arena serve` built from this tree, on a random port with a temp data dir. The client lists
// the tools, registers, plays a whole Practice round (short, chat pace) through next_move,
// talk, commit and pass to the result, and checks my_record. It skips, loudly, only when
// `node` is not installed.
func TestNodeClientPlaysPractice(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: `node` is not installed, so the MCP TypeScript SDK client (transport/dotdotdot/chatseat/testclient) cannot run; install Node.js 20+ and run scripts/install-test-deps.sh")
	}
	_, file, _, _ := runtime.Caller(0)
	here := filepath.Dir(file)
	client := filepath.Join(here, "testclient")
	if _, err := os.Stat(filepath.Join(client, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = client
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s (run scripts/install-test-deps.sh): %v\n%s", client, err, out)
		}
	}
	bin := filepath.Join(t.TempDir(), "arena")
	build := exec.Command("go", "build", "-o", bin, "./cmd/arena")
	build.Dir = filepath.Join(here, "..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/arena: %v\n%s", err, out)
	}

	url, logs := startArena(t, bin, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	run := exec.CommandContext(ctx, node, "client.mjs")
	run.Dir = client
	run.Env = append(os.Environ(), "ARENA_URL="+url)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s\narena logs:\n%s", err, out, logs)
	}
	line := strings.TrimSpace(string(out))
	if !strings.HasPrefix(line, "mcp-testclient: ok {") || !strings.Contains(line, `"scouting":1,"talk":6,"commit":3`) {
		t.Fatalf("client output: %s", out)
	}
	t.Log(line)
}

// lockedBuf is a bytes.Buffer safe for the subprocess writer and the test reader.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startArena runs `arena serve` on 127.0.0.1:0 with data as its data dir and returns its base
// URL (from the "arena: listening on" line) and its log buffer; cleanup stops it with SIGTERM.
func startArena(t *testing.T, bin, data string) (string, *lockedBuf) {
	t.Helper()
	logs := &lockedBuf{}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data)
	cmd.Stderr = logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "arena: listening on ") {
				select {
				case urls <- strings.TrimPrefix(l, "arena: listening on "):
				default:
				}
			}
		}
	}()
	select {
	case u := <-urls:
		return u, logs
	case <-time.After(30 * time.Second):
		t.Fatalf("arena serve printed no listen line in 30 s; logs:\n%s", logs)
		return "", nil
	}
}
