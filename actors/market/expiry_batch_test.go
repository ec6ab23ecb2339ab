package market

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/actors"
	gm "arena/games/market"
)

// 120 Exchanges whose deadlines all fall on one tick (100 of Ada's, 20 of Bo's), and no
// request: the timer drains them pass after pass, 50, 50 and 20, each pass one saved Delta and one bump, until none is open and
// every reservation is released; the market then answers at the State Version those three
// passes left.
func TestExpiryBatchesOnOneTick(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	clock := actors.NewFakeClock(t0)
	m := start(t, sys, store, clock, "market-tick")
	pidA := do(t, m, "owner-a", enroll)["result"].(map[string]any)["playerId"].(string)
	pidB := do(t, m, "owner-b", enroll)["result"].(map[string]any)["playerId"].(string)
	const n = 120
	for i := range n {
		from, to := "owner-a", pidB
		if i >= 100 {
			from, to = "owner-b", pidA
		}
		r := do(t, m, from, fmt.Sprintf(`{"protocolVersion":2,"commandId":"offer-%d","action":"proposeExchange","counterpartyPlayerId":%q,`+
			`"offered":[{"assetId":"credits","quantity":1}],"requested":[{"assetId":"wood","quantity":1}],"expiresAt":"2026-03-01T12:01:00Z"}`, i, to))
		if r["ok"] != true {
			t.Fatalf("offer %d: %s", i, r["raw"])
		}
	}
	for len(store.saved) > 0 {
		<-store.saved
	}
	saved, version := store.count(), uint64(2+n)
	if m.Version() != version {
		t.Fatalf("Version %d before the tick, want %d", m.Version(), version)
	}
	clock.Advance(2 * time.Minute)
	for pass := range 3 {
		select {
		case <-store.saved:
		case <-time.After(10 * time.Second):
			t.Fatalf("expiry pass %d was never saved", pass+1)
		}
	}
	inv := do(t, m, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`)
	if !strings.Contains(inv["raw"].(string), `{"assetId":"credits","quantity":100,"reserved":0,"available":100}`) || inv["stateVersion"] != float64(version+3) {
		t.Fatalf("after the tick: %s, want credits unreserved at stateVersion %d", inv["raw"], version+3)
	}
	if store.count() != saved+3 {
		t.Fatalf("%d Deltas saved for the tick, want 3 passes", store.count()-saved)
	}
	l := do(t, m, "owner-b", `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":100}`)
	if xs := l["result"].(map[string]any)["exchanges"].([]any); len(xs) != 0 {
		t.Fatalf("%d Exchanges still open after the tick", len(xs))
	}
	l = do(t, m, "owner-b", `{"protocolVersion":2,"action":"listExchanges","status":"`+gm.StatusExpired+`","limit":100}`)
	if xs := l["result"].(map[string]any)["exchanges"].([]any); len(xs) != 100 || l["result"].(map[string]any)["nextCursor"] == nil {
		t.Fatalf("%d expired Exchanges on the first page, want 100 and a cursor", len(xs))
	}
	inv = do(t, m, "owner-b", `{"protocolVersion":2,"action":"readInventory"}`)
	if !strings.Contains(inv["raw"].(string), `{"assetId":"credits","quantity":100,"reserved":0,"available":100}`) {
		t.Fatalf("Bo after the tick: %s", inv["raw"])
	}
}
