package market

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"arena/actors"
	"arena/storage"
	"arena/storage/storagetest"
)

// BenchmarkDoTransfer measures one accepted mutation through the actor on a real store: Apply,
// the Delta's JSON, one bbolt transaction (with and without fsync), Commit and the answer. Two
// Players pass one credit back and forth, so every request is a transfer that moves.
func BenchmarkDoTransfer(b *testing.B) {
	for _, sync := range []bool{false, true} {
		b.Run(fmt.Sprint("fsync=", sync), func(b *testing.B) {
			s, err := storage.Open(storagetest.Path(b), storage.Options{NoSync: !sync})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			m, err := Start(newSystem(b), s, actors.NewFakeClock(t0), testConfig(), [32]byte{9}, Options{Name: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			owners := []string{"owner-a", "owner-b"}
			var pids []string
			for _, o := range owners {
				res, err := m.Do(ctx, o, []byte(enroll))
				if err != nil {
					b.Fatal(err)
				}
				var r struct {
					Result struct {
						PlayerID string `json:"playerId"`
					} `json:"result"`
				}
				if err := json.Unmarshal(res, &r); err != nil {
					b.Fatal(err)
				}
				pids = append(pids, r.Result.PlayerID)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				from := i % 2
				body := fmt.Sprintf(`{"protocolVersion":2,"commandId":"t-%d","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":1}`, i, pids[1-from])
				res, err := m.Do(ctx, owners[from], []byte(body))
				if err != nil || len(res) < 30 || string(res[:29]) != `{"protocolVersion":2,"ok":tru` {
					b.Fatalf("%s: %v", res, err)
				}
				i++
			}
		})
	}
}

// BenchmarkDoTransferParallel is BenchmarkDoTransfer from many callers at once (GOMAXPROCS ×
// -cpu… goroutines, each a pair of Players passing credits), so requests gather while a write
// is in flight and share its transaction: ns/op is the wall time per accepted mutation, and
// deltas/write how many shared each commit.
func BenchmarkDoTransferParallel(b *testing.B) {
	for _, sync := range []bool{false, true} {
		b.Run(fmt.Sprint("fsync=", sync), func(b *testing.B) {
			s, err := storage.Open(storagetest.Path(b), storage.Options{NoSync: !sync})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var writes, deltas atomic.Int64
			m, err := Start(newSystem(b), s, actors.NewFakeClock(t0), testConfig(), [32]byte{9}, Options{Name: "bench-par",
				OnCommit: func(n int, _ time.Duration, _ error) { writes.Add(1); deltas.Add(int64(n)) }})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var pair atomic.Int64
			b.SetParallelism(32)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				k := pair.Add(1)
				owners := []string{fmt.Sprint("a-", k), fmt.Sprint("b-", k)}
				var pids []string
				for _, o := range owners {
					res, err := m.Do(ctx, o, []byte(enroll))
					if err != nil {
						b.Error(err)
						return
					}
					var r struct {
						Result struct {
							PlayerID string `json:"playerId"`
						} `json:"result"`
					}
					_ = json.Unmarshal(res, &r)
					pids = append(pids, r.Result.PlayerID)
				}
				for i := 0; pb.Next(); i++ {
					from := i % 2
					body := fmt.Sprintf(`{"protocolVersion":2,"commandId":"t-%d","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":1}`, i, pids[1-from])
					res, err := m.Do(ctx, owners[from], []byte(body))
					if err != nil || len(res) < 30 || string(res[:29]) != `{"protocolVersion":2,"ok":tru` {
						b.Errorf("%s: %v", res, err)
						return
					}
				}
			})
			if w := writes.Load(); w > 0 {
				b.ReportMetric(float64(deltas.Load())/float64(w), "deltas/write")
			}
		})
	}
}
