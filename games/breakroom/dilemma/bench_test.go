package dilemma

import (
	"testing"
	"time"

	"arena/games"
)

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
