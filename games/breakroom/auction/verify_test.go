package auction

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

func TestVerifyWorkedExample(t *testing.T) {
	lines := workedExample(t).lines()
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

// TestVerifyRandomMatches: every honest log of many random matches (away seats, sit-outs and
// returns, talk, refused moves, abandons) re-simulates; the same log with a paid match's money
// lines after its end too.
func TestVerifyRandomMatches(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 43))
	seen := map[string]int{}
	for k := range 60 {
		n := 3 + k%6
		abandon := 0
		if k%5 == 4 {
			abandon = 1 + rnd.IntN(30)
		}
		tb := randomMatch(t, n, randomSeed(rnd), `{"lots":6,"starting_cash":120}`, rnd, abandon, nil)
		for typ, c := range typesOf(tb.evs) {
			seen[typ] += c
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
	for _, typ := range []string{"sit_out", "sit_in", "timeout_private", "message", "match_abandoned", "match_end"} {
		if seen[typ] == 0 {
			t.Errorf("the random matches wrote no %s line: the test does not reach it", typ)
		}
	}
}

// TestVerifyFailsAtAlteredLine: a value, a result, a ranking, a strike count, an instant or the
// seed hash altered in an honest log fails at exactly the altered line; an altered input (a bid,
// the config) fails at the first line it contradicts.
func TestVerifyFailsAtAlteredLine(t *testing.T) {
	tb := workedExample(t)
	lines := tb.lines()
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
		{"value", find("deal_private", `"round":1,"seat":1`), `"value":83`, `"value":84`, -1},
		{"price", find("lot_result", `"round":1`), `"price":62`, `"price":61`, -1},
		{"tie winner", find("lot_result", `"round":2`), `"winner":2`, `"winner":0`, -1},
		{"ranking", find("match_end", ``), `"score":221`, `"score":222`, -1},
		{"seed hash", 0, `"seed_hash":"sha256:6`, `"seed_hash":"sha256:7`, -1},
		{"config (an input)", 0, `"value_max":100`, `"value_max":90`, find("deal_private", `"round":1,"seat":0`)},
		{"time", find("lot_result", `"round":1`), `08:00:03.000Z`, `08:00:04.000Z`, -1},
		{"losing bid (an input)", find("action_private", `"round":1,"seat":2`), `"amount":45`, `"amount":70`, find("lot_result", `"round":1`)},
		{"message", find("message", ``), `"turn":0`, `"turn":1`, -1},
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
	// A timeout's strike count, in a log with one.
	tb2 := newTable(t, setupN(3, seq0(), `{"lots":1}`))
	tb2.bid(0, 3)
	tb2.expire(1)
	tb2.pass(2)
	l2 := tb2.lines()
	i := 0
	for ; !bytes.Contains(l2[i], []byte(`"timeout_private"`)); i++ {
	}
	alt := append([][]byte{}, l2...)
	alt[i] = bytes.Replace(alt[i], []byte(`"strikes":1`), []byte(`"strikes":2`), 1)
	if rep := Verify(alt); rep.OK || rep.At != i {
		t.Fatalf("altered strikes: %+v", rep)
	}
}

// TestVerifyRefusesTimeGoingBack: a move, a timeout or an abandon whose t is before its turn
// opened (the line before it) fails at that line: the log's instants are the re-simulation's
// inputs, and a log writer stamps in order.
func TestVerifyRefusesTimeGoingBack(t *testing.T) {
	lines := workedExample(t).lines()
	tb := newTable(t, setupN(3, seq0(), `{"lots":1}`))
	tb.bid(0, 3)
	tb.evs = append(tb.evs, tb.m.Abandon(tb.now.Add(time.Second), "server_shutdown").Events...)
	abandoned := tb.lines()
	for _, c := range []struct {
		name     string
		lines    [][]byte
		at       int
		old, new string
	}{
		{"a move before the previous move", lines, 6, `08:00:02.000Z`, `08:00:00.500Z`},
		{"a move before the match started", lines, 6, `08:00:02.000Z`, `07:59:00.000Z`},
		{"a lot's first move before the lot opened", lines, 14, `08:00:04.000Z`, `08:00:02.999Z`},
		{"an abandon before the open turn", abandoned, len(abandoned) - 1, `08:00:02.000Z`, `08:00:00.999Z`},
	} {
		t.Run(c.name, func(t *testing.T) {
			alt := append([][]byte{}, c.lines...)
			if !bytes.Contains(alt[c.at], []byte(c.old)) {
				t.Fatalf("line %d has no %s: %s", c.at, c.old, alt[c.at])
			}
			alt[c.at] = bytes.Replace(alt[c.at], []byte(c.old), []byte(c.new), 1)
			rep := Verify(alt)
			if rep.OK || rep.At != c.at || !strings.Contains(rep.Reason, "before") {
				t.Fatalf("report %+v, want a failure at line %d naming the earlier instant", rep, c.at)
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
		{"a line after the end", append(append([][]byte{}, lines...), []byte(`{"seq":19,"t":"2026-10-02T08:00:25.000Z","type":"round_start","round":3}`)), n, "after the match's end"},
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

// TestVerifyAbandoned: an abandoned match re-simulates up to its cut, held talk included, and an
// altered standing in its match_abandoned fails there.
func TestVerifyAbandoned(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"lots":3}`))
	tb.bid(0, 20)
	tb.play(1, 2e9, `{"action":"bid","amount":30,"message":"sorry"}`)
	tb.evs = append(tb.evs, tb.m.Abandon(tb.now.Add(5e8), "server_shutdown").Events...)
	lines := tb.lines()
	rep := Verify(lines)
	if !rep.OK || rep.End != "match_abandoned" {
		t.Fatalf("abandoned log: %+v\n%s", rep, bytes.Join(lines, []byte("\n")))
	}
	last := len(lines) - 1
	if !bytes.Contains(lines[last-1], []byte(`"type":"message"`)) || !bytes.Contains(lines[last], []byte(`"reason":"server_shutdown"`)) {
		t.Fatalf("the abandon's lines: %s / %s", lines[last-1], lines[last])
	}
	// The open lot is not sold: every seat stands at its starting cash.
	if !bytes.Contains(lines[last], []byte(`"cash":200,"lots_won":0`)) || bytes.Contains(lines[last], []byte(`"cash":170`)) {
		t.Fatalf("standings so far: %s", lines[last])
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
	for k := range 20 {
		s := setupN(3+k%6, randomSeed(rnd), `{"lots":4}`)
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
				_ = tb.presence(breakroom.WireSeat(p.Seat), true)
				p = tb.open()
				tb.advance(p.Deadline.Add(time.Duration(rnd.IntN(1e6))))
				continue
			default:
				d = time.Duration(rnd.Int64N(int64(left)))
			}
			in := games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"bid","amount":1}`)}
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

// FuzzVerify: a forged log never panics the verifier, and it says what it found: a failure
// names a reason. The fuzzer forges one line of the worked example's genuine log: op%3 0
// replaces line at (mod the log's length), 1 inserts it there, 2 drops that line and appends it
// at the end. Verify is linear in the log; what makes `-fuzz` look stalled is the fuzzer's
// minimization of every input that finds new coverage: up to -fuzzminimizetime (60 s by default)
// of O(n²) candidates in the input's length, each a whole verify, during which the exec count
// does not move. The input is therefore one line, not the whole log, and TestMain makes the
// minimization short.
func FuzzVerify(f *testing.F) {
	golden, err := os.ReadFile("testdata/worked_example.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	lines := breakroom.SplitLog(golden)
	for i, l := range lines {
		f.Add(uint16(i), uint8(0), l)
	}
	f.Add(uint16(6), uint8(1), lines[5])
	f.Add(uint16(3), uint8(2), []byte(`{"seq":19,"t":"2026-10-02T08:00:07.000Z","type":"payout"}`))
	f.Fuzz(func(t *testing.T, at uint16, op uint8, line []byte) {
		k := int(at) % len(lines)
		log := make([][]byte, 0, len(lines)+1)
		switch op % 3 {
		case 0:
			log = append(append(append(log, lines[:k]...), line), lines[k+1:]...)
		case 1:
			log = append(append(append(log, lines[:k]...), line), lines[k:]...)
		default:
			log = append(append(append(log, lines[:k]...), lines[k+1:]...), line)
		}
		rep := VerifyJSONL(bytes.Join(log, []byte("\n")))
		if !rep.OK && rep.Reason == "" {
			t.Fatalf("a failure without a reason: %+v", rep)
		}
	})
}

// FuzzVerifyBytes: a log from anywhere (arena verify-log reads a URL), any bytes, never panics
// the verifier, and a failure names a reason. Its seeds are short, for the reason FuzzVerify
// gives.
func FuzzVerifyBytes(f *testing.F) {
	f.Add([]byte(`{"seq":0,"t":"2026-10-02T08:00:00.000Z","type":"match_start","players":[{"seat":9}],"config":{"lots":0}}` + "\n" +
		`{"seq":1,"t":"x","type":"match_end","seed":"00"}`))
	f.Add([]byte(`{"seq":0,"t":"2026-10-02T08:00:00.000Z","type":"match_start","match_id":"m","game":"auction","players":[],"config":{}}` + "\n" +
		`{"seq":1,"t":"2026-10-02T08:00:00.000Z","type":"match_abandoned","seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"}`))
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
		b[rnd.IntN(len(b))] = "0123456789{}[]\",:abcdebp\n "[rnd.IntN(26)]
		rep := VerifyJSONL(b)
		if !rep.OK && rep.Reason == "" {
			t.Fatalf("a failure without a reason: %+v", rep)
		}
	}
}

// TestAbandonBeforeStart: a match abandoned before it opened still logs match_start (its seed's
// commitment) before match_abandoned, and that log verifies.
func TestAbandonBeforeStart(t *testing.T) {
	mm, _ := Engine{}.New(setupN(4, seq0(), ""), nil)
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
