package inference

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"arena/games/breakroom"
)

// TestVerifyWorkedExample: §2.10's public log (no deal_private line) and its full log both
// verify, every line checked.
func TestVerifyWorkedExample(t *testing.T) {
	tb := workedExample(t)
	pub := tb.publicLog()
	if bytes.Contains(pub, []byte("deal_private")) {
		t.Fatal("the public log holds a deal_private line")
	}
	rep := VerifyJSONL(pub)
	if !rep.OK || rep.End != "match_end" || rep.Checked != rep.Lines || rep.Lines != 23 {
		t.Fatalf("public log: %+v", rep)
	}
	var full []byte
	for _, l := range tb.lines() {
		full = append(append(full, l...), '\n')
	}
	if rep := VerifyJSONL(full); !rep.OK || rep.Lines != 29 {
		t.Fatalf("full log: %+v", rep)
	}
}

// tamper replaces old with new in line n (0-based) of log; the test fails when old is not there.
func tamper(t *testing.T, log []byte, n int, old, new string) []byte {
	t.Helper()
	lines := breakroom.SplitLog(log)
	if !bytes.Contains(lines[n], []byte(old)) {
		t.Fatalf("line %d has no %s: %s", n, old, lines[n])
	}
	lines[n] = bytes.Replace(lines[n], []byte(old), []byte(new), 1)
	return append(bytes.Join(lines, []byte("\n")), '\n')
}

// lineOf is the index of the first line of log containing s.
func lineOf(t *testing.T, log []byte, s string) int {
	t.Helper()
	for i, l := range breakroom.SplitLog(log) {
		if bytes.Contains(l, []byte(s)) {
			return i
		}
	}
	t.Fatalf("no line holds %s", s)
	return -1
}

// TestVerifyTamperedReveal: a revealed value changed without changing the outcome (82 → 83),
// its salt changed, or a value changed so the outcome moves (82 → 5), fails at that showdown
// line; the first two for the commitment.
func TestVerifyTamperedReveal(t *testing.T) {
	pub := workedExample(t).publicLog()
	sd := lineOf(t, pub, `"type":"showdown"`)
	for _, c := range []struct{ old, new, reason string }{
		{`"value":82`, `"value":83`, "do not hash to its commitment"},
		{`"salt":"c21799b2542158bd1b7aae5ae841b67e"`, `"salt":"c21799b2542158bd1b7aae5ae841b67f"`, "do not hash to its commitment"},
		{`"value":82`, `"value":5`, "do not hash to its commitment"},
		{`"value":8}`, `"value":0}`, "outside 1..100"},
	} {
		rep := VerifyJSONL(tamper(t, pub, sd, c.old, c.new))
		if rep.OK || rep.At != sd || rep.Type != "showdown" || !strings.Contains(rep.Reason, c.reason) {
			t.Fatalf("%s → %s: %+v, want a failure at line %d (%s)", c.old, c.new, rep, sd, c.reason)
		}
	}
}

// TestVerifyTamperedLines: any other altered line fails at it: a commitment, a bet, the pot, a
// payout, a ranking, the seed; a dropped line fails where it was.
func TestVerifyTamperedLines(t *testing.T) {
	pub := workedExample(t).publicLog()
	for _, c := range []struct{ find, old, new string }{
		{`"type":"ante"`, `"amount":2`, `"amount":3`},
		{`"action":"fold"`, `"action":"fold"`, `"action":"check"`},
		{`"mucked":[2]`, `"pot":12`, `"pot":13`},
		{`"mucked":[2]`, `"mucked":[2]`, `"mucked":[]`},
		{`"type":"match_end"`, `"credits":112`, `"credits":113`},
		{`"type":"timeout"`, `"strikes":1`, `"strikes":2`},
	} {
		n := lineOf(t, pub, c.find)
		rep := VerifyJSONL(tamper(t, pub, n, c.old, c.new))
		if rep.OK || rep.At != n {
			t.Fatalf("%s → %s on line %d: %+v", c.old, c.new, n, rep)
		}
	}
	// A commitment is proved by its reveal (J8): seat 1's altered commitment fails at the
	// showdown that reveals it; seat 0 folded, so its commitment is never opened and an altered
	// one cannot be told from the dealt one.
	deal, sd := lineOf(t, pub, `"type":"deal"`), lineOf(t, pub, `"type":"showdown"`)
	if rep := VerifyJSONL(tamper(t, pub, deal, `934d6972`, `934d6973`)); rep.OK || rep.At != sd || !strings.Contains(rep.Reason, "commitment") {
		t.Fatalf("seat 1's commitment altered: %+v, want a failure at the showdown (line %d)", rep, sd)
	}
	if rep := VerifyJSONL(tamper(t, pub, deal, `1779a62e`, `1779a62f`)); !rep.OK {
		t.Fatalf("seat 0's unopened commitment altered: %+v", rep)
	}
	lines := breakroom.SplitLog(pub)
	dropped := append(bytes.Join(append(append([][]byte{}, lines[:5]...), lines[6:]...), []byte("\n")), '\n')
	if rep := VerifyJSONL(dropped); rep.OK || rep.At != 5 {
		t.Fatalf("a dropped line: %+v", rep)
	}
}

