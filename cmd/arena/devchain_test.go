package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	v2 "github.com/Concordium/concordium-go-sdk/v2"
)

// TestDevchainCommand runs `arena devchain`, reads the ready line, queries the node with the
// SDK's client, and stops it by cancelling the context.
func TestDevchainCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dc")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runDevchain(ctx, []string{"--data", dir, "--block-time", "10ms", "--finalize-after", "0"}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadBytes('\n')
	if err != nil {
		t.Fatalf("ready line: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var ready devchainReady
	if err := json.Unmarshal(line, &ready); err != nil {
		t.Fatalf("ready line %q: %v", line, err)
	}
	if ready.Registry != "<12802,0>" || len(ready.Accounts) != 6 || ready.Accounts[0].Name != "arena" {
		t.Fatalf("ready %+v", ready)
	}
	if fi, err := os.Stat(ready.GenesisFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("genesis file %v (%v), want mode 0600", fi, err)
	}
	c, err := v2.NewClient(v2.Config{NodeAddress: ready.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addr, err := v2.AccountAddressFromString(ready.Accounts[0].Address)
	if err != nil {
		t.Fatal(err)
	}
	nn, err := c.GetNextAccountSequenceNumber(ctx, &addr)
	if err != nil || nn.SequenceNumber.Value != 1 {
		t.Fatalf("next nonce of the arena account %v (%v), want 1", nn, err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if code := runDevchain(context.Background(), []string{"extra"}, io.Discard, io.Discard); code != 2 {
		t.Fatalf("usage error exit code %d, want 2", code)
	}
}
