package market

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/actors"
)

// send asks the actor without waiting and delivers its reply on the channel: requests sent
// one after another from one goroutine reach its mailbox in that order.
func send(m *Market, owner, body string) chan *Reply {
	f := m.sys.Root.RequestFuture(m.pid, &Request{Owner: owner, Body: []byte(body)}, 10*time.Second)
	c := make(chan *Reply, 1)
	go func() {
		res, err := f.Result()
		if err != nil {
			c <- &Reply{Err: err.Error()}
			return
		}
		c <- res.(*Reply)
	}()
	return c
}

// answered reports whether c holds a reply already (without waiting).
func answered(c chan *Reply) bool {
	select {
	case r := <-c:
		c <- r
		return true
	default:
		return false
	}
}

func waitEntered(t *testing.T, s *memStore) {
	t.Helper()
	select {
	case <-s.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("no write began")
	}
}

func transferBody(id, to, asset string, q int) string {
	return fmt.Sprintf(`{"protocolVersion":2,"commandId":%q,"action":"transfer","toPlayerId":%q,"assetId":%q,"quantity":%d}`, id, to, asset, q)
}

func holding(asset string, q, reserved int) string {
	return fmt.Sprintf(`{"assetId":%q,"quantity":%d,"reserved":%d,"available":%d}`, asset, q, reserved, q-reserved)
}

// Requests that arrive while a write is in flight are applied in order, each on the State the
// one before it left (B spends wood it holds only once the two transfers before are applied),
// and written together in one transaction; no answer leaves before its group is durable. A
// group whose write fails answers each of its requests unavailable and leaves nothing of any
// of them in memory; a request queued behind it runs again on the rebuilt State.
func TestGroupCommit(t *testing.T) {
	sys, store := newSystem(t), newMemStore()
	m := start(t, sys, store, actors.NewFakeClock(t0), "market-group")
	pidA := do(t, m, "owner-a", enroll)["result"].(map[string]any)["playerId"].(string)
	pidB := do(t, m, "owner-b", enroll)["result"].(map[string]any)["playerId"].(string)
	gate := make(chan error)
	store.setGate(gate)

	// One write in flight (r1); r2, r3 and a query gather behind it.
	r1 := send(m, "owner-a", transferBody("r1", pidB, "wood", 3))
	waitEntered(t, store)
	r2 := send(m, "owner-a", transferBody("r2", pidB, "wood", 5))
	r3 := send(m, "owner-b", transferBody("r3", pidA, "wood", 26)) // 20 + 3 + 5 = 28 held
	q := send(m, "owner-b", `{"protocolVersion":2,"action":"readInventory"}`)
	if answered(r1) {
		t.Fatal("r1 answered before its write returned")
	}
	gate <- nil // r1 lands; r2, r3 and the query go out as the next group
	if r := <-r1; r.Err != "" || !strings.Contains(string(r.Body), `"ok":true`) {
		t.Fatalf("r1: %+v", r)
	}
	waitEntered(t, store)
	if answered(r2) || answered(r3) || answered(q) {
		t.Fatal("answered before the group was durable")
	}
	gate <- nil
	for _, c := range []chan *Reply{r2, r3} {
		if r := <-c; r.Err != "" || !strings.Contains(string(r.Body), `"ok":true`) {
			t.Fatalf("%s %s", r.Body, r.Err)
		}
	}
	if r := <-q; !strings.Contains(string(r.Body), holding("wood", 2, 0)) {
		t.Fatalf("B after the group: %s", r.Body)
	}

	// A failing group: r5 and r5b (r5b spends what r5 brings A) are answered unavailable, r6
	// behind them runs again, and nothing of r5 or r5b is left.
	r4 := send(m, "owner-a", transferBody("r4", pidB, "credits", 10))
	waitEntered(t, store)
	r5 := send(m, "owner-b", transferBody("r5", pidA, "credits", 105))   // B: 100 + 10
	r5b := send(m, "owner-a", transferBody("r5b", pidB, "credits", 195)) // A: 100 − 10 + 105
	gate <- nil
	if r := <-r4; !strings.Contains(string(r.Body), `"ok":true`) {
		t.Fatalf("r4: %s %s", r.Body, r.Err)
	}
	waitEntered(t, store)
	r6 := send(m, "owner-b", transferBody("r6", pidA, "wood", 1))
	before := store.count()
	gate <- errors.New("disk full")
	for _, c := range []chan *Reply{r5, r5b} {
		if r := <-c; !strings.Contains(r.Err, ErrUnavailable.Error()) || r.Body != nil {
			t.Fatalf("in a failed group: %+v", r)
		}
	}
	waitEntered(t, store) // r6, again
	gate <- nil
	if r := <-r6; r.Err != "" || !strings.Contains(string(r.Body), `"ok":true`) {
		t.Fatalf("r6 after the failed group: %s %s", r.Body, r.Err)
	}
	store.setGate(nil)
	store.mu.Lock()
	groups := fmt.Sprint(store.groups)
	store.mu.Unlock()
	if groups != "[1 1 1 2 1 1]" || store.count() != before+1 { // enrolments, r1, r2+r3, r4, r6
		t.Fatalf("groups %s, %d deltas", groups, store.count())
	}
	inv := do(t, m, "owner-b", `{"protocolVersion":2,"action":"readInventory"}`)["raw"].(string)
	if !strings.Contains(inv, holding("credits", 110, 0)) || !strings.Contains(inv, holding("wood", 1, 0)) {
		t.Fatalf("B after the failed group: %s", inv)
	}
	inv = do(t, m, "owner-a", `{"protocolVersion":2,"action":"readInventory"}`)["raw"].(string)
	if !strings.Contains(inv, holding("credits", 90, 0)) || !strings.Contains(inv, holding("wood", 39, 0)) {
		t.Fatalf("A after the failed group: %s", inv)
	}
	// r5's and r5b's commandIds are free: their retries run for the first time.
	if r := do(t, m, "owner-b", transferBody("r5", pidA, "credits", 105)); r["ok"] != true {
		t.Fatalf("r5 retried: %s", r["raw"])
	}
	if r := do(t, m, "owner-a", transferBody("r5b", pidB, "credits", 195)); r["ok"] != true {
		t.Fatalf("r5b retried: %s", r["raw"])
	}
	// A fresh incarnation on the same records answers as this one does.
	m2 := start(t, newSystem(t), store, actors.NewFakeClock(t0), "market-group-2")
	read := `{"protocolVersion":2,"action":"readInventory"}`
	if got, want := do(t, m2, "owner-b", read)["raw"], do(t, m, "owner-b", read)["raw"]; got != want {
		t.Fatalf("replayed %s, live %s", got, want)
	}
}
