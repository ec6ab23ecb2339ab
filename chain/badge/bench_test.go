package badge

import (
	"context"
	"testing"
)

// BenchmarkResolve measures one resolution of a registered player: cached (a map lookup under
// a mutex) and uncached (agentOf over gRPC to the embedded devchain on loopback, GET of the
// card over HTTP on loopback, SHA-256, strict card parse, key checks).
func BenchmarkResolve(b *testing.B) {
	w := newWorld(b)
	id := w.register(reg{owner: w.player, spec: player("Bench")}).String()
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		mod  func(*Config)
	}{
		{"cached", nil},
		{"uncached", func(c *Config) { c.TTL = -1 }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := w.resolver(bc.mod)
			if _, err := r.Resolve(ctx, id); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := r.Resolve(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
