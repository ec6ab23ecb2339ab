package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors"
	"arena/actors/dotdotdot"
	"arena/actors/ledger"
	"arena/chain/badge"
	"arena/chain/devchain"
	"arena/games"
	"arena/storage"
)

// metricValue is the value of the gathered metric name (0 when absent).
func metricValue(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		var v float64
		for _, m := range mf.GetMetric() {
			v += m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
		return v
	}
	return 0
}

// fund sends amount microCCD from test-3 to the arena's account on the external node and waits
// for it to be final.
func (n *externalNode) fund(t testing.TB, amount uint64) {
	t.Helper()
	arena, _ := n.node.Account(devchain.AccountArena)
	n.send(t, func() ([32]byte, error) { return n.node.SendTransfer("test-3", arena.Address, amount) })
}

// drain sends amount microCCD from the arena's account to test-3 (money leaving it, as an
// operator's transfer would; the chain actor re-syncs its nonces after it).
func (n *externalNode) drain(t testing.TB, amount uint64) {
	t.Helper()
	t3, _ := n.node.Account("test-3")
	n.send(t, func() ([32]byte, error) { return n.node.SendTransfer(devchain.AccountArena, t3.Address, amount) })
}

func (n *externalNode) send(t testing.TB, f func() ([32]byte, error)) {
	t.Helper()
	h, err := f()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := n.node.WaitFinalized(ctx, h); err != nil {
		t.Fatal(err)
	}
}

// A hold is refused while the arena's account could not fund a table's house seats: the player
// is not asked for money the house could not match (bad_table, retry), nothing is held in the
// ledger, the refusal is counted; once the account is funded the same hold is taken.
func TestPaidHoldRefusedWhileTheHouseCannotFund(t *testing.T) {
	// Short tables: at worst two house seats of 50 CCD. The account holds 60.
	n := startExternalNode(t, 60_000_000, 0)
	reg := prometheus.NewRegistry()
	r := startPaidRig(t, t.TempDir(), rigOptions{Node: n, Funds: true, Metrics: reg})
	defer r.stop()
	ctx := context.Background()
	join := dotdotdot.AgentJoin{Agent: badge.NewAgentID(badge.Testnet, badge.TestnetRegistry, 5101).String(), Name: "Payer",
		Endpoint: "http://127.0.0.1:1/a2a", Human: true}
	_, err := r.pt.Hold(ctx, join, []string{r.caip("test-1")})
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != "bad_table" || !ge.Retry || !strings.Contains(ge.Msg, "60 CCD of the 100 CCD") {
		t.Fatalf("a hold the house cannot fund: %v", err)
	}
	st, err := r.pt.Ledger().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Holds) != 0 || st.Last != 0 {
		t.Fatalf("a refused hold is in the ledger: %+v", st.Holds)
	}
	if v := metricValue(t, reg, "arena_paid_unfunded_total"); v != 1 {
		t.Fatalf("arena_paid_unfunded_total %v, want 1", v)
	}
	n.fund(t, 40_000_000)
	h, err := r.pt.Hold(ctx, join, []string{r.caip("test-1")})
	if err != nil || h.SeatToken == "" {
		t.Fatalf("a hold the house can fund: %+v %v", h, err)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
}

// The money leaves the arena's account between a paid seat's deposit and starts_at: the table is
// not opened (no round plays with a pool the escrow would never receive), the seat's hold says
// failed, and the entry goes back to its payer, whole, on the escrow and in the ledger.
func TestPaidTableNotOpenedWhenTheHouseCannotFund(t *testing.T) {
	n := startExternalNode(t, 120_000_000, 0)
	reg := prometheus.NewRegistry()
	r := startPaidRig(t, t.TempDir(), rigOptions{Node: n, Funds: true, Metrics: reg})
	defer r.stop()
	ctx := context.Background()
	before := r.balance("test-1")
	h := r.hold(1, "test-1")
	r.deposit("test-1", h.SeatToken, paidEntry)
	n.drain(t, 100_000_000) // 20 CCD left: the two house seats need 100
	var c dotdotdot.PaidCheck
	eventually(t, 30*time.Second, 100*time.Millisecond, func() bool {
		var err error
		c, err = r.pt.Check(ctx, h.Hold, h.SeatToken)
		return err == nil && c.Status == storage.PaidFailed
	}, func() string { return fmt.Sprintf("the hold is %+v, want failed", c) })
	r.waitQuiet("", 30*time.Second)
	if got := r.balance("test-1"); got != before {
		t.Fatalf("the payer had %d, has %d after the refund", before, got)
	}
	if _, err := r.a.Stored(h.Table); !errors.Is(err, actors.ErrNoTable) {
		t.Fatalf("the table the house could not fund was opened: %v", err)
	}
	if v := metricValue(t, reg, "arena_paid_unfunded_total"); v != 1 {
		t.Fatalf("arena_paid_unfunded_total %v, want 1", v)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, _ := r.pt.Ledger().State(ctx)
	if got := st.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: paidEntry, Refunded: paidEntry}) {
		t.Fatalf("ledger %+v, want the entry received and refunded", got)
	}
	if bal, _ := n.node.EscrowBalance(); bal != 0 {
		t.Fatalf("the escrow keeps %d", bal)
	}
}

