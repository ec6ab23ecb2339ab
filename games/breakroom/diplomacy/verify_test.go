package diplomacy

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

func jsonl(t *testing.T, evs []games.Event) [][]byte {
	t.Helper()
	var out [][]byte
	for _, e := range evs {
		b, err := breakroom.Line(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// playLog plays a whole match of seed with conformance's random answers, answering each prompt
// a second after it opened (some time out), and returns its events.
func playLog(t *testing.T, seed [32]byte, opts string) []games.Event {
	t.Helper()
	c := conformance()
	s := setup(seed, opts)
	mm, err := Engine{}.New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(seed[0]), 5))
	var evs []games.Event
	for {
		dl, ok := mm.Deadline()
		if !ok {
			return evs
		}
		evs = append(evs, mm.Advance(dl).Events...)
		now := dl
		for {
			ps := mm.Prompts()
			if len(ps) == 0 {
				break
			}
			p := ps[0]
			now = now.Add(time.Second)
			body := c.Answer(p, r)
			if body == nil || !now.Before(p.Deadline) {
				break
			}
			st, err := mm.Act(now, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, st.Events...)
		}
	}
}

// TestVerify: the logs of random matches, of §6.15 and of a power going into civil disorder and
// back re-simulate line for line; an altered order, result or seed is caught at its line.
func TestVerify(t *testing.T) {
	for k := byte(1); k <= 4; k++ {
		seed := seq0()
		seed[0] = k
		lines := jsonl(t, playLog(t, seed, `{"last_year":1903,"turn_deadline_ms":1500,"orders_deadline_ms":3000,"away_deadline_ms":500}`))
		if rep := Verify(lines); !rep.OK {
			t.Fatalf("seed %d: %+v", k, rep)
		}
	}
	tb := newTable(t, setup(seq0(), `{"press_rounds":0}`))
	for phase := 0; phase < 3; phase++ {
		tb.timeout()
		for _, s := range []int{1, 2, 3, 4} {
			tb.play(s, orders())
		}
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 1, Kind: KindPresence, Body: []byte(`{"away":false}`)}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{1, 2, 3, 4} {
		tb.play(s, orders())
	}
	tb.evs = append(tb.evs, tb.m.Abandon(tb.now.Add(time.Second), "operator").Events...)
	lines := jsonl(t, tb.evs)
	if rep := Verify(lines); !rep.OK {
		t.Fatalf("civil disorder and back, abandoned: %+v", rep)
	}

	lines = jsonl(t, playLog(t, seq0(), `{"last_year":1902}`))
	for _, c := range []struct{ old, new, typ string }{
		{`"orders":["`, `"orders":["A swi H","`, "action_private"}, // the door refuses it: the re-simulation stops there
		{`"result":"succeeds"`, `"result":"fails"`, "adjudication"},
	} {
		bad := make([][]byte, len(lines))
		at := -1
		for i, l := range lines {
			bad[i] = l
			if at < 0 && bytes.Contains(l, []byte(c.old)) && bytes.Contains(l, []byte(`"type":"`+c.typ+`"`)) {
				bad[i], at = bytes.Replace(l, []byte(c.old), []byte(c.new), 1), i
			}
		}
		if at < 0 {
			t.Fatalf("the match never wrote %s in a %s line", c.old, c.typ)
		}
		if rep := Verify(bad); rep.OK || rep.At > at+1 || rep.At < 0 {
			t.Errorf("%s altered at line %d: %+v", c.typ, at, rep)
		}
	}
	tail := append([][]byte(nil), lines...)
	tail[len(tail)-1] = []byte(strings.Replace(string(tail[len(tail)-1]), `"seed":"`, `"seed":"ff`, 1))
	if rep := Verify(tail); rep.OK {
		t.Error("an altered seed verifies")
	}
}
