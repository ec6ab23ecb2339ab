package canon

import "testing"

// TestErrorPaths pins the member path each strict-check refusal names: the scanner writes the
// path only when it reports an error, from its stack of names and indexes.
func TestErrorPaths(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":[1,{"b":1,"b":2}]}`, `canon: duplicate member: "b" in $.a[1]`},
		{`{"a":{"x":[0,0,{"Seq":1,"seq":2}]}}`, `canon: member names equal under case folding: "Seq" and "seq" in $.a.x[2]`},
		{`[{"amount":9007199254740993}]`, `canon: integer outside ±(2^53-1): 9007199254740993 at $[0].amount`},
		{`{"a":1,"b":[[9007199254740993]]}`, `canon: integer outside ±(2^53-1): 9007199254740993 at $.b[0][0]`},
		{"{\"a\":\"x\x01y\"}", `canon: malformed JSON: control character in string at offset 7`},
		{`{"a":[true,"x\q"]}`, `canon: malformed JSON: bad escape at offset 15`},
		{`{"a":"xy`, `canon: malformed JSON: unterminated string at offset 8`},
	} {
		_, err := Parse([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.in, err, c.want)
		}
	}
	// A string value is only checked while scanning; its content is still read exactly.
	v, err := Parse([]byte(`{"t":"a\"b\u00e9","u":"plain"}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"a\"b\u00e9", "plain"} {
		_, x := v.Member(i)
		if s, ok := x.Str(); !ok || s != want {
			t.Errorf("member %d: %q, want %q", i, s, want)
		}
	}
}
