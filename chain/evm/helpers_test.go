package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gethBinary is the cached geth of scripts/build-geth.sh, built by it when absent
// (ARENA_GETH names a binary to use instead).
func gethBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ARENA_GETH"); p != "" {
		return p
	}
	script, err := filepath.Abs("../../scripts/build-geth.sh")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/build-geth.sh: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// freePort is a loopback TCP port nobody listened on a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startDevChain runs `geth --dev` on loopback in a temporary data directory, waits until it
// answers eth_chainId, and stops it (by its process) when the test ends.
func startDevChain(t *testing.T) *Client {
	t.Helper()
	bin := gethBinary(t)
	port := freePort(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--dev", "--datadir", dir, "--ipcdisable", "--nodiscover", "--maxpeers", "0",
		"--port", "0", "--authrpc.port", strconv.Itoa(freePort(t)),
		"--http", "--http.addr", "127.0.0.1", "--http.port", strconv.Itoa(port), "--http.api", "eth,net,web3",
		"--verbosity", "2")
	logFile, err := os.Create(filepath.Join(dir, "geth.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start geth: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		logFile.Close()
	})
	c := Dial("http://127.0.0.1:"+strconv.Itoa(port), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for {
		if _, err := c.ChainID(ctx); err == nil {
			return c
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "geth.log"))
			t.Fatalf("geth exited: %v\n%s", err, log)
		case <-ctx.Done():
			log, _ := os.ReadFile(filepath.Join(dir, "geth.log"))
			t.Fatalf("geth did not answer on port %d\n%s", port, log)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// npmDir makes sure contracts/node_modules is installed from its lock (npm ci), as
// scripts/install-test-deps.sh does.
func npmDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("contracts")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "solc")); err == nil {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "viem")); err == nil {
			return dir
		}
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return dir
}

// node runs a script of contracts/ with stdin and returns its stdout.
func node(t *testing.T, script string, stdin []byte) []byte {
	t.Helper()
	dir := npmDir(t)
	var stderr bytes.Buffer
	cmd := exec.Command("node", filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	return out
}

// compileToken compiles contracts/TestUSDC.sol with solc and returns its creation bytecode.
func compileToken(t *testing.T) []byte {
	t.Helper()
	var out struct {
		Bytecode string `json:"bytecode"`
	}
	if err := json.Unmarshal(node(t, "compile.mjs", nil), &out); err != nil {
		t.Fatal(err)
	}
	code, ok := parseHexBytes(out.Bytecode)
	if !ok || len(code) == 0 {
		t.Fatalf("solc bytecode %.40q", out.Bytecode)
	}
	return code
}