// open_round is refused in its block after the table opened (the arena's account held the
// house seats' entries when the table was opened, and its first anchor's fee took it below
// them): the ledger has the round's pot, the escrow has no round. The reconciliation reports it
// (arena_paid_escrow_mismatches) and sends open_round again; once the account is funded the
// round opens on the escrow, its mid-round anchor and settle follow (both refused before), the
// escrow settles it as the ledger did and keeps nothing, and the mismatch is gone.
func TestRefusedOpenRoundIsReconciled(t *testing.T) {
	n := startExternalNode(t, 2*paidEntry+100, 1) // fees of 1 microCCD per NRG
	reg := prometheus.NewRegistry()
	r := startPaidRig(t, t.TempDir(), rigOptions{Node: n, Funds: true, Metrics: reg})
	defer r.stop()
	ctx := context.Background()
	h := r.hold(1, "test-1")
	r.deposit("test-1", h.SeatToken, paidEntry)
	var c dotdotdot.PaidCheck
	eventually(t, 30*time.Second, 100*time.Millisecond, func() bool {
		c, _ = r.pt.Check(ctx, h.Hold, h.SeatToken)
		return c.Status == storage.PaidSeated && c.Round != ""
	}, func() string { return fmt.Sprintf("the seat is %+v, want seated", c) })
	round := c.Round
	var ms []dotdotdot.EscrowMismatch
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		ms, _ = r.pt.Reconcile(ctx)
		// While a retry is in flight the finding says it is pending; once the escrow has refused
		// it again it says why.
		return len(ms) == 1 && ms[0].Kind == dotdotdot.MismatchOpenRound && ms[0].Round == round && ms[0].Retry &&
			strings.Contains(ms[0].Detail, "amount_too_large")
	}, func() string {
		return fmt.Sprintf("mismatches %+v, want open_round of %s refused (amount_too_large) and retried", ms, round)
	})
	if v := metricValue(t, reg, "arena_paid_escrow_mismatches"); v != 1 {
		t.Fatalf("arena_paid_escrow_mismatches %v, want 1", v)
	}
	rn, _ := strconv.ParseUint(strings.TrimPrefix(round, "T-"), 10, 64)
	if _, ok, _ := n.node.EscrowRound(rn); ok {
		t.Fatal("the escrow holds the round before the account was funded")
	}
	n.fund(t, 10_000_000)
	r.waitQuiet(round, 90*time.Second)
	ms, err := r.pt.Reconcile(ctx)
	if err != nil || len(ms) != 0 {
		t.Fatalf("after the retry: mismatches %+v (%v)", ms, err)
	}
	if v := metricValue(t, reg, "arena_paid_escrow_mismatches"); v != 0 {
		t.Fatalf("arena_paid_escrow_mismatches %v, want 0", v)
	}
	if v := metricValue(t, reg, "arena_paid_escrow_retries_total"); v < 1 {
		t.Fatalf("arena_paid_escrow_retries_total %v, want at least 1", v)
	}
	er, _, _ := n.node.EscrowRound(rn)
	if len(er.Turns) != 1 || er.HouseFunds != 2*paidEntry || !er.Settled {
		t.Fatalf("escrow round %+v: want opened with the house seats' entries, one mid-round anchor, settled", er)
	}
	var paid uint64
	for _, p := range er.Payouts {
		paid += p.Amount
	}
	if paid != 3*paidEntry {
		t.Fatalf("the escrow paid out %d of a pool of %d", paid, 3*paidEntry)
	}
	if bal, _ := n.node.EscrowBalance(); bal != 0 {
		t.Fatalf("the escrow keeps %d", bal)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, _ := r.pt.Ledger().State(ctx)
	if got := st.Units[dotdotdot.PaidUnit]; got.Received != 3*paidEntry || got.Held != 0 || got.Staked != 0 || got.PaidOut+got.House != 3*paidEntry {
		t.Fatalf("ledger %+v", got)
	}
	// Reconciled rounds are written so: a restart reads them no more.
	var rec storage.PaidTable
	eventually(t, 10*time.Second, 50*time.Millisecond, func() bool {
		recs, _ := r.st.PaidTables()
		for _, rec = range recs {
			if rec.Round == round {
				return rec.Reconciled
			}
		}
		return false
	}, func() string { return fmt.Sprintf("round %s is not written reconciled: %+v", round, rec) })
}

