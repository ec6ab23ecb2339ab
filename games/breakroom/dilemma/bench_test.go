package dilemma

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
)

// BenchmarkMatch plays one whole four-seat match (the lobby's table size, the default config:
// the horizons the seed draws, about 26 iterations and 105 prompts on average) of random legal
// moves per op: each prompt cooperate or defect, drawn from a seeded source, answered a second
// after it opened; the match's own work only (New, every Act and the lines, prompts and states
// they write). The Auction's BenchmarkMatch is the same shape, so the games compare alike
// (docs/performance.md, "Break Room rules cost").
func BenchmarkMatch(b *testing.B) {
	b.ReportAllocs()
	rnd := rand.New(rand.NewPCG(1, 2))
	bodies := []json.RawMessage{json.RawMessage(`{"action":"cooperate"}`), json.RawMessage(`{"action":"defect"}`)}
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(TableSize, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: bodies[rnd.IntN(2)]}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHouseMatch plays one four-seat match of house bots (default config: about 26
// iterations, 105 prompts) per op.
func BenchmarkHouseMatch(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(4, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
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
