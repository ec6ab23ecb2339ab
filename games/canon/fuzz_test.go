package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

var fuzzSeeds = []string{
	`{"\ud83d\ude00":1,"\uffff":2,"\ue000":3,"a\u0001\u007f\u2028":"\b\f\n\r\t\"\\/"}`,
	`{"\ud800\udc01":1,"\ud800\udc00":2,"":0,"\u00e9":[true,false,null,-0,12]}`,
	`{"v":1,"amount":40000000,"condition":{"always":true}}`,
	`{"amount":1,"Amount":2}`, `{"seq":1,"\u017feq":2}`, `{"a":1,"a":1}`,
	`9007199254740993`, `1E30`, `[1.5e-7, -0, 1e21, "\u20ac"]`, `"\ud800"`, `{"a":[{"b":null}]}`,
	`{} {}`, "\xff", `[[[[[]]]]]`, `{"sig":"x","o":{"k":true}}`,
}

// FuzzCanonical: never panics; an accepted value's canonical form is accepted again and
// canonicalises to itself (idempotent), and agrees with encoding/json on validity.
func FuzzCanonical(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := Canonical(raw)
		if err != nil {
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("accepted invalid JSON %q", raw)
		}
		// The writer and github.com/gowebpki/jcs agree byte for byte.
		if want, err := jcs.Transform(raw); err != nil || !bytes.Equal(want, out) {
			t.Fatalf("differs from jcs: %q → %q, jcs %q (%v)", raw, out, want, err)
		}
		again, err := Canonical(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q → %q (%v)", raw, out, again, err)
		}
		if w, err := CanonicalWithout(raw, "sig"); err == nil {
			if w2, err := Canonical(w); err != nil || !bytes.Equal(w, w2) {
				t.Fatalf("CanonicalWithout not canonical: %q", w)
			}
		} else if !errors.Is(err, ErrNotObject) {
			t.Fatalf("CanonicalWithout refused what Canonical accepted: %v", err)
		}
	})
}

type fuzzTarget struct {
	V    int               `json:"v"`
	S    string            `json:"s"`
	P    *int64            `json:"p"`
	L    []fuzzTarget      `json:"l"`
	M    map[string]string `json:"m"`
	Raw  json.RawMessage   `json:"raw"`
	Flag bool              `json:"flag"`
}

// FuzzDecode: never panics; whatever Decode accepts has only exact-case known member names,
// and is accepted by Canonical.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"v":1,"s":"x","p":null,"l":[{"v":2}],"m":{"K":"v"},"raw":[1],"flag":true}`))
	f.Add([]byte(`{"V":1}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v fuzzTarget
		if err := Decode(raw, &v); err != nil {
			return
		}
		if _, err := Canonical(raw); err != nil {
			t.Fatalf("Decode accepted what Canonical refuses: %v", err)
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(raw, &top) == nil {
			for k := range top {
				if !strings.Contains(" v s p l m raw flag ", " "+k+" ") {
					t.Fatalf("accepted member %q", k)
				}
			}
		}
	})
}
