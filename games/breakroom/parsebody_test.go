package breakroom

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"arena/games"
)

// sameBody fails unless a and b read the same move: action, message, members and the message's
// refusal.
func sameBody(t *testing.T, raw []byte, a, b Body) {
	t.Helper()
	if a.Action != b.Action || a.HasAction != b.HasAction || a.Message != b.Message || a.HasMessage != b.HasMessage ||
		(a.messageErr == nil) != (b.messageErr == nil) || len(a.Members) != len(b.Members) {
		t.Fatalf("%q: flat %+v, canon %+v", raw, a, b)
	}
	for k, v := range a.Members {
		if w, ok := b.Members[k]; !ok || !bytes.Equal(v, w) {
			t.Fatalf("%q: member %s: flat %s, canon %s", raw, k, v, w)
		}
	}
}

// flatSeeds are moves of every shape parseFlat meets, and near misses it must leave to canon.
var flatSeeds = []string{
	`{"action":"bid","amount":45}`, `{"action":"pass"}`, `{"action":"cooperate","message":"hi there"}`, ` { "action" : "defect" } `,
	`{}`, `{"action":null,"message":null}`, `{"action":"x","amount":-0}`, `{"amount":9007199254740991}`, `{"amount":123456789012345}`,
	`{"amount":1234567890123456}`, `{"amount":01}`, `{"amount":1.5}`, `{"amount":1e3}`, `{"amount":-}`, `{"a":true,"b":false,"c":null}`,
	`{"action":"bid","Action":"pass"}`, `{"action":"bid","action":"pass"}`, `{"message":"a\nb"}`, `{"message":"tab\there"}`,
	`{"message":"é🙂日本"}`, `{"message":5}`, `{"action":5}`, `{"action":["bid"]}`, `{"o":{"a":1}}`, `[1]`, `null`, `"x"`,
	`{"action":"bid",}`, `{"action":"bid"`, `{"action":"bid"} x`, `{"action":"bid"}{}`, "{\"message\":\"a\x01b\"}", "\xff",
	`{"k":"ﬀ","K":"x"}`, `{"ǅ":1,"ǆ":2}`, `{"k":"\u2028"}`, "{\"k\":\"\u2028\"}", "{\"\uFFFE\":1}", `{"a":tru}`, `{"a":truex}`,
	`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15,"16":16}`,
	`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15,"16":16,"17":17}`,
}

// TestParseFlatIsCanon: whatever parseFlat reads, canon's path reads the same (the move that
// canon would refuse, parseFlat leaves to it), over the seeds and many random mutations of
// them; and ParseBody refuses what canon refuses, with its code.
func TestParseFlatIsCanon(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	check := func(raw []byte) {
		slow, serr := parseBodyCanon(raw)
		fast, ok := parseFlat(raw)
		if ok {
			if serr != nil {
				t.Fatalf("%q: parseFlat reads what canon refuses (%v)", raw, serr)
			}
			sameBody(t, raw, fast, slow)
		}
		got, gerr := ParseBody(raw)
		var ge, se *games.Error
		if (gerr == nil) != (serr == nil) || gerr != nil && (!errors.As(gerr, &ge) || !errors.As(serr, &se) || ge.Code != se.Code) {
			t.Fatalf("%q: ParseBody %v, canon %v", raw, gerr, serr)
		}
		if gerr == nil {
			sameBody(t, raw, got, slow)
		}
	}
	accepted := 0
	for _, s := range flatSeeds {
		check([]byte(s))
		if _, ok := parseFlat([]byte(s)); ok {
			accepted++
		}
	}
	if accepted < 10 {
		t.Fatalf("parseFlat read only %d seeds", accepted)
	}
	const alphabet = "{}[]\":,-0123456789.eE \\nabtrufls\x00\x7f\xc3\xa9"
	for range 200_000 {
		b := []byte(flatSeeds[rnd.IntN(len(flatSeeds))])
		for range 1 + rnd.IntN(3) {
			switch k := rnd.IntN(3); {
			case k == 0 && len(b) > 0:
				b[rnd.IntN(len(b))] = alphabet[rnd.IntN(len(alphabet))]
			case k == 1:
				at := rnd.IntN(len(b) + 1)
				b = append(b[:at], append([]byte{alphabet[rnd.IntN(len(alphabet))]}, b[at:]...)...)
			case len(b) > 0:
				at := rnd.IntN(len(b))
				b = append(b[:at], b[at+1:]...)
			}
		}
		check(b)
	}
	if _, ok := parseFlat([]byte(`{"message":"` + strings.Repeat("x", maxFlat) + `"}`)); ok {
		t.Fatal("parseFlat read a move over maxFlat")
	}
}

// FuzzParseBody: parseFlat agrees with canon on any input (go test -fuzz FuzzParseBody).
func FuzzParseBody(f *testing.F) {
	for _, s := range flatSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		slow, serr := parseBodyCanon(raw)
		if fast, ok := parseFlat(raw); ok {
			if serr != nil {
				t.Fatalf("%q: parseFlat reads what canon refuses (%v)", raw, serr)
			}
			sameBody(t, raw, fast, slow)
		}
	})
}

// TestAppendLineIsJSON: Line's hand-quoted t and type are encoding/json's bytes, for plain words
// and for strings json escapes (quotes, backslashes, <, >, &, controls, non-ASCII).
func TestAppendLineIsJSON(t *testing.T) {
	for _, s := range []string{"2026-10-02T08:00:00.000Z", "lot_result", "", `a"b`, `a\\b`, "<tag>", "a&b", "tab\there", "é", "\u2028", "\x7f", "\xff"} {
		e := games.Event{Seq: 5, At: s, Type: s, Payload: []byte(` {"round":1} `)}
		got, err := Line(e)
		if err != nil {
			t.Fatal(err)
		}
		at, _ := json.Marshal(s)
		want := `{"seq":4,"t":` + string(at) + `,"type":` + string(at) + `,"round":1}`
		if string(got) != want {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
		buf, _ := AppendLine([]byte("x"), e)
		if string(buf) != "x"+want {
			t.Errorf("AppendLine: %s", buf)
		}
	}
	if b, err := AppendLine([]byte("keep"), games.Event{Payload: []byte(`[1]`)}); err == nil || string(b) != "keep" {
		t.Fatalf("a payload that is not an object: %s %v", b, err)
	}
}
