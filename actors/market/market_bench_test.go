package market

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

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
