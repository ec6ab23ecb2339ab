package devchain

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHelperDevchainProcess is not a test: TestKill9 runs the test binary again with
// DEVCHAIN_HELPER_DIR set, and this function becomes a node process it can kill -9.
func TestHelperDevchainProcess(t *testing.T) {
	dir := os.Getenv("DEVCHAIN_HELPER_DIR")
	if dir == "" {
		return
	}
	arena, alice := newTestAccount(AccountArena, 1), newTestAccount("alice", 2)
	n, err := Start(context.Background(), Options{Dir: dir, BlockTime: time.Hour,
		Genesis: &Genesis{Accounts: []GenesisAccount{arena.genesis(DefaultBalance), alice.genesis(DefaultBalance)}}})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("addr", n.Addr())
	select {} // serve until killed
}

// TestKill9 kills a node process with SIGKILL right after it acknowledged a submission; a new
// node on the same directory still has it, and bakes and finalizes it.
func TestKill9(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDevchainProcess$")
	cmd.Env = append(os.Environ(), "DEVCHAIN_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	var addr string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "addr "); ok {
			addr = a
			break
		}
	}
	if addr == "" {
		t.Fatal("the node process printed no address")
	}
	alice := newTestAccount("alice", 2)
	c := clientFor(t, addr)
	h, err := c.SendBlockItem(context.Background(), rawRequest(t, anchorTx(alice, 1, 1)))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred close, no flush
		t.Fatal(err)
	}
	_ = cmd.Wait()
	n, c2 := testNode(t, Options{Dir: dir})
	st, err := c2.GetBlockItemStatus(context.Background(), *h)
	if err != nil || st.GetReceived() == nil {
		t.Fatalf("after kill -9: %v (%v), want received", st, err)
	}
	if sum := finalStatus(t, n, c2, h.Value); sum.GetAccountTransaction().GetEffects().GetDataRegistered() == nil {
		t.Fatalf("outcome %v", sum)
	}
}
