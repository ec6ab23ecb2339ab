package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/devchain"
	"arena/storage"
)

// A paid hold past a table's seats, killed with SIGKILL at a money step: four holds at a
// three-seat table all pay the entry; the fourth is dropped at starts_at and its deposit
// refunded. The first life is killed once the refund is in the ledger but not yet sent to the
// escrow ("refund"), or once the round is settled in the ledger ("settled"); a second life on
// the same directory finishes. The dropped payer must have exactly its deposit back, once;
// the escrow must hold nothing; the ledger keeps its invariant with one entry refunded.
func TestPaidDroppedHoldKilledAtEachMoneyStep(t *testing.T) {
	if os.Getenv("ARENA_PAID_DROPPED_CHILD") != "" {
		t.Skip("child process")
	}
	for _, step := range []string{"refund", "settled"} {
		t.Run(step, func(t *testing.T) { paidDroppedKilledAt(t, step) })
	}
}

func paidDroppedChild(t *testing.T, dir, life, kill string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPaidDroppedCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARENA_PAID_DROPPED_CHILD="+life, "ARENA_PAID_DIR="+dir, "ARENA_PAID_KILL="+kill)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

func paidDroppedKilledAt(t *testing.T, step string) {
	dir := filepath.Join(t.TempDir(), "data")
	cmd, sc := paidDroppedChild(t, dir, "first", step)
	guard := time.AfterFunc(90*time.Second, func() { cmd.Process.Kill() })
	blocked := false
	for !blocked && sc.Scan() {
		line := sc.Text()
		t.Logf("first life: %s", line)
		blocked = line == "BLOCKED "+step
	}
	guard.Stop()
	if err := cmd.Process.Kill(); err != nil && blocked {
		t.Fatal(err)
	}
	cmd.Wait()
	if !blocked {
		t.Fatalf("the first life never reached step %s", step)
	}
	cmd, sc = paidDroppedChild(t, dir, "resume", "")
	guard = time.AfterFunc(120*time.Second, func() { cmd.Process.Kill() })
	done := false
	for sc.Scan() {
		line := sc.Text()
		t.Logf("second life: %s", line)
		done = done || line == "DONE"
	}
	err := cmd.Wait()
	guard.Stop()
	if err != nil || !done {
		t.Fatalf("the second life did not finish the round: %v", err)
	}

	node, err := devchain.Start(context.Background(), devchain.Options{Dir: filepath.Join(dir, "devchain"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Stop()
	acc, _ := node.Account("test-4")
	s, err := node.AccountState(acc.Address)
	if err != nil {
		t.Fatal(err)
	}
	if s.Balance != devchain.DefaultBalance {
		t.Errorf("the dropped payer's balance %d, want %d (%+d): its deposit back exactly once",
			s.Balance, uint64(devchain.DefaultBalance), int64(s.Balance)-int64(devchain.DefaultBalance))
	}
	if bal, _ := node.EscrowBalance(); bal != 0 {
		t.Errorf("the escrow holds %d microCCD", bal)
	}
	if un, _ := node.EscrowUnspent(); len(un) != 0 {
		t.Errorf("unrefunded deposits %+v", un)
	}

	st, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lst, err := ledger.Replay(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.Check(lst); err != nil {
		t.Error(err)
	}
	if got := lst.Units[dotdotdot.PaidUnit]; got.Received != 4*paidEntry || got.Refunded != paidEntry || got.Staked != 0 {
		t.Errorf("ledger totals %+v: three entries played, the fourth refunded once", got)
	}
	tabs, err := st.PaidTables()
	if err != nil || len(tabs) != 1 || tabs[0].Status != storage.PaidSettled {
		t.Errorf("paid tables %+v (%v)", tabs, err)
	}
}

// TestPaidDroppedCrashChild is one life of TestPaidDroppedHoldKilledAtEachMoneyStep's server
// ("first" holds four seats at a three-seat table, pays each and stops at ARENA_PAID_KILL to be
// killed; "resume" finishes the round and every refund, then exits).
func TestPaidDroppedCrashChild(t *testing.T) {
	life := os.Getenv("ARENA_PAID_DROPPED_CHILD")
	if life == "" {
		t.Skip("a life of TestPaidDroppedHoldKilledAtEachMoneyStep")
	}
	dir, kill := os.Getenv("ARENA_PAID_DIR"), os.Getenv("ARENA_PAID_KILL")
	step := func(s, table, round string) {
		fmt.Printf("STEP %s %s %s\n", s, table, round)
		if life == "first" && s == kill {
			fmt.Printf("BLOCKED %s\n", s)
			time.Sleep(time.Hour) // this step stops here until the kill
		}
	}
	r := startPaidRig(t, dir, rigOptions{Gather: 5 * time.Second, OnStep: step})
	if life == "first" {
		owners := []string{"test-1", "test-2", "test-3", "test-4"}
		var hs []dotdotdot.PaidHold
		for i, o := range owners {
			hs = append(hs, r.hold(i+1, o))
		}
		for i, h := range hs {
			r.deposit(owners[i], h.SeatToken, paidEntry)
		}
		time.Sleep(time.Hour) // until the kill
		return
	}
	var tabs []storage.PaidTable
	eventually(t, 90*time.Second, 100*time.Millisecond, func() bool {
		tabs, _ = r.st.PaidTables()
		return len(tabs) == 1 && tabs[0].Status == storage.PaidSettled
	}, func() string { return fmt.Sprintf("paid tables %+v", tabs) })
	r.waitQuiet(tabs[0].Round, 60*time.Second)
	if err := ledger.Audit(context.Background(), r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	r.stop()
	fmt.Println("DONE")
}
