package diplomacy

import (
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
)

// BenchmarkMatch is a whole match at the default config (1901–1906, two press rounds), every
// prompt answered a second after it opened with conformance's random answer (random press,
// random door-legal orders, now and then a timeout).
func BenchmarkMatch(b *testing.B) {
	c := conformance()
	c.Setup.Options = nil
	rounds := 0
	for i := 0; i < b.N; i++ {
		seed := seq0()
		seed[0] = byte(i)
		s := c.Setup
		s.Seed = seed
		m, err := c.Engine.New(s, nil)
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 9))
		for {
			dl, ok := m.Deadline()
			if !ok {
				break
			}
			m.Advance(dl)
			now := dl
			for {
				ps := m.Prompts()
				if len(ps) == 0 {
					break
				}
				p := ps[0]
				now = now.Add(time.Second)
				body := c.Answer(p, r)
				if body == nil || !now.Before(p.Deadline) {
					break // a timeout: the next Advance plays the default
				}
				if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err != nil {
					b.Fatal(err)
				}
			}
		}
		rounds += m.(*match).round
	}
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/op")
}
