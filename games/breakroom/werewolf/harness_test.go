package werewolf

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

var t0 = time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)

// seq0 is the seed 00 01 02 … 1f of §1.6's and §3.10's vectors.
func seq0() [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// setupN is a Setup of n seats with the given options JSON ("" for none).
func setupN(n int, seed [32]byte, opts string) games.Setup {
	s := games.Setup{Game: GameID, Round: "m_test", Seed: seed, Start: t0}
	for i := 1; i <= n; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: fmt.Sprintf("%064x", i), Name: fmt.Sprintf("Agent %d", i)})
	}
	if opts != "" {
		s.Options = json.RawMessage(opts)
	}
	return s
}

// table drives one match and keeps everything it wrote.
type table struct {
	t   testing.TB
	m   *match
	evs []games.Event
	now time.Time
}

func newTable(t testing.TB, s games.Setup) *table {
	t.Helper()
	mm, err := Engine{}.New(s, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	tb := &table{t: t, m: mm.(*match), now: s.Start}
	tb.advance(s.Start)
	return tb
}

func (tb *table) advance(at time.Time) games.Step {
	st := tb.m.Advance(at)
	tb.evs = append(tb.evs, st.Events...)
	tb.now = at
	return st
}

// open is the one open prompt; the test fails without one.
func (tb *table) open() games.Prompt {
	tb.t.Helper()
	ps := tb.m.Prompts()
	if len(ps) != 1 {
		tb.t.Fatalf("%d prompts open, want 1", len(ps))
	}
	return ps[0]
}

// play answers the open prompt, which must be wire seat's, after d, with body.
func (tb *table) play(seat int, d time.Duration, body string) games.Step {
	tb.t.Helper()
	p := tb.open()
	if p.Seat != breakroom.HouseSeat(seat) {
		tb.t.Fatalf("open prompt is seat %d's, want %d's (%s)", breakroom.WireSeat(p.Seat), seat, body)
	}
	at := tb.now.Add(d)
	in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(body)}
	st, err := tb.m.Act(at, in)
	if err != nil {
		tb.t.Fatalf("seat %d %s: %v", seat, body, err)
	}
	tb.evs = append(tb.evs, st.Events...)
	tb.now = at
	return st
}

// do plays seat's action (with a target ≥ 0) a second after the last step.
func (tb *table) do(seat int, action string, target int) games.Step {
	tb.t.Helper()
	body := `{"action":"` + action + `"}`
	if target >= 0 {
		body = fmt.Sprintf(`{"action":%q,"target":%d}`, action, target)
	}
	return tb.play(seat, time.Second, body)
}

// say plays seat's say with text.
func (tb *table) say(seat int, text string) games.Step {
	tb.t.Helper()
	b, _ := json.Marshal(map[string]string{"action": ActionSay, "message": text})
	return tb.play(seat, time.Second, string(b))
}

// expire lets the open prompt (wire seat's) reach its deadline.
func (tb *table) expire(seat int) games.Step {
	tb.t.Helper()
	p := tb.open()
	if p.Seat != breakroom.HouseSeat(seat) {
		tb.t.Fatalf("open prompt is seat %d's, want %d's", breakroom.WireSeat(p.Seat), seat)
	}
	return tb.advance(p.Deadline)
}

// lines are the table's events as log lines.
func (tb *table) lines() [][]byte {
	tb.t.Helper()
	var out [][]byte
	for _, e := range tb.evs {
		b, err := breakroom.Line(e)
		if err != nil {
			tb.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// ofType are the payloads of the events of type typ, decoded into maps.
func (tb *table) ofType(typ string) []map[string]any {
	var out []map[string]any
	for _, e := range tb.evs {
		if e.Type == typ {
			var m map[string]any
			if err := json.Unmarshal(e.Payload, &m); err != nil {
				tb.t.Fatal(err)
			}
			out = append(out, m)
		}
	}
	return out
}

// randomSeed is a seed drawn from rnd.
func randomSeed(rnd *rand.Rand) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(rnd.Uint32())
	}
	return s
}

func newRand(k uint64) *rand.Rand { return rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15)) }
