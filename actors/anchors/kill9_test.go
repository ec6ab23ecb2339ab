package anchors

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/Concordium/concordium-go-sdk/v2"
	"github.com/asynkron/protoactor-go/actor"

	"arena/actors"
	"arena/chain/ccd"
	"arena/chain/devchain"
	"arena/storage"
	"arena/storage/storagetest"
)

// TestKill9PendingLandOnce: a separate arena process signs and answers anchors against the
// devchain (half of its calls failing), is killed with SIGKILL with submissions pending, and a
// new chain actor on the same bbolt file lands each answered anchor exactly once.
func TestKill9PendingLandOnce(t *testing.T) {
	if os.Getenv("ARENA_KILL9_CHILD") != "" {
		t.Skip("child process")
	}
	key := testKey(t)
	seed, _ := key.Seed()
	dev, err := devchain.Start(context.Background(), devchain.Options{Dir: t.TempDir(), NoSync: true,
		BlockTime: 10 * time.Millisecond, FinalizeAfter: 50 * time.Millisecond,
		Faults:  devchain.Faults{UnavailableRate: 0.5, Seed: 3},
		Genesis: &devchain.Genesis{Accounts: []devchain.GenesisAccount{{Name: devchain.AccountArena, Seed: seed, Balance: devchain.DefaultBalance}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Stop()
	dbPath := storagetest.Path(t)
	const n = 30
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Child$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARENA_KILL9_CHILD=1", "ARENA_KILL9_DB="+dbPath,
		"ARENA_KILL9_NODE="+dev.Addr(), "ARENA_KILL9_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	sc := bufio.NewScanner(out)
	deadline := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	for len(answered) < n && sc.Scan() {
		if tx, ok := strings.CutPrefix(sc.Text(), "TX "); ok {
			answered[tx] = true
		}
	}
	deadline.Stop()
	if len(answered) != n {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child answered %d of %d", len(answered), n)
	}
	// Wall time is what is tested: the child is killed while its submissions are in flight to
	// the node, some reached, some not, wherever 100 ms of its work has got to.
	time.Sleep(100 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	before, _ := dev.AccountState(sdk.AccountAddress{Value: key.Address()})
	t.Logf("killed with %d anchors answered, %d on chain", n, before.NextNonce-1)
	dev.SetFaults(devchain.Faults{})

	// Restart on the same file in this process.
	client, err := ccd.Dial(context.Background(), dev.Addr(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	db, err := storage.Open(dbPath, storage.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sys := newQuietSystem()
	ch, err := New(db, key, client, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Start(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	defer ch.Stop()
	var s Stats
	var st devchain.AccountState
	eventually(t, 30*time.Second, func() bool {
		s, _ = ch.Stats(context.Background())
		st, _ = dev.AccountState(sdk.AccountAddress{Value: key.Address()})
		return s.Pending == 0 && s.Unwritten == 0 && st.AllFinal
	}, func() string { return fmt.Sprintf("not drained: %+v", s) })
	if st.NextNonce != n+1 {
		t.Fatalf("%d transactions on chain for %d anchors", st.NextNonce-1, n)
	}
	// Every answered hash (or the transaction that replaced it) is final on chain.
	for tx := range answered {
		var h [32]byte
		if _, err := hex.Decode(h[:], []byte(tx)); err != nil {
			t.Fatal(err)
		}
		st, err := client.Status(context.Background(), h)
		if err != nil || st.State != ccd.Finalized || st.Rejected || !st.Registered {
			t.Fatalf("answered %s: %+v %v", tx, st, err)
		}
	}
}

// TestKill9Child is the arena process of TestKill9PendingLandOnce: it answers n anchors, prints
// each hash once answered, and waits to be killed.
func TestKill9Child(t *testing.T) {
	if os.Getenv("ARENA_KILL9_CHILD") == "" {
		t.Skip("run by TestKill9PendingLandOnce")
	}
	n, _ := strconv.Atoi(os.Getenv("ARENA_KILL9_N"))
	db, err := storage.Open(os.Getenv("ARENA_KILL9_DB"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client, err := ccd.Dial(context.Background(), os.Getenv("ARENA_KILL9_NODE"), false)
	if err != nil {
		t.Fatal(err)
	}
	sys := newQuietSystem()
	answers := make(chan *actors.Anchored, n)
	table, _ := sys.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*actors.Anchored); ok {
			answers <- m
		}
	}), "table")
	ch, err := New(db, testKey(t), client, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Start(context.Background(), sys); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		ch.Anchor(actors.AnchorJob{Table: "k", Round: "T-99", Request: job(99, "exchange", uint32(i+1), "kill9"), ReplyTo: table})
	}
	for i := 0; i < n; i++ {
		a := <-answers
		if a.Err != "" {
			t.Fatal(a.Err)
		}
		fmt.Printf("TX %s\n", a.Tx)
	}
	os.Stdout.Sync()
	select {} // until SIGKILL
}
