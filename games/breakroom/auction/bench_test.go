package auction

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
)

// BenchmarkMatch plays one whole five-seat match (the lobby's table size, the default config:
// 10 lots, 50 prompts) of random legal moves per op: each prompt a bid of 1..cash or a pass,
// drawn from a seeded source, answered a second after it opened; the match's own work only
// (New, every Act and the lines, prompts and states they write).
func BenchmarkMatch(b *testing.B) {
	b.ReportAllocs()
	rnd := rand.New(rand.NewPCG(1, 2))
	bodies := make([]json.RawMessage, 201)
	bodies[0] = json.RawMessage(`{"action":"pass"}`)
	for a := 1; a < len(bodies); a++ {
		bodies[a] = json.RawMessage(`{"action":"bid","amount":` + strconv.Itoa(a) + `}`)
	}
	for i := 0; b.Loop(); i++ {
		mm, _ := Engine{}.New(setupN(TableSize, [32]byte{byte(i), byte(i >> 8)}, ""), nil)
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			body := bodies[0]
			if cash := m.seats[m.open.seat].cash; cash >= 1 && rnd.IntN(4) > 0 {
				body = bodies[1+rnd.Int64N(min(cash, 200))]
			}
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHouseMatch plays one five-seat match of house bots (default config) per op.
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
