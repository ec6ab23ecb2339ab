package wardenpay

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/storage"
)

// TestVoidRefundsAFailedMatch: both stakes of a LIVE match clear, the match is parked FAILED,
// and the operator voids it: one write queues a full refund per seat, moves it REFUNDING and
// publishes match_voided; the Worker pays both refunds on chain and closes it. No Ledger row;
// the ledger invariant holds before and after. A second void and a void of another state or
// an unknown id are refused and change nothing.
func TestVoidRefundsAFailedMatch(t *testing.T) {
	r := newRig(t)
	const m = "wm_00000000000000f1"
	r.match(m, 0x61, 0x62, stakeS, 2*time.Minute)
	payA := r.stake(m, "A", 0x61, stakeS)
	payB := r.stake(m, "B", 0x62, stakeS)
	if st := r.status(m); st != "LIVE" {
		t.Fatalf("both staked: %s", st)
	}
	if _, err := Void(r.st, m, "operator", r.clock()); !errors.Is(err, ErrNotFailed) {
		t.Fatalf("void of a LIVE match: %v", err)
	}
	if _, err := Void(r.st, "wm_00000000000000f9", "operator", r.clock()); !errors.Is(err, ErrNoMatch) {
		t.Fatalf("void of no match: %v", err)
	}
	if err := r.st.WardenUpdate(func(tx storage.WardenTx) error { return setMatchStatus(tx, m, StatusFailed) }); err != nil {
		t.Fatal(err)
	}
	r.auditHook()
	jobs, err := Void(r.st, m, "operator", r.clock())
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || r.status(m) != StatusRefunding {
		t.Fatalf("void: jobs %+v, status %s", jobs, r.status(m))
	}
	for seat, want := range map[string]struct {
		who byte
		pay string
	}{"A": {0x61, payA}, "B": {0x62, payB}} {
		j := r.job(m, seat)
		if j.Kind != KindRefund || j.Amount != stakeS || j.To != contenderAddr(want.who).String() || j.Payment != want.pay || j.Status != JobQueued {
			t.Fatalf("seat %s job %+v", seat, j)
		}
	}
	if b := r.audit(0x61, 0x62); b.StakesIn != 2*stakeS || b.Refunded != 0 {
		t.Fatalf("books after the void %+v", b)
	}
	if _, err := Void(r.st, m, "operator", r.clock()); !errors.Is(err, ErrNotFailed) {
		t.Fatalf("second void: %v", err)
	}
	r.untilf(func() bool { return r.job(m, "A").Status == JobConfirmed && r.job(m, "B").Status == JobConfirmed }, 0x61, 0x62)
	r.advance(3 * time.Minute) // past the stake window's settle wait, as any parked match is
	r.until(m, StatusClosed, 0x61, 0x62)
	for _, c := range []byte{0x61, 0x62} {
		if got := r.chain.Balance(t, contenderAddr(c)); got != stakeS {
			t.Fatalf("contender %x holds %d, want its whole stake back", c, got)
		}
	}
	if b := r.audit(0x61, 0x62); b.StakesIn != 2*stakeS || b.Refunded != 2*stakeS || b.PaidOut != 0 {
		t.Fatalf("books %+v", b)
	}
	if h, _ := r.st.WardenHead(); h.Seq != 0 {
		t.Fatal("a voided match wrote a Ledger row")
	}
	types, data := r.events(m)
	if len(types) != 3 || types[0] != "match_voided" || count(types, "refund_sent") != 2 {
		t.Fatalf("events %v", types)
	}
	if c, _ := json.Marshal(data["match_voided"]); string(c) != `{"reason":"operator","refunds":[{"amount":1000000,"seat":"A","status":"queued"},{"amount":1000000,"seat":"B","status":"queued"}]}` {
		t.Fatalf("match_voided %s", c)
	}
}
