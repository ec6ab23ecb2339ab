package market

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	gm "arena/games/market"
	"arena/storage"
	"arena/storage/storagetest"
)

// The actor stops in the middle of a burst of transfers from eight Players (groups in flight
// and queued): on the reopened bbolt file every accepted command is there (its retry is its
// first answer byte for byte), and nothing is half-applied (each Player's Holdings are the
// Starting Assets moved by exactly the Ledger rows stored, and every Asset sums to what was
// issued).
func TestAnsweredCommandsSurviveAStopMidBurst(t *testing.T) {
	path := storagetest.Path(t)
	s, err := storage.Open(path, storage.Options{NoSync: true}) // one process: the page cache is the disk
	if err != nil {
		t.Fatal(err)
	}
	sys := newSystem(t)
	clock := actors.NewFakeClock(t0)
	// The requests queued when the actor stops are never answered: their askers give up
	// after AskTimeout.
	m, err := Start(sys, s, clock, testConfig(), [32]byte{9}, Options{Name: "market-burst", AskTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	owners, pids := make([]string, n), make([]string, n)
	for i := range n {
		owners[i] = fmt.Sprint("owner-", i)
		pids[i] = do(t, m, owners[i], enroll)["result"].(map[string]any)["playerId"].(string)
	}
	type answer struct {
		owner      string
		body, resp []byte
	}
	var (
		mu       sync.Mutex
		answered []answer
		count    atomic.Int64
		stopped  = make(chan struct{})
		once     sync.Once
		wg       sync.WaitGroup
	)
	for i := range n {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(7, uint64(i)))
			for k := 0; ; k++ {
				to := pids[(i+1+rng.IntN(n-1))%n]
				asset := []string{"credits", "wood"}[rng.IntN(2)]
				body := []byte(transferBody(fmt.Sprintf("burst-%d", k), to, asset, 1+rng.IntN(3)))
				resp, err := m.Do(context.Background(), owners[i], body)
				if err != nil {
					return // the actor is gone
				}
				mu.Lock()
				answered = append(answered, answer{owners[i], body, resp})
				mu.Unlock()
				if count.Add(1) == 300 {
					once.Do(func() { close(stopped) })
				}
			}
		})
	}
	<-stopped
	sys.Root.Stop(m.pid) // mid-burst: a write in flight, requests queued behind it
	wg.Wait()
	m.writing.Lock() // the last write has returned
	m.writing.Unlock()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	storagetest.Check(t, path)

	s2, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	// What the stored Deltas moved, per Inventory and Asset.
	moved := map[string]map[string]int64{}
	deltas := 0
	if err := s2.MarketDeltas(func(_ uint64, b []byte) error {
		var d gm.Delta
		if err := json.Unmarshal(b, &d); err != nil {
			return err
		}
		deltas++
		for _, r := range d.Ledger {
			for id, q := range map[string]int64{r.From: -r.Quantity, r.To: r.Quantity} {
				if moved[id] == nil {
					moved[id] = map[string]int64{}
				}
				moved[id][r.AssetID] += q
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	m2 := start(t, newSystem(t), s2, clock, "market-burst-2")
	accepted := 0
	for _, a := range answered {
		if !bytes.HasPrefix(a.resp, []byte(`{"protocolVersion":2,"ok":true,`)) {
			continue // a refusal consumed no commandId: its retry would be a fresh attempt
		}
		accepted++
		got, err := m2.Do(context.Background(), a.owner, a.body)
		if err != nil || !bytes.Equal(got, a.resp) {
			t.Fatalf("%s after the stop: %s %v, first answered %s", a.body, got, err, a.resp)
		}
	}
	if len(answered) < 300 || accepted < 200 || deltas < n+accepted {
		t.Fatalf("%d answered (%d accepted), %d deltas stored", len(answered), accepted, deltas)
	}
	var sum = map[string]int64{}
	for i := range n {
		inv := do(t, m2, owners[i], `{"protocolVersion":2,"action":"readInventory"}`)["raw"].(string)
		for _, h := range testConfig().StartingAssets {
			// Starting Assets arrive as Ledger rows from @issuance, so moved holds them too.
			q := moved[pids[i]][h.AssetID]
			if !strings.Contains(inv, holding(h.AssetID, int(q), 0)) {
				t.Fatalf("player %d holds %s, the stored Ledger moved %d %s", i, inv, q, h.AssetID)
			}
			sum[h.AssetID] += q
		}
	}
	for _, h := range testConfig().StartingAssets {
		if sum[h.AssetID] != n*h.Quantity {
			t.Fatalf("%s sums to %d over the Players, issued %d", h.AssetID, sum[h.AssetID], n*h.Quantity)
		}
	}
	t.Logf("%d answered before the stop, %d deltas stored", len(answered), deltas)
}
