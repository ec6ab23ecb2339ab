package market

import (
	"fmt"
	"net/http"
	"testing"
)

// BenchmarkDoors is one request through each door over real HTTP (loopback): the key lookup, the
// market actor and, for a transfer, its fsync'd write to a real store; what a caller waits for,
// one request at a time.
func BenchmarkDoors(b *testing.B) {
	for _, d := range doors {
		for _, kind := range []string{"query", "transfer"} {
			b.Run(d.name+"/"+kind, func(b *testing.B) {
				r := newRig(b, Gateway{})
				keys := []string{r.key("owner-bench-a", ""), r.key("owner-bench-b", "")}
				var ids [2]string
				for i, k := range keys {
					_, e := r.post(k, nil, `{"protocolVersion":2,"commandId":"e","action":"enroll"}`)
					ids[i] = decode(b, e).field(b, "playerId")
				}
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					from := n % 2 // the two alternate, so the credits never run out
					body := `{"protocolVersion":2,"action":"readInventory"}`
					if kind == "transfer" {
						body = fmt.Sprintf(`{"protocolVersion":2,"commandId":"t%d","action":"transfer","toPlayerId":%q,"assetId":"credits","quantity":1}`, n, ids[1-from])
					}
					st, out := d.send(r, keys[from], nil, body)
					if st != http.StatusOK || decode(b, out).code() != "" {
						b.Fatalf("%d %s", st, out)
					}
					r.public = r.public[:0]
					n++
				}
			})
		}
	}
}
