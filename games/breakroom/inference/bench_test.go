package inference

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
)

// BenchmarkMatch plays one whole six-seat match (default config: 40 hands) of random legal
// moves per op, a second apart, no talk, no timeouts.
func BenchmarkMatch(b *testing.B) {
	b.ReportAllocs()
	rnd := newRand(1)
	for i := 0; b.Loop(); i++ {
		mm, err := Engine{}.New(setupN(6, [32]byte{byte(i), byte(i >> 8)}, [32]byte{byte(i), 1}, ""), nil)
		if err != nil {
			b.Fatal(err)
		}
		m := mm.(*match)
		now := t0
		m.Advance(now)
		for m.phase == phasePlaying {
			p := m.open.prompt
			now = now.Add(time.Second)
			body, _ := json.Marshal(randomLegal(p, rnd))
			if _, err := m.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkVerify verifies one whole eight-seat match of 40 hands (random conduct: talk,
// timeouts, sit-outs, returns) from its public log per op.
func BenchmarkVerify(b *testing.B) {
	b.ReportAllocs()
	log := randomMatch(b, 8, "", newRand(3), 0, nil).publicLog()
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if rep := VerifyJSONL(log); !rep.OK {
			b.Fatalf("%+v", rep)
		}
	}
}

// BenchmarkDeal is the floor §2.2 sets under a hand: one `Deck` at the default deck_size (100),
// a Fisher–Yates of 99 HMAC-SHA256 draws. A match of the default 40 hands pays it 40 times
// whatever else the engine does.
func BenchmarkDeal(b *testing.B) {
	b.ReportAllocs()
	key := make([]byte, 32)
	for i := 0; b.Loop(); i++ {
		if d := Deck(key, i%40+1, 100); len(d) != 100 {
			b.Fatal(len(d))
		}
	}
}
