package wardenpay

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"arena/storage"
	"arena/storage/storagetest"
)

// TestWorkerReportsAConfirmedPayoutOfTheWrongAmount: a payout job confirmed for an amount
// other than its row's paid_out can never settle the match (§12.2: a row's payout is the job's
// transfer). The Worker leaves the match SETTLING with no Ledger row, says so once at error
// level however many passes it takes, and Audit reports it as a failure.
func TestWorkerReportsAConfirmedPayoutOfTheWrongAmount(t *testing.T) {
	st := storagetest.Open(t, storage.Options{})
	const m = "wm_00000000000000ee"
	putMatch(t, st, m, StatusFinished)
	if err := queue(st, example(m)); err != nil {
		t.Fatal(err)
	}
	// A's row pays 725 000; its job says a transfer of 725 001 was mined. B's is right.
	if err := st.WardenUpdate(func(tx storage.WardenTx) error {
		for seat, amount := range map[string]uint64{"A": 725_001, "B": 1_004_750} {
			var j Job
			if _, err := tx.Get(jobKey(m, seat), &j); err != nil {
				return err
			}
			j.Status, j.Amount, j.Nonce = JobConfirmed, amount, 1
			j.Tx = "0x" + strings.Repeat(map[string]string{"A": "a", "B": "b"}[seat], 64)
			j.Hashes = []string{j.Tx}
			if err := tx.Put(jobKey(m, seat), j); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	now := time.Date(2026, 12, 4, 3, 0, 0, 0, time.UTC)
	w := New(Options{Store: st, Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	for range 3 {
		if err := w.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := matchStatusOf(t, st, m); got != StatusSettling {
		t.Fatalf("match %s, want SETTLING", got)
	}
	if err := st.WardenView(func(tx storage.WardenTx) error {
		if tx.WardenSettled(m) {
			t.Error("Ledger rows written for a payout of the wrong amount")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var errLines []string
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, "level=ERROR") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 1 || !strings.Contains(errLines[0], "match="+m) || !strings.Contains(errLines[0], "seat=A") ||
		!strings.Contains(errLines[0], "amount=725001") || !strings.Contains(errLines[0], "paid_out=725000") {
		t.Fatalf("error-level log %q, want one line naming %s seat A, 725001 against 725000", errLines, m)
	}
	_, err := Audit(st)
	if err == nil || !strings.Contains(err.Error(), "match "+m+" seat A: payout job confirmed 725001, its Ledger row pays 725000") {
		t.Fatalf("Audit: %v, want the mismatch reported", err)
	}
}
