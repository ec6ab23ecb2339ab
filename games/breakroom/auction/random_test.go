package auction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// illegal is one refused move: its body and the code §1.3 gives it.
type illegal struct {
	body string
	code string
}

// illegalMoves are moves a seat holding cash must have refused, each with its code, in §1.3's
// order of checks.
func illegalMoves(cash int64, rnd *rand.Rand) []illegal {
	long := strings.Repeat("é", 281)
	out := []illegal{
		{`{"action":"raise","amount":3}`, breakroom.CodeIllegalMove},
		{`{"message":"hi"}`, breakroom.CodeIllegalMove},
		{`{"action":"BID","amount":1}`, breakroom.CodeIllegalMove},
		{`{"action":"pass","message":"` + long + `"}`, breakroom.CodeBadMessage},
		{`{"action":"pass","message":"a\u0007"}`, breakroom.CodeBadMessage},
		{`[1]`, breakroom.CodeBadRequest},
		{`{"action":5}`, breakroom.CodeBadRequest},
		{`{"action":"bid","action":"pass"}`, breakroom.CodeBadRequest},
	}
	if cash >= 1 {
		out = append(out,
			illegal{`{"action":"bid"}`, breakroom.CodeBadAmount},
			illegal{`{"action":"bid","amount":0}`, breakroom.CodeBadAmount},
			illegal{fmt.Sprintf(`{"action":"bid","amount":%d}`, cash+1+rnd.Int64N(50)), breakroom.CodeBadAmount},
			illegal{`{"action":"bid","amount":-3}`, breakroom.CodeBadAmount},
			illegal{`{"action":"bid","amount":2.5}`, breakroom.CodeBadAmount},
			illegal{`{"action":"bid","amount":"10"}`, breakroom.CodeBadAmount},
			illegal{`{"action":"bid","amount":1,"message":"` + long + `"}`, breakroom.CodeBadMessage},
		)
	} else {
		out = append(out, illegal{`{"action":"bid","amount":1}`, breakroom.CodeIllegalMove})
	}
	return out
}

// snapshot is every viewer's view, the open prompts and the deadline, as bytes: what a refusal
// must not change.
func snapshot(m *match) []byte {
	var b []byte
	for v := 0; v <= len(m.seats)+1; v++ {
		b = append(append(b, m.View(v).Bytes()...), '\n')
	}
	for _, p := range m.Prompts() {
		pj, _ := json.Marshal(p)
		b = append(b, pj...)
	}
	dl, ok := m.Deadline()
	return fmt.Appendf(b, "%s %v %d", dl, ok, m.seq)
}

// randomMatch plays a whole match of n seats from seed with rnd choosing every seat's conduct:
// bids of any size up to its cash (above its value too), passes, talk, illegal moves (each must
// be refused with its code and change nothing), missed deadlines (some seats reach the strike
// limit and sit out), dropped connections (away deadlines) and returns. after, when not nil, is
// called after every step. abandonAt > 0 abandons the match after that many prompts.
func randomMatch(t testing.TB, n int, seed [32]byte, opts string, rnd *rand.Rand, abandonAt int, after func(*table)) *table {
	t.Helper()
	tb := newTable(t, setupN(n, seed, opts))
	if after != nil {
		after(tb)
	}
	texts := []string{"I am saving my cash.", "Bid high, lose big.", "line one\nline two", "日本語も話せます", "🙂"}
	for prompts := 0; tb.m.phase == phasePlaying; prompts++ {
		if abandonAt > 0 && prompts == abandonAt {
			st := tb.m.Abandon(tb.now.Add(time.Duration(rnd.IntN(900))*time.Millisecond), "server_shutdown")
			tb.evs = append(tb.evs, st.Events...)
			if after != nil {
				after(tb)
			}
			return tb
		}
		p := tb.open()
		seat := breakroom.WireSeat(p.Seat)
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
		cash := tb.m.seats[seat].cash
		if rnd.IntN(3) == 0 {
			bad := illegalMoves(cash, rnd)
			il := bad[rnd.IntN(len(bad))]
			before := snapshot(tb.m)
			st, err := tb.m.Act(tb.now.Add(time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(il.body)})
			ge, ok := err.(*games.Error)
			if !ok || ge.Code != il.code {
				t.Fatalf("seat %d (cash %d) %s: %v, want %s", seat, cash, il.body, err, il.code)
			}
			if len(st.Events)+len(st.Prompts) > 0 || !bytes.Equal(before, snapshot(tb.m)) {
				t.Fatalf("the refusal of %s changed the match", il.body)
			}
			// Another seat's move, or a stale one, is refused too.
			other := breakroom.HouseSeat((seat + 1 + rnd.IntN(n-1)) % n)
			if _, err := tb.m.Act(tb.now, games.Input{Seat: other, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"pass"}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeNotYourTurn {
				t.Fatalf("a move out of turn: %v", err)
			}
			if !bytes.Equal(before, snapshot(tb.m)) {
				t.Fatal("a move out of turn changed the match")
			}
		}
		left := p.Deadline.Sub(tb.now)
		body := `{"action":"pass"}`
		if cash >= 1 && rnd.IntN(5) > 0 {
			amount := 1 + rnd.Int64N(min(cash, 120))
			if rnd.IntN(4) == 0 {
				amount = 1 + rnd.Int64N(cash) // anything up to its cash
			}
			body = fmt.Sprintf(`{"action":"bid","amount":%d}`, amount)
		}
		switch k := rnd.IntN(10); {
		case k < 2:
			tb.expire(seat)
		case k < 4:
			body = body[:len(body)-1] + `,"message":` + quote(texts[rnd.IntN(len(texts))]) + `}`
			tb.play(seat, time.Duration(1+rnd.Int64N(int64(left/time.Millisecond)-1))*time.Millisecond, body)
		default:
			tb.play(seat, time.Duration(1+rnd.IntN(2000))*time.Millisecond%left, body)
		}
		if after != nil {
			after(tb)
		}
	}
	return tb
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// randomSeed is a seed drawn from rnd.
func randomSeed(rnd *rand.Rand) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(rnd.Uint32())
	}
	return s
}

// typesOf counts the events of each type.
func typesOf(evs []games.Event) map[string]int {
	out := map[string]int{}
	for _, e := range evs {
		out[e.Type]++
	}
	return out
}

func newRand(k uint64) *rand.Rand { return rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15)) }
