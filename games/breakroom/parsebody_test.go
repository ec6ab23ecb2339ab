package breakroom

import (
	"encoding/json"
	"errors"
	"testing"

	"arena/games"
)

// bodySeeds are moves of every shape agents send, and near misses ParseBody must refuse.
var bodySeeds = []string{
	`{"action":"bid","amount":45}`, `{"action":"pass"}`, `{"action":"cooperate","message":"hi there"}`, ` { "action" : "defect" } `,
	`{}`, `{"action":null,"message":null}`, `{"action":"x","amount":-0}`, `{"amount":9007199254740991}`, `{"amount":01}`,
	`{"amount":1.5}`, `{"amount":1e3}`, `{"action":"bid","Action":"pass"}`, `{"action":"bid","action":"pass"}`,
	`{"message":"a\nb"}`, `{"message":5}`, `{"action":5}`, `{"action":["bid"]}`, `{"o":{"a":1}}`, `[1]`, `null`, `"x"`,
	`{"action":"bid",}`, `{"action":"bid"} x`, "{\"message\":\"a\x01b\"}", "\xff", `{"ǅ":1,"ǆ":2}`,
}

// FuzzParseBody: ParseBody never panics, refuses only with bad_request, and what it accepts is
// one JSON object whose action (when a string) is the body's Action.
func FuzzParseBody(f *testing.F) {
	for _, s := range bodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := ParseBody(raw)
		if err != nil {
			var ge *games.Error
			if !errors.As(err, &ge) || ge.Code != CodeBadRequest {
				t.Fatalf("%q: refused with %v, want bad_request", raw, err)
			}
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m == nil {
			t.Fatalf("%q: accepted, but it is not a JSON object", raw)
		}
		var action string
		if json.Unmarshal(m["action"], &action) == nil && action != b.Action {
			t.Fatalf("%q: action %q, want %q", raw, b.Action, action)
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
