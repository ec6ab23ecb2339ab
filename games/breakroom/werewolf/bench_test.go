package werewolf

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
)

// benchBody is a random legal answer to the open prompt, built from the match's own legal
// entries (no JSON decoding, so the benchmark measures the match, not its driver): any offered
// action, a target from its list, a message for say and, one time in three, for a wolf.
func benchBody(m *match, rnd *rand.Rand) []byte {
	e := m.open.legal[rnd.IntN(len(m.open.legal))]
	b := append(make([]byte, 0, 96), `{"action":"`...)
	b = append(append(b, e.name...), '"')
	if len(e.targets) > 0 {
		b = strconv.AppendInt(append(b, `,"target":`...), int64(e.targets[rnd.IntN(len(e.targets))]), 10)
	}
	if e.needs || e.talk && rnd.IntN(3) == 0 {
		b = append(b, `,"message":"Seat 3 has been quiet all day."`...)
	}
	return append(b, '}')
}

// BenchmarkMatch plays one whole seven-seat match (the lobby's table size, the default config)
// of random legal moves per op: each prompt answered a second after it opened with an action,
// target and talk drawn from a seeded source; the match's own work only (New, the deal, every
// Act and the lines, prompts and states they write). prompts/op is the mean number of prompts.
func BenchmarkMatch(b *testing.B) {
	b.ReportAllocs()
	rnd := rand.New(rand.NewPCG(1, 2))
	prompts := 0
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(TableSize, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: benchBody(m, rnd)}); err != nil {
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
		mm, _ := Engine{}.New(setupN(TableSize, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
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
