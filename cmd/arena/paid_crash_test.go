package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/devchain"
	"arena/storage"
)

// The paid-table crash test: a child process (this test binary, TestPaidCrashChild) runs serve's
// paid wiring on a data directory, with its embedded devchain under it, and is killed with
// SIGKILL at one money step; a second child on the same directory finishes the round. The
// first life holds a seat, and under its seat token the owner pays 60 CCD for a 50 CCD entry
// and a stranger 7 CCD; another account pays 10 CCD under a token never issued. After the
// second life the escrow must hold nothing, every payer must have exactly what the rules give
// (the owner: the payout and the 10 CCD excess; the stranger and the other account: all of it
// back; the house identity account: the season pool, the house seats' collateral gains, §11.3;
// the arena's account: the rest of the house seats' payouts less their entries), the round must be
// settled once, and the ledger's rows must keep the invariant.

// paidKillSteps are the money steps the first life is killed at (PaidOptions.OnStep): before
// open_round (the stakes in the ledger, nothing sent), after it, mid-round (the mid-round anchor
// sent), between the ledger's settlement and the escrow's payout, and between a sweep's refund in
// the ledger and its escrow call (the first refund written: the never-issued token's).
var paidKillSteps = []string{"staked", "open_round", "anchor", "settled", "refund"}

func TestPaidKilledAtEachMoneyStep(t *testing.T) {
	if os.Getenv("ARENA_PAID_CHILD") != "" {
		t.Skip("child process")
	}
	for _, step := range paidKillSteps {
		t.Run(step, func(t *testing.T) { paidKilledAt(t, step) })
	}
}