// FuzzVerifyJSONL: no log panics the verifier, and it answers the same twice. Its seeds are
// short logs: the fuzzer minimizes every input that finds new coverage by trying to remove each
// byte range of it (quadratic in its length), so a multi-kilobyte seed holds a worker in
// minimization for all of -fuzzminimizetime and nothing else runs. Whole genuine logs are
// fuzzed by FuzzVerifyEdit, through small edits.
func FuzzVerifyJSONL(f *testing.F) {
	lines := breakroom.SplitLog(workedExample(f).publicLog())
	f.Add([]byte(`{"seq":0,"t":"x","type":"match_start"}`))
	f.Add(append(append(append([]byte{}, lines[0]...), '\n'), lines[len(lines)-1]...))
	f.Add([]byte(`{"seq":0,"t":"2026-10-02T08:00:00.000Z","type":"match_start","game":"inference","players":[],"config":{}}` + "\n" +
		`{"seq":1,"t":"2026-10-02T08:00:00.000Z","type":"match_abandoned","reason":"x","ranking":[],"seed":null}`))
	f.Fuzz(func(t *testing.T, log []byte) {
		a, b := VerifyJSONL(log), VerifyJSONL(log)
		if a != b {
			t.Fatalf("two answers: %+v, %+v", a, b)
		}
	})
}

// FuzzVerifyEdit: the worked example's public log with bytes [at, at+cut) of one line replaced
// by put: no edit panics the verifier or makes it answer twice differently, an edit that fails
// fails at a line of the log (or past its end), and the empty edit verifies. The input is the
// edit, a few bytes, so minimizing it is quick however long the log.
func FuzzVerifyEdit(f *testing.F) {
	pub := workedExample(f).publicLog()
	lines := breakroom.SplitLog(pub)
	f.Add(uint8(0), uint16(0), uint8(0), []byte{})
	f.Add(uint8(13), uint16(150), uint8(2), []byte("83"))
	f.Add(uint8(9), uint16(30), uint8(1), []byte("0"))
	f.Add(uint8(6), uint16(60), uint8(1), []byte("5"))
	f.Fuzz(func(t *testing.T, line uint8, at uint16, cut uint8, put []byte) {
		edited := make([][]byte, len(lines))
		copy(edited, lines)
		l := lines[int(line)%len(lines)]
		from := min(int(at), len(l))
		to := min(from+int(cut), len(l))
		e := append(append(append([]byte{}, l[:from]...), put...), l[to:]...)
		edited[int(line)%len(lines)] = e
		log := append(bytes.Join(edited, []byte("\n")), '\n')
		a, b := VerifyJSONL(log), VerifyJSONL(log)
		switch {
		case a != b:
			t.Fatalf("two answers: %+v, %+v", a, b)
		case !a.OK && (a.At < 0 || a.At > a.Lines):
			t.Fatalf("a failure at line %d of %d: %+v", a.At, a.Lines, a)
		case bytes.Equal(log, pub) && !a.OK:
			t.Fatalf("the worked example fails: %+v", a)
		}
	})
}

