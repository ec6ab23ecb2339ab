package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One data directory serves one process at a time (README): while `arena serve` runs on DATA,
// `arena devchain --data DATA` (DATA's embedded chain, DATA/devchain) and a second `arena serve
// --data DATA` each fail on its lock and write nothing into DATA; once the server has stopped,
// `arena devchain --data DATA` runs DATA's own chain, in DATA/devchain.
func TestDevchainAndServeRefuseADataDirAServerHolds(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	before := dirList(t, data)

	var out, errb bytes.Buffer
	lctx, lcancel := context.WithTimeout(t.Context(), 20*time.Second) // a devchain that does start is stopped
	defer lcancel()
	if code := runDevchain(lctx, []string{"--data", data}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "timeout") || !strings.Contains(errb.String(), "is arena serve running on "+data) {
		t.Fatalf("devchain --data of a running server's data dir: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	second := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data)
	var serr bytes.Buffer
	second.Stderr = &serr
	if err := second.Run(); err == nil || second.ProcessState.ExitCode() != 1 || !strings.Contains(serr.String(), "timeout") {
		t.Fatalf("a second serve on the data dir: %v, exit %d, stderr %s", err, second.ProcessState.ExitCode(), serr.String())
	}
	if after := dirList(t, data); after != before {
		t.Fatalf("the data dir changed under the running server:\n%s\nnow\n%s", before, after)
	}
	s.stop()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runDevchain(ctx, []string{"--data", data}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadBytes('\n')
	if err != nil {
		t.Fatalf("ready line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var ready devchainReady
	if err := json.Unmarshal(line, &ready); err != nil || ready.Data != filepath.Join(data, "devchain") {
		t.Fatalf("devchain --data DATA of a stopped server: ready %s (%v), want its data in %s", line, err, filepath.Join(data, "devchain"))
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("devchain exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("devchain did not stop")
	}
	if _, err := os.Stat(filepath.Join(data, "devchain.db")); err == nil {
		t.Fatal("devchain wrote a chain of its own into the data dir")
	}
}

// dirList is the path of every file and folder under dir, one a line (names only: the running
// server's own files change size).
func dirList(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b.WriteString(rel + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
