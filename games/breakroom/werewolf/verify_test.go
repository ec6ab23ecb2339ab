package werewolf

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"arena/games"
)

func TestVerifyWorkedExample(t *testing.T) {
	tb := workedExample(t)
	lines := tb.lines()
	rep := Verify(lines)
	if !rep.OK || rep.Checked != len(lines) || rep.End != "match_end" {
		t.Fatalf("honest log: %+v", rep)
	}
	var jsonl []byte
	for _, l := range lines {
		jsonl = append(append(jsonl, l...), '\n', '\n')
	}
	if rep := VerifyJSONL(jsonl); !rep.OK {
		t.Fatalf("honest JSONL: %+v", rep)
	}
}

// TestVerifyRandomMatches: every honest log of many random matches (away seats, timeouts, seats
// that leave, pack talk, abandons) re-simulates; the same log with a paid match's money lines
// after its end too.
func TestVerifyRandomMatches(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 43))
	seen := map[string]int{}
	for k := range 200 {
		n := 5 + k%4
		abandon := 0
		if k%5 == 4 {
			abandon = 1 + rnd.IntN(50)
		}
		tb := randomMatch(t, n, randomSeed(rnd), "", rnd, abandon, false, nil)
		for _, e := range tb.evs {
			seen[e.Type]++
		}
		lines := tb.lines()
		if rep := Verify(lines); !rep.OK || rep.Checked != len(lines) {
			t.Fatalf("match %d (%d seats): honest log refused: %+v", k, n, rep)
		}
		paid := append(lines, []byte(`{"seq":999,"t":"2026-10-02T09:00:00.000Z","type":"payout","seat":0,"sats":10}`))
		if rep := Verify(paid); !rep.OK {
			t.Fatalf("match %d: money lines after the end refused: %+v", k, rep)
		}
	}
	for _, typ := range []string{"timeout_private", "timeout", "message", "message_private", "kill_private", "eliminated", "match_abandoned", "match_end"} {
		if seen[typ] == 0 {
			t.Errorf("the random matches wrote no %s line: the test does not reach it", typ)
		}
	}
}

// TestVerifyFailsAtAlteredLine: a role, result, death, vote tally, ranking, strike count,
// instant or seed hash altered in an honest log fails at exactly the altered line; an altered
// input (a move, the config) fails at the first line it contradicts.
func TestVerifyFailsAtAlteredLine(t *testing.T) {
	lines := workedExample(t).lines()
	find := func(typ, has string) int {
		for i, l := range lines {
			if bytes.Contains(l, []byte(`"type":"`+typ+`"`)) && bytes.Contains(l, []byte(has)) {
				return i
			}
		}
		t.Fatalf("no %s line with %s", typ, has)
		return -1
	}
	for _, c := range []struct {
		name     string
		at       int
		old, new string
		failAt   int
	}{
		{"role", find("role_private", `"seat":1`), `"role":"seer"`, `"role":"villager"`, -1},
		{"inspection", find("inspect_result_private", `"round":2`), `"is_wolf":true`, `"is_wolf":false`, -1},
		{"deaths", find("dawn", `"round":2`), `"deaths":[]`, `"deaths":[1]`, -1},
		{"exiled", find("vote_result", `"round":2`), `"exiled":4`, `"exiled":1`, -1},
		{"eliminated role", find("eliminated", `"seat":4`), `"role":"wolf"`, `"role":"villager"`, -1},
		{"winner", find("game_over", ``), `"winner":"village"`, `"winner":"wolves"`, -1},
		{"ranking", find("match_end", ``), `"score":0`, `"score":1`, -1},
		{"seed hash", 0, `"seed_hash":"sha256:6`, `"seed_hash":"sha256:7`, -1},
		{"strikes", find("timeout_private", ``), `"strikes":1`, `"strikes":0`, -1},
		{"config (an input)", 0, `"max_rounds":8`, `"max_rounds":1`, find("round_start", `"round":2`)},
		{"time", find("dawn", `"round":1`), `08:00:05.000Z`, `08:00:06.000Z`, -1},
		{"kill (an input)", find("action_private", `"action":"kill","reveal":"end","round":1`), `"target":0`, `"target":3`, find("kill_private", `"round":1`)},
		{"vote (an input)", find("action_private", `"round":2,"seat":2,"target":4`), `"target":4`, `"target":1`, find("vote_result", `"round":2`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			alt := make([][]byte, len(lines))
			copy(alt, lines)
			if !bytes.Contains(alt[c.at], []byte(c.old)) {
				t.Fatalf("line %d has no %s: %s", c.at, c.old, alt[c.at])
			}
			alt[c.at] = bytes.Replace(alt[c.at], []byte(c.old), []byte(c.new), 1)
			want := c.at
			if c.failAt >= 0 {
				want = c.failAt
			}
			rep := Verify(alt)
			if rep.OK || rep.At != want || rep.Reason == "" {
				t.Fatalf("altered line %d: report %+v, want a failure at line %d", c.at, rep, want)
			}
			if rep.Got != string(alt[want]) {
				t.Fatalf("report's got %q is not line %d", rep.Got, want)
			}
		})
	}
}