// TestVerifyStopsAtTheCut: a log cut short fails where it stops; an abandoned match's log
// verifies through match_abandoned.
func TestVerifyStopsAtTheCut(t *testing.T) {
	pub := workedExample(t).publicLog()
	lines := breakroom.SplitLog(pub)
	cut := append(bytes.Join(lines[:12], []byte("\n")), '\n')
	if rep := VerifyJSONL(cut); rep.OK || !strings.Contains(rep.Reason, "match_end") {
		t.Fatalf("a cut log: %+v", rep)
	}
	rnd := newRand(9)
	for k := range 20 {
		tb := randomMatch(t, 3+k%6, `{"rounds":6}`, rnd, 1+rnd.IntN(25), nil)
		if rep := VerifyJSONL(tb.publicLog()); !rep.OK || rep.End != "match_abandoned" {
			t.Fatalf("abandoned match %d: %+v", k, rep)
		}
	}
}

// TestVerifyTimeGoesBack: a line stamped earlier than the line before it (a move made before
// its turn opened, before match_start, or before the hand was dealt) fails at that line; the
// log's instants never run backwards.
func TestVerifyTimeGoesBack(t *testing.T) {
	pub := workedExample(t).publicLog()
	for _, c := range []struct{ find, old, new string }{
		{`"seq":9,`, `08:00:01.000Z`, `07:59:59.000Z`},  // before match_start and the deal
		{`"seq":12,`, `08:00:03.000Z`, `08:00:01.500Z`}, // before the raise it answers
		{`"seq":23,`, `08:00:05.000Z`, `08:00:03.000Z`}, // before its hand's round_start
		{`"seq":10,`, `08:00:02.000Z`, `08:00:00.500Z`}, // talk before the turn opened
	} {
		n := lineOf(t, pub, c.find)
		rep := VerifyJSONL(tamper(t, pub, n, c.old, c.new))
		if rep.OK || rep.At != n || !strings.Contains(rep.Reason, "earlier than") {
			t.Fatalf("%s t %s → %s: %+v, want a failure at line %d (earlier than the line before)", c.find, c.old, c.new, rep, n)
		}
	}
}

// TestVerifyMalformedCommitment: a commitment that is not "sha256:" and 64 lowercase hex digits,
// one that another seat's commitment repeats (the seat is hashed in, so no two can be equal), or
// a revealed salt that is not 32 lowercase hex digits fails at its line, though the seat it
// belongs to folded and its commitment is never opened (§2.2).
func TestVerifyMalformedCommitment(t *testing.T) {
	pub := workedExample(t).publicLog()
	deal, sd := lineOf(t, pub, `"type":"deal"`), lineOf(t, pub, `"type":"showdown"`)
	seat1 := "934d6972116259610a8f270e85b6d84c882c31730452ba87a92963e9d31669f5"
	for _, c := range []struct {
		n        int
		old, new string
	}{
		{deal, `sha256:1779a62e`, `sha256:1779A62E`},
		{deal, `sha256:1779a62e`, `sha256:1779a6`},
		{deal, `sha256:1779a62e`, `md5:1779a62e`},
		{deal, `"commit":"sha256:1779a62e150f7cc128ac03d1186355184ed98e406c428dba24ad69c388c6b3dd"`, `"commit":"sha256:` + seat1 + `"`},
		{sd, `"salt":"a860bf30e73d1f92c40169304749cab2"`, `"salt":"A860BF30E73D1F92C40169304749CAB2"`},
	} {
		rep := VerifyJSONL(tamper(t, pub, c.n, c.old, c.new))
		if rep.OK || rep.At != c.n {
			t.Fatalf("%s → %s on line %d: %+v", c.old, c.new, c.n, rep)
		}
	}
}

// TestClockSteppingBackKeepsTheLogInOrder: a move handed to the match with an instant earlier
// than its last line (the server's clock stepped back) is stamped at that last line's instant,
// so the log the match writes never runs backwards and verifies.
func TestClockSteppingBackKeepsTheLogInOrder(t *testing.T) {
	tb := newTable(t, setupN(3, seq0(), seq0(), `{"rounds":1}`))
	tb.move(1, `{"action":"raise","amount":4}`) // t0 + 1 s
	tb.now = tb.now.Add(-30 * time.Second)
	tb.move(2, `{"action":"call","message":"back in time"}`) // handed t0 − 28 s
	tb.move(0, `{"action":"fold"}`)
	last := ""
	for _, l := range tb.lines() {
		pl, err := breakroom.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		if pl.T < last {
			t.Fatalf("line %s is stamped before %s", l, last)
		}
		last = pl.T
	}
	if rep := VerifyJSONL(tb.publicLog()); !rep.OK {
		t.Fatalf("%+v", rep)
	}
}
