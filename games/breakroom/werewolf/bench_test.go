package werewolf

import (
	"testing"
	"time"

	"arena/games"
)

// BenchmarkMatch plays one seven-seat match of random legal moves (talk now and then, every
// seat on time) per op: the deal, every prompt's state and legal actions, every line.
func BenchmarkMatch(b *testing.B) {
	b.ReportAllocs()
	rnd := newRand(1)
	prompts := 0
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(7, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: randomBody(p, rnd)}); err != nil {
				b.Fatal(err)
			}
			prompts++
		}
	}
	b.ReportMetric(float64(prompts)/float64(b.N), "prompts/op")
}

// BenchmarkHouseMatch plays one seven-seat match of house bots per op.
func BenchmarkHouseMatch(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(7, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: Engine{}.HouseAnswer(p, 0)}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