func TestVerifyRefusesIncompleteLogs(t *testing.T) {
	lines := workedExample(t).lines()
	n := len(lines)
	for _, c := range []struct {
		name   string
		lines  [][]byte
		at     int
		reason string
	}{
		{"empty", nil, 0, "empty"},
		{"no end", lines[:n-1], n - 1, "no match_end"},
		{"a line dropped", append(append([][]byte{}, lines[:5]...), lines[6:]...), 5, ""},
		{"a line after the end", append(append([][]byte{}, lines...), []byte(`{"seq":99,"t":"2026-10-02T08:01:25.000Z","type":"round_start","round":3}`)), n, "after the match's end"},
		{"seed null", append(append([][]byte{}, lines[:n-1]...), bytes.Replace(lines[n-1], []byte(`"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"`), []byte(`"seed":null`), 1)), n - 1, "not revealed"},
		{"another seed", append(append([][]byte{}, lines[:n-1]...), bytes.Replace(lines[n-1], []byte(`"seed":"00`), []byte(`"seed":"01`), 1)), 0, "does not commit"},
		{"not JSON", append(append([][]byte{}, lines[:3]...), append([][]byte{[]byte(`{"seq":3,`)}, lines[4:]...)...), 3, "not a log line"},
		{"first line", lines[1:], 0, "match_start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := Verify(c.lines)
			if rep.OK || rep.At != c.at || !strings.Contains(rep.Reason, c.reason) {
				t.Fatalf("report %+v, want a failure at %d naming %q", rep, c.at, c.reason)
			}
		})
	}
}

// TestVerifyAbandoned: an abandoned match re-simulates up to its cut, and an altered standing in
// its match_abandoned fails there.
func TestVerifyAbandoned(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), ""))
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionInspect, 4)
	tb.evs = append(tb.evs, tb.m.Abandon(tb.now.Add(5e8), "server_shutdown").Events...)
	lines := tb.lines()
	rep := Verify(lines)
	if !rep.OK || rep.End != "match_abandoned" {
		t.Fatalf("abandoned log: %+v\n%s", rep, bytes.Join(lines, []byte("\n")))
	}
	last := len(lines) - 1
	if !bytes.Contains(lines[last], []byte(`"score":0.5`)) || !bytes.Contains(lines[last], []byte(`"reason":"server_shutdown"`)) {
		t.Fatalf("the abandon's line: %s", lines[last])
	}
	alt := append([][]byte{}, lines...)
	alt[last] = bytes.Replace(alt[last], []byte(`"rank":1`), []byte(`"rank":2`), 1)
	if rep := Verify(alt); rep.OK || rep.At != last {
		t.Fatalf("altered standings: %+v", rep)
	}
}