// A refund the escrow refuses in its block (the ledger has refunded the money already): the
// reconciliation reports the disagreement and sends the same refund again (it names the payer's
// total, so it pays once) until it lands; the payer gets the deposit back once, and the mismatch
// is gone.
func TestRefusedRefundIsRetried(t *testing.T) {
	n := startExternalNode(t, 0, 0)
	n.node.SetFaults(devchain.Faults{RefuseCalls: map[string]int32{"escrow.refund": -8199}})
	reg := prometheus.NewRegistry()
	r := startPaidRig(t, t.TempDir(), rigOptions{Node: n, Funds: true, Metrics: reg})
	defer r.stop()
	ctx := context.Background()
	before := r.balance("test-2")
	// A deposit under a seat token the arena never issued goes back to its payer.
	r.deposit("test-2", "st_never_issued_by_the_arena", 7_000_000)
	var ms []dotdotdot.EscrowMismatch
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		ms, _ = r.pt.Reconcile(ctx)
		return len(ms) == 1 && ms[0].Kind == dotdotdot.MismatchRefund && ms[0].Retry && ms[0].Payer == r.caip("test-2")
	}, func() string { return fmt.Sprintf("mismatches %+v, want the refused refund to test-2", ms) })
	if !strings.Contains(ms[0].Detail, "-8199") {
		t.Fatalf("the mismatch does not say why the escrow refused: %s", ms[0].Detail)
	}
	// The operators' check (`arena ops check paid`) lists it.
	found, err := r.ag.opsChecks()["paid"](ctx)
	if m, ok := firstMismatch(found); err != nil || len(found) != 1 || !ok || m.Kind != dotdotdot.MismatchRefund || m.Payer != r.caip("test-2") {
		t.Fatalf("ops check paid: %+v (%v)", found, err)
	}
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		return metricValue(t, reg, "arena_paid_escrow_retries_total") >= 1
	}, func() string { return "the refused refund was not sent again" })
	st, _ := r.pt.Ledger().State(ctx)
	if got := st.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 7_000_000, Refunded: 7_000_000}) {
		t.Fatalf("ledger %+v: the refund is written before it is sent", got)
	}
	if got := r.balance("test-2"); got != before-7_000_000 {
		t.Fatalf("the payer has %d before the refund landed, had %d", got, before)
	}
	n.node.SetFaults(devchain.Faults{})
	r.waitQuiet("", 90*time.Second)
	if got := r.balance("test-2"); got != before {
		t.Fatalf("the payer had %d, has %d after the refund", before, got)
	}
	eventually(t, 30*time.Second, 200*time.Millisecond, func() bool {
		ms, _ = r.pt.Reconcile(ctx)
		return len(ms) == 0
	}, func() string { return fmt.Sprintf("mismatches %+v after the refund landed", ms) })
	if v := metricValue(t, reg, "arena_paid_escrow_mismatches"); v != 0 {
		t.Fatalf("arena_paid_escrow_mismatches %v, want 0", v)
	}
	if found, err := r.ag.opsChecks()["paid"](ctx); err != nil || len(found) != 0 {
		t.Fatalf("ops check paid after the refund landed: %+v (%v)", found, err)
	}
	if err := ledger.Audit(ctx, r.pt.Ledger()); err != nil {
		t.Fatal(err)
	}
	st, _ = r.pt.Ledger().State(ctx)
	if got := st.Units[dotdotdot.PaidUnit]; got != (ledger.Totals{Received: 7_000_000, Refunded: 7_000_000}) {
		t.Fatalf("ledger %+v after the refund landed: refunded once", got)
	}
}

func firstMismatch(found []any) (dotdotdot.EscrowMismatch, bool) {
	if len(found) == 0 {
		return dotdotdot.EscrowMismatch{}, false
	}
	m, ok := found[0].(dotdotdot.EscrowMismatch)
	return m, ok
}
