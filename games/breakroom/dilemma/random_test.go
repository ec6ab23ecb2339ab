package dilemma

import (
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// randomMatch plays a whole match of n seats from seed with rnd choosing every seat's conduct:
// quick or slow answers, talk, missed deadlines (some seats reach the strike limit and sit out),
// dropped connections (away deadlines) and returns. abandonAt > 0 abandons the match after that
// many prompts.
func randomMatch(t testing.TB, n int, seed [32]byte, opts string, rnd *rand.Rand, abandonAt int) *table {
	tb := newTable(t, setupN(n, seed, opts))
	texts := []string{"Let us both cooperate.", "I defect on liars.", "line one\nline two", "日本語も話せます", "🙂"}
	for prompts := 0; tb.m.phase == phasePlaying; prompts++ {
		if abandonAt > 0 && prompts == abandonAt {
			st := tb.m.Abandon(tb.now.Add(time.Duration(rnd.IntN(900))*time.Millisecond), "server_shutdown")
			tb.evs = append(tb.evs, st.Events...)
			return tb
		}
		p := tb.open()
		seat := breakroom.WireSeat(p.Seat)
		// Now and then a seat sitting out comes back, or a seat drops.
		for i := range tb.m.seats {
			if tb.m.seats[i].sittingOut && rnd.IntN(4) == 0 {
				_ = tb.presence(i, false)
			}
		}
		if rnd.IntN(8) == 0 {
			_ = tb.presence(seat, true)
		} else if tb.m.seats[seat].away && rnd.IntN(2) == 0 {
			_ = tb.presence(seat, false)
		}
		p = tb.open()
		left := p.Deadline.Sub(tb.now)
		action := p.Legal[rnd.IntN(2)].Name
		switch k := rnd.IntN(10); {
		case k < 2:
			tb.expire(seat)
		case k < 4:
			tb.play(seat, time.Duration(1+rnd.Int64N(int64(left/time.Millisecond)-1))*time.Millisecond,
				`{"action":"`+action+`","message":`+quote(texts[rnd.IntN(len(texts))])+`}`)
		default:
			tb.play(seat, time.Duration(1+rnd.IntN(2000))*time.Millisecond%left, `{"action":"`+action+`"}`)
		}
	}
	return tb
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '\n':
			b = append(b, `\n`...)
		case '"':
			b = append(b, `\"`...)
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}

// randomSeed is a seed drawn from rnd.
func randomSeed(rnd *rand.Rand) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(rnd.Uint32())
	}
	return s
}

// eventsOf returns the payload types seen, for a test that wants a kind of line to have occurred.
func typesOf(evs []games.Event) map[string]int {
	out := map[string]int{}
	for _, e := range evs {
		out[e.Type]++
	}
	return out
}

func newRand(k uint64) *rand.Rand { return rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15)) }
