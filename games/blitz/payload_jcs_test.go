package blitz

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// payloadJCSGeneral is payloadJCS as it was before the map fast path and canon's writer:
// encoding/json, then jcs.Transform when needsTransform finds anything JCS writes otherwise.
func payloadJCSGeneral(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
	if needsTransform(b) {
		tr, err := jcs.Transform(b)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	return b
}

func TestPayloadJCSMatchesGeneral(t *testing.T) {
	type pair struct {
		A int    `json:"z"`
		B string `json:"a"`
	}
	cases := []any{
		map[string]any{},
		map[string]any{"seat": 3, "dark": false},
		map[string]any{"turn": 1, "of": 5, "phase": "talk", "duration_ms": int64(45000), "ends_at": "2026-01-01T00:01:30.000Z"},
		map[string]any{"format": map[string]any{"name": "blitz", "seats": 6, "turns": 5, "exchanges": 3}, "bounty": int64(300_000_000)},
		map[string]any{"text": "<b>&amp; \u2028 \u2029 \x07 \b \f \t \n 😀 \"q\" \\ / é \x7f"},
		map[string]any{"bad": "a\xffb"},
		map[string]any{"big": int64(9007199254740993), "neg": -9007199254740993},
		map[string]any{"max": int64(9007199254740991), "min": -9007199254740991, "zero": 0},
		map[string]any{"é": 1, "e": 2},
		map[string]any{"B": 1, "a": 2, "_": 3, "A": 4},
		map[string]any{"nil": nil, "f": 1.5, "s": []int{1, 2}},
		map[string]any{"deep": map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": map[string]any{"e": 1}}}}}},
		map[string]any{"p": pair{1, "x"}},
		pair{2, "y"},
		json.RawMessage(`{"b":1,"a":[1.0,2e3]}`),
	}
	for i, c := range cases {
		got, want := payloadJCS(c), payloadJCSGeneral(t, c)
		if !bytes.Equal(got, want) {
			t.Errorf("case %d: %s, want %s", i, got, want)
		}
	}
}

// jcsObject writes what the general path writes for the same members, for every kind kv
// allows (nil members left out), as the settle, seal and rejection events use it.
func TestJCSObjectMatchesGeneral(t *testing.T) {
	cases := [][]kv{
		{{"id", "sha256:" + strings.Repeat("ab", 32)}, {"outcome", "honoured"}},
		{{"amount", int64(40_000_000)}, {"id", "x"}, {"outcome", "breached"}, {"paid", int64(0)}, {"penalty", int64(-5)}},
		{{"code", "bad_seq"}, {"index", 3}, {"msg", "seq 1 not above 1: \"q\" \\ \n é"}, {"ref", ""}},
		{{"a", int32(-7)}, {"b", uint32(4_000_000_000)}, {"c", true}, {"d", false}, {"e", nil}, {"f", json.RawMessage(`{"always":true}`)}},
		{},
	}
	for i, c := range cases {
		mp := map[string]any{}
		for _, m := range c {
			if m.v != nil {
				mp[m.k] = m.v
			}
		}
		if got, want := jcsObject(c...), payloadJCSGeneral(t, mp); !bytes.Equal(got, want) {
			t.Errorf("case %d: %s, want %s", i, got, want)
		}
	}
}
