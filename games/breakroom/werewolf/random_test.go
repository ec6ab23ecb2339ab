package werewolf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// hostileBodies are move bodies no prompt accepts as they are, whatever the phase.
var hostileBodies = []string{
	``, `null`, `[]`, `"sleep"`, `{"action":1}`, `{}`, `{"action":"dance"}`, `{"action":"kill"}`,
	`{"action":"vote","target":"1"}`, `{"action":"vote","target":99}`, `{"action":"inspect","target":-1}`,
	`{"action":"protect","target":1.5}`, `{"action":"say"}`, `{"action":"say","message":""}`,
	`{"action":"say","message":"bell\u0007"}`, `{"action":"pass","message":"hi"}`, `{"action":"abstain","message":"x"}`,
	`{"action":"sleep","message":7}`, `{"action":"sleep","action":"sleep"}`, `{"action":"say","message":"` + string(bytes.Repeat([]byte("w"), 281)) + `"}`,
}

// snapshot is everything a refused input must leave as it was: every view, the open prompts and
// the next deadline.
func snapshot(m *match) string {
	var b []byte
	for v := 0; v <= len(m.seats); v++ {
		b = append(append(b, m.View(v).Bytes()...), '\n')
	}
	for _, p := range m.Prompts() {
		pj, _ := json.Marshal(p)
		b = append(b, pj...)
	}
	dl, ok := m.Deadline()
	return string(fmt.Appendf(b, "\n%v %v %d", dl, ok, m.seq))
}

// refusalCodes are the codes a hostile input may be refused with.
var refusalCodes = map[string]bool{
	breakroom.CodeBadRequest: true, breakroom.CodeNotSeated: true, breakroom.CodeNotYourTurn: true,
	breakroom.CodeStaleTurn: true, breakroom.CodeIllegalMove: true, breakroom.CodeBadMessage: true,
	breakroom.CodeMatchOver: true, CodeUnchanged: true,
}

// hostile sends tb's match one input that must be refused, drawn from rnd: a bad body on the
// open turn, a move for another seat or turn, a dead seat's move, a malformed presence. It
// fails the test unless the input is refused with a protocol code and changes nothing.
func hostile(tb *table, rnd *rand.Rand) {
	tb.t.Helper()
	m := tb.m
	p := tb.open()
	in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move}
	switch rnd.IntN(6) {
	case 0, 1, 2:
		in.Body = json.RawMessage(hostileBodies[rnd.IntN(len(hostileBodies))])
		if rnd.IntN(2) == 0 && len(p.Legal) > 0 { // a legal action with a target it may not name
			a := p.Legal[rnd.IntN(len(p.Legal))]
			in.Body = json.RawMessage(`{"action":"` + a.Name + `","target":` + strconv.Itoa(notIn(targetsOf(a), len(m.seats), rnd)) + `,"message":"x"}`)
			if len(targetsOf(a)) == 0 && a.Name != ActionSay && !bytes.Contains(a.Bounds, []byte("max_message_chars")) {
				in.Body = json.RawMessage(`{"action":"` + a.Name + `","message":"x"}`)
			} else if len(targetsOf(a)) == 0 {
				in.Body = json.RawMessage(`{"action":"` + a.Name + `","message":"` + string(bytes.Repeat([]byte("é"), m.cfg.MaxMessageChars+1)) + `"}`)
			}
		}
	case 3:
		in.Seat = 1 + (p.Seat+rnd.IntN(len(m.seats)-1))%len(m.seats) // another seat
		in.Body = randomBody(p, rnd)
	case 4:
		r, t, _ := breakroom.RoundTurn(p.Move)
		in.Move = breakroom.MoveOf(r, t+1+rnd.IntN(3))
		if rnd.IntN(2) == 0 {
			in.Move = breakroom.MoveOf(r+1, t)
		}
		in.Body = randomBody(p, rnd)
	case 5:
		in = games.Input{Seat: 1 + rnd.IntN(len(m.seats)+2), Kind: KindPresence, Body: json.RawMessage(`{"away":"yes"}`)}
		if rnd.IntN(2) == 0 {
			in.Kind = "lever"
		}
	}
	before := snapshot(m)
	st, err := m.Act(tb.now.Add(time.Millisecond), in)
	var ge *games.Error
	if err == nil || !errors.As(err, &ge) || !refusalCodes[ge.Code] {
		tb.t.Fatalf("hostile input %+v (%s): got %v and %d events, want a refusal with a protocol code", in, in.Body, err, len(st.Events))
	}
	if after := snapshot(m); after != before {
		tb.t.Fatalf("hostile input %+v (%s) refused with %v changed the match", in, in.Body, err)
	}
}

func targetsOf(a games.Action) []int {
	var b struct {
		Targets []int `json:"targets"`
	}
	_ = json.Unmarshal(a.Bounds, &b)
	return b.Targets
}

// notIn is a seat number (maybe out of range) that is not in ts.
func notIn(ts []int, n int, rnd *rand.Rand) int {
	for {
		c := rnd.IntN(n+3) - 1
		found := false
		for _, t := range ts {
			found = found || t == c
		}
		if !found {
			return c
		}
	}
}

// randomMatch plays a whole match of n seats from seed with rnd choosing every seat's conduct:
// random legal answers, quick or slow, with talk; missed deadlines (some seats reach the strike
// limit and leave); dropped connections and returns; and, when illegal is set, hostile inputs
// before answers (each must be refused and change nothing). after, when set, is called after
// every step. abandonAt > 0 abandons the match after that many prompts.
func randomMatch(t testing.TB, n int, seed [32]byte, opts string, rnd *rand.Rand, abandonAt int, illegal bool, after func(tb *table, st games.Step)) *table {
	tb := newTable(t, setupN(n, seed, opts))
	if after != nil {
		after(tb, games.Step{Events: tb.evs, Prompts: tb.m.Prompts()})
	}
	missRate := 3 + rnd.IntN(8)
	for prompts := 0; tb.m.phase == phasePlaying; prompts++ {
		if abandonAt > 0 && prompts == abandonAt {
			st := tb.m.Abandon(tb.now.Add(time.Duration(rnd.IntN(900))*time.Millisecond), "server_shutdown")
			tb.evs = append(tb.evs, st.Events...)
			if after != nil {
				after(tb, st)
			}
			return tb
		}
		p := tb.open()
		seat := breakroom.WireSeat(p.Seat)
		if rnd.IntN(10) == 0 {
			_, _ = tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)})
		} else if tb.m.seats[seat].away && rnd.IntN(2) == 0 {
			_, _ = tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)})
		}
		if illegal && rnd.IntN(3) == 0 {
			hostile(tb, rnd)
		}
		p = tb.open()
		var st games.Step
		if rnd.IntN(missRate) == 0 {
			st = tb.expire(seat)
		} else {
			left := p.Deadline.Sub(tb.now)
			d := time.Duration(1+rnd.Int64N(int64(left/time.Millisecond)-1)) * time.Millisecond
			st = tb.play(seat, d, string(randomBody(p, rnd)))
		}
		if after != nil {
			after(tb, st)
		}
	}
	return tb
}
