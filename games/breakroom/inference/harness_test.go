package inference

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

var t0 = time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)

// seq0 is the key 00 01 02 … 1f of §1.6's and §2.10's vectors.
func seq0() [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

// withKey is options JSON ("" for none) with deal_key set to key.
func withKey(opts string, key [32]byte) json.RawMessage {
	m := map[string]any{}
	if opts != "" {
		if err := json.Unmarshal([]byte(opts), &m); err != nil {
			panic(err)
		}
	}
	m[DealKeyOption] = DealKeyHex(key)
	b, _ := json.Marshal(m)
	return b
}

// setupN is a Setup of n seats, match id "m_test", seed and deal key as given, options opts.
func setupN(n int, seed, key [32]byte, opts string) games.Setup {
	s := games.Setup{Game: GameID, Round: "m_test", Seed: seed, Start: t0, Options: withKey(opts, key)}
	for i := 1; i <= n; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: fmt.Sprintf("%064x", i), Name: fmt.Sprintf("Agent %d", i)})
	}
	return s
}

// table drives one match and keeps everything it wrote.
type table struct {
	t   testing.TB
	m   *match
	evs []games.Event
	log []games.Logged
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
	tb.log = append(tb.log, games.Logged{Op: games.OpAdvance, At: at})
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
		tb.t.Fatalf("open prompt is seat %d's, want %d's", breakroom.WireSeat(p.Seat), seat)
	}
	at := tb.now.Add(d)
	in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(body)}
	st, err := tb.m.Act(at, in)
	if err != nil {
		tb.t.Fatalf("seat %d %s: %v", seat, body, err)
	}
	tb.log = append(tb.log, games.Logged{Op: games.OpAct, At: at, Input: in})
	tb.evs = append(tb.evs, st.Events...)
	tb.now = at
	return st
}

// move plays body for seat a second later.
func (tb *table) move(seat int, body string) games.Step {
	tb.t.Helper()
	return tb.play(seat, time.Second, body)
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

// presence sends seat's presence input at now; it may be refused (unchanged).
func (tb *table) presence(seat int, away bool) error {
	in := games.Input{Seat: breakroom.HouseSeat(seat), Kind: KindPresence, Body: json.RawMessage(fmt.Sprintf(`{"away":%t}`, away))}
	st, err := tb.m.Act(tb.now, in)
	if err == nil {
		tb.log = append(tb.log, games.Logged{Op: games.OpAct, At: tb.now, Input: in})
		tb.evs = append(tb.evs, st.Events...)
	}
	return err
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

// publicLog is the log as /r/{id}.jsonl serves it after the end: every line shown to a
// spectator once the match has ended (deal_private never is), JSONL.
func (tb *table) publicLog() []byte {
	var out []byte
	for _, e := range tb.evs {
		if !e.Visibility.Shows(0, true) {
			continue
		}
		b, err := breakroom.Line(e)
		if err != nil {
			tb.t.Fatal(err)
		}
		out = append(append(out, b...), '\n')
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