// paidChild starts the child for one life on dir, its stdout read line by line.
func paidChild(t *testing.T, dir, life, kill string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPaidCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ARENA_PAID_CHILD="+life, "ARENA_PAID_DIR="+dir, "ARENA_PAID_KILL="+kill)
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

func paidKilledAt(t *testing.T, step string) {
	dir := filepath.Join(t.TempDir(), "data")
	cmd, sc := paidChild(t, dir, "first", step)
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

	cmd, sc = paidChild(t, dir, "resume", "")
	guard = time.AfterFunc(120*time.Second, func() { cmd.Process.Kill() })
	var payout, pool int64 = -1, -1
	round := ""
	for sc.Scan() {
		line := sc.Text()
		t.Logf("second life: %s", line)
		if f := strings.Fields(line); len(f) == 4 && f[0] == "PAYOUT" {
			round = f[1]
			payout, _ = strconv.ParseInt(f[2], 10, 64)
			pool, _ = strconv.ParseInt(f[3], 10, 64)
		}
	}
	err := cmd.Wait()
	guard.Stop()
	if err != nil || payout < 0 || pool < 0 {
		t.Fatalf("the second life did not finish the round: %v (payout %d)", err, payout)
	}

	// The chain, as the devchain's own file has it.
	node, err := devchain.Start(context.Background(), devchain.Options{Dir: filepath.Join(dir, "devchain"), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Stop()
	balance := func(name string) uint64 {
		acc, _ := node.Account(name)
		s, err := node.AccountState(acc.Address)
		if err != nil {
			t.Fatal(err)
		}
		return s.Balance
	}
	const start = devchain.DefaultBalance
	want := map[string]uint64{
		"test-1": start - 60_000_000 + 10_000_000 + uint64(payout),
		"test-2": start,
		"test-3": start,
		"house":  start + uint64(pool),
		"arena":  start - 2*paidEntry + (3*paidEntry - uint64(payout) - uint64(pool)),
	}
	for n, w := range want {
		if got := balance(n); got != w {
			t.Errorf("%s: balance %d, want %d (%+d from the start)", n, got, w, int64(got)-int64(start))
		}
	}
	if bal, _ := node.EscrowBalance(); bal != 0 {
		t.Errorf("the escrow holds %d microCCD", bal)
	}
	if un, _ := node.EscrowUnspent(); len(un) != 0 {
		t.Errorf("unrefunded deposits %+v", un)
	}
	n, _ := strconv.ParseUint(strings.TrimPrefix(round, "T-"), 10, 64)
	er, ok, err := node.EscrowRound(n)
	test1, _ := node.Account("test-1")
	var toOwner, total uint64
	for _, p := range er.Payouts {
		total += p.Amount
		if p.To == test1.Address {
			toOwner += p.Amount
		}
	}
	if err != nil || !ok || !er.Settled || er.Pool != 0 || total != 3*paidEntry || toOwner != uint64(payout) || len(er.Stakes) != 1 || er.HouseFunds != 2*paidEntry {
		t.Errorf("escrow round %s: %+v (%v %v): want settled, empty, %d to the owner", round, er, ok, err, payout)
	}
	if len(er.Turns) != 1 || er.Turns[0].Turn != 2 { // §5.5: one mid-round anchor, after the turn 2 settle on Short
		t.Errorf("escrow round %s: mid-round anchors %+v", round, er.Turns)
	}

	// The ledger, as the arena's file has it: the invariant, and each payer's part once.
	st, err := storage.Open(filepath.Join(dir, "arena.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		t.Error(err)
	}
	lst, err := ledger.Replay(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.Check(lst); err != nil {
		t.Error(err)
	}
	if got := lst.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 3*paidEntry + 27_000_000, Refunded: 27_000_000, PaidOut: payout + pool, House: 3*paidEntry - payout - pool}) {
		t.Errorf("ledger totals %+v", got)
	}
	if got := lst.PaidTo(dotdotdot.PaidUnit, dotdotdot.SeasonPoolAccount); got != pool {
		t.Errorf("the ledger's season pool %d, the round's %d", got, pool)
	}
	if pot := lst.Pots[round]; pot.Settled == 0 || pot.Balance != 0 {
		t.Errorf("the round's pot %+v", pot)
	}
	settles := 0
	if err := st.LedgerRows(1, func(_ uint64, row []byte) error {
		if strings.Contains(string(row), `"kind":"settle"`) {
			settles++
		}
		return nil
	}); err != nil || settles != 1 {
		t.Errorf("%d settle rows (%v)", settles, err)
	}
	tabs, err := st.PaidTables()
	if err != nil || len(tabs) != 1 || tabs[0].Status != storage.PaidSettled {
		t.Errorf("paid tables %+v (%v)", tabs, err)
	}
}

// TestPaidCrashChild is one life of the crash test's server (ARENA_PAID_CHILD: "first" holds,
// pays and stops at ARENA_PAID_KILL to be killed; "resume" finishes the round and exits).
func TestPaidCrashChild(t *testing.T) {
	life := os.Getenv("ARENA_PAID_CHILD")
	if life == "" {
		t.Skip("a life of TestPaidKilledAtEachMoneyStep")
	}
	dir, kill := os.Getenv("ARENA_PAID_DIR"), os.Getenv("ARENA_PAID_KILL")
	step := func(s, table, round string) {
		fmt.Printf("STEP %s %s %s\n", s, table, round)
		if life == "first" && s == kill {
			fmt.Printf("BLOCKED %s\n", s)
			time.Sleep(time.Hour) // the paid-table actor stops here until the kill
		}
	}
	r := startPaidRig(t, dir, rigOptions{Gather: 5 * time.Second, OnStep: step})
	if life == "first" {
		h := r.hold(1, "test-1")
		fmt.Printf("HOLD %s\n", h.Hold)
		r.deposit("test-1", h.SeatToken, 60_000_000)
		r.deposit("test-2", h.SeatToken, 7_000_000)
		r.deposit("test-3", "st_never_issued", 10_000_000)
		time.Sleep(time.Hour) // until the kill
		return
	}
	var tab storage.PaidTable
	var tabs []storage.PaidTable
	eventually(t, 90*time.Second, 100*time.Millisecond, func() bool {
		tabs, _ = r.st.PaidTables()
		if len(tabs) == 1 && tabs[0].Status == storage.PaidSettled {
			tab = tabs[0]
			return true
		}
		return false
	}, func() string { return fmt.Sprintf("paid tables %+v", tabs) })
	r.waitQuiet(tab.Round, 60*time.Second)
	st, ok := r.pt.Finished(tab.ID)
	if !ok || len(st.Paid) != 1 {
		t.Fatalf("settlement %+v", st)
	}
	if err := ledger.Audit(context.Background(), r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	r.stop()
	fmt.Printf("PAYOUT %s %d %d\n", tab.Round, st.Paid[0].Amount, st.Pool)
}
