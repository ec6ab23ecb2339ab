package market

import (
	"fmt"
	"testing"
	"time"
)

// Expiry is drained in batches of at most 50, earliest deadline first, at the head of every
// request (one bump a pass) and by Expire; a due Exchange the sweep has not reached refuses
// commands exchange_not_open while its status still reads awaiting_counterparty.
func TestExpiryInBatches(t *testing.T) {
	cfg := testConfig()
	cfg.StartingAssets = []Holding{{"credits", 1000}, {"wood", 1000}}
	st := newMarket(t, cfg)
	enrol(t, st, "owner-a")
	b := enrol(t, st, "owner-b")
	var ids []string
	for i := range 120 {
		var x exView
		deadline := t0.Add(time.Minute + time.Duration(i)*time.Second).Format(time.RFC3339)
		must(t, st, "owner-a", t0, proposeBody(fmt.Sprint("p", i), b, goods("wood", 1), goods("credits", 1), deadline), &x)
		ids = append(ids, x.ExchangeID)
	}
	if d, ok := st.NextDeadline(); !ok || !d.Equal(t0.Add(time.Minute)) {
		t.Fatalf("next deadline %v %v", d, ok)
	}
	if h := holdingsOf(t, st, "owner-a"); h["wood"][1] != 120 {
		t.Fatalf("reserved %v", h)
	}
	late := t0.Add(time.Hour)
	v := st.version
	// A request drains 50, the oldest; the 51st is still awaiting but refuses commands.
	r := do(t, st, "owner-a", late, `{"protocolVersion":2,"action":"readInventory"}`)
	if st.version != v+1 || r.StateVersion != v+1 {
		t.Fatalf("one pass, one bump: %d → %d", v, st.version)
	}
	status := func(i int) string { return st.exs[ids[i]].Status }
	if status(49) != StatusExpired || status(50) != StatusAwaiting {
		t.Fatalf("after one pass: #49 %s #50 %s", status(49), status(50))
	}
	refused(t, st, "owner-b", late, respondBody("late", ids[119], 1, st.exs[ids[119]].live().TermsHash, "approve"), CodeExchangeNotOpen)
	if status(119) != StatusAwaiting || st.version != v+2 {
		t.Fatalf("the refused request's own pass: #119 %s, version %d", status(119), st.version)
	}
	s := Expire(st, late)
	st.Commit(s.Delta)
	if s.Response != nil || status(119) != StatusExpired || st.version != v+3 || st.exs[ids[0]].Version != 2 {
		t.Fatalf("after Expire: #119 %s version %d", status(119), st.version)
	}
	if h := holdingsOf(t, st, "owner-a"); h["wood"][1] != 0 {
		t.Fatalf("reservations outlived expiry: %v", h)
	}
	if s := Expire(st, late); !s.Delta.Empty() || s.Delta.StateVersion != st.version {
		t.Fatalf("an idle pass changed something: %+v", s.Delta)
	}
	if _, ok := st.NextDeadline(); ok {
		t.Fatal("a deadline with nothing open")
	}
	checkInvariants(t, st)
}
