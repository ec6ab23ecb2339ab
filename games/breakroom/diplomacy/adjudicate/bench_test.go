package adjudicate

import (
	"math/rand/v2"
	"testing"

	"arena/games/breakroom/diplomacy/board"
)

// BenchmarkResolveDATC resolves every movement case of the DATC data set once per iteration.
func BenchmarkResolveDATC(b *testing.B) {
	type phase struct {
		units  []board.Unit
		orders []Order
	}
	var phases []phase
	for _, c := range loadCases(b, "testdata/datc.json") {
		m := datcMain{Start: c.Start, Orders: c.Orders}
		if c.Phase == "Retreat" {
			m = *c.Preceding
		}
		if c.Ignore != "" || (c.Phase != "Main" && c.Phase != "Retreat") {
			continue
		}
		phases = append(phases, phase{position(b, m.Start, m.Orders), accepted(parseAll(m.Orders, "Main", board.Movement))})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range phases {
			if _, err := Movement(p.units, p.orders); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(phases)), "phases/op")
}

// BenchmarkResolveDense resolves a 34-unit position (the most the 34 centres allow) with random
// door-legal orders, most of them moves, supports and convoys.
func BenchmarkResolveDense(b *testing.B) {
	r := rand.New(rand.NewPCG(34, 34))
	const sets = 64
	var us [sets][]board.Unit
	var os [sets][]Order
	for k := range us {
		us[k] = randomPosition(r, 34)
		os[k] = randomOrders(r, us[k])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % sets
		if _, err := Movement(us[k], os[k]); err != nil {
			b.Fatal(err)
		}
	}
}