// TestVerifySubMillisecond: a live match whose clock has nanoseconds (a start, moves and drops
// off the millisecond, moves in the last millisecond of a turn) verifies from its log, whose t
// values have milliseconds: the match reckons in the log's precision.
func TestVerifySubMillisecond(t *testing.T) {
	rnd := rand.New(rand.NewPCG(77, 78))
	for k := range 30 {
		s := setupN(5+k%4, randomSeed(rnd), "")
		s.Start = s.Start.Add(time.Duration(rnd.IntN(1e6)))
		tb := newTable(t, s)
		for tb.m.phase == phasePlaying {
			p := tb.open()
			left := p.Deadline.Sub(tb.now)
			var d time.Duration
			switch rnd.IntN(4) {
			case 0:
				d = left - time.Duration(rnd.IntN(1e6)) // the turn's last millisecond (or just past it)
			case 1:
				tb.now = tb.now.Add(time.Duration(rnd.IntN(2e9)))
				_, _ = tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)})
				p = tb.open()
				tb.advance(p.Deadline.Add(time.Duration(rnd.IntN(1e6))))
				continue
			default:
				d = time.Duration(rnd.Int64N(int64(left)))
			}
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: randomBody(p, rnd)}
			at := tb.now.Add(d)
			if st, err := tb.m.Act(at, in); err == nil {
				tb.evs = append(tb.evs, st.Events...)
				tb.now = at
			} else {
				tb.advance(p.Deadline.Add(time.Duration(rnd.IntN(1e6))))
			}
		}
		if rep := Verify(tb.lines()); !rep.OK {
			t.Fatalf("match %d: %+v", k, rep)
		}
	}
}

// FuzzVerify: a log from anywhere (arena verify-log reads a URL) never panics the verifier, and
// it says what it found: a failure names a reason.
func FuzzVerify(f *testing.F) {
	golden, err := os.ReadFile("testdata/worked_example.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(golden[:len(golden)/2])
	f.Add([]byte(`{"seq":0,"t":"2026-10-02T08:00:00.000Z","type":"match_start","game":"werewolf","players":[{"seat":9}],"config":{"roles":{"wolf":0}}}` + "\n" +
		`{"seq":1,"t":"x","type":"match_end","seed":"00"}`))
	f.Fuzz(func(t *testing.T, log []byte) {
		rep := VerifyJSONL(log)
		if !rep.OK && rep.Reason == "" {
			t.Fatalf("a failure without a reason: %+v", rep)
		}
	})
}

// TestVerifyMutations: every single-byte change of the golden log is either refused with a
// reason or the same log in JCS; none panics.
func TestVerifyMutations(t *testing.T) {
	golden, err := os.ReadFile("testdata/worked_example.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		b := bytes.Clone(golden)
		b[rnd.IntN(len(b))] = "0123456789{}[]\",:abcdefw\n "[rnd.IntN(26)]
		rep := VerifyJSONL(b)
		if !rep.OK && rep.Reason == "" {
			t.Fatalf("a failure without a reason: %+v", rep)
		}
	}
}

// TestAbandonBeforeStart: a match abandoned before it opened still logs match_start (its seed's
// commitment) before match_abandoned, and that log verifies.
func TestAbandonBeforeStart(t *testing.T) {
	mm, _ := Engine{}.New(setupN(6, seq0(), ""), nil)
	st := mm.Abandon(t0.Add(-time.Minute), "server_shutdown")
	tb := &table{t: t, m: mm.(*match), evs: st.Events}
	if len(st.Events) != 2 || st.Events[0].Type != "match_start" || st.Events[1].Type != "match_abandoned" {
		t.Fatalf("events %+v", st.Events)
	}
	if rep := Verify(tb.lines()); !rep.OK {
		t.Fatalf("%+v", rep)
	}
	if _, ok := mm.Deadline(); ok {
		t.Fatal("an abandoned match has a deadline")
	}
}
