package canon

import (
	"bytes"
	"errors"
	"testing"
)

// checkForms holds CanonicalForms to Canonical, CanonicalWithout and the member's own
// Canonical, byte for byte and error for error.
func checkForms(t *testing.T, raw []byte, skip, member string) {
	t.Helper()
	v, err := Parse(raw)
	if err != nil {
		return
	}
	full, without, part, err := v.CanonicalForms(skip, member)
	wantWithout, werr := v.CanonicalWithout(skip)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: CanonicalForms error %v, CanonicalWithout %v", raw, err, werr)
	}
	if err != nil {
		if errors.Is(err, ErrNotObject) != errors.Is(werr, ErrNotObject) {
			t.Fatalf("%q: errors %v and %v", raw, err, werr)
		}
		return
	}
	wantFull, ferr := v.Canonical()
	if ferr != nil || !bytes.Equal(full, wantFull) {
		t.Fatalf("%q: full %q, Canonical %q (%v)", raw, full, wantFull, ferr)
	}
	if !bytes.Equal(without, wantWithout) {
		t.Fatalf("%q: without %q, CanonicalWithout %q", raw, without, wantWithout)
	}
	var wantPart []byte
	for i := 0; i < v.Len(); i++ {
		if name, x := v.Member(i); name == member {
			if wantPart, err = x.Canonical(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !bytes.Equal(part, wantPart) || (part == nil) != (wantPart == nil) {
		t.Fatalf("%q: member %q form %q, want %q", raw, member, part, wantPart)
	}
	// Appending to one view never writes into another.
	_ = append(part, "XX"...)
	_ = append(without, "XX"...)
	if !bytes.Equal(full, wantFull) || !bytes.Equal(without, wantWithout) {
		t.Fatalf("%q: an append to one form changed another", raw)
	}
}

func TestCanonicalForms(t *testing.T) {
	cases := []string{
		`{"v":1,"round":"T-7","sig":"ed25519:00","condition":{"and":[{"always":true},{"not":{"always":true}}]},"amount":5}`,
		`{"sig":"x"}`, `{"sig":"x","a":1}`, `{"a":1,"sig":"x"}`, `{"a":1}`, `{}`, `{"condition":1}`,
		`{"condition":1.5,"sig":"x","b":"\u00e9\n"}`, `{"sig":1e400}`, `[1]`, `"s"`,
		`{"z":{"y":1,"x":2},"sig":"s","condition":{"b":[3,2,1],"a":null}}`, `{"\ud83d\ude00":1,"\uffff":2,"sig":0}`,
	}
	for _, c := range cases {
		checkForms(t, []byte(c), "sig", "condition")
	}
	for _, c := range fuzzSeeds {
		checkForms(t, []byte(c), "sig", "o")
	}
}

func FuzzCanonicalForms(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "sig", "o")
	}
	f.Add([]byte(`{"v":1,"sig":"x","condition":{"always":true}}`), "sig", "condition")
	f.Fuzz(func(t *testing.T, raw []byte, skip, member string) {
		checkForms(t, raw, skip, member)
	})
}
