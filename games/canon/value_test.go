package canon

import (
	"errors"
	"testing"
)

func TestValue(t *testing.T) {
	raw := []byte(` {"s":"a\u00e9\n","i":-42,"z":-0,"f":1.5,"e":1e3,"t":true,"n":null,"a":[1,"x",false],"o":{"sig":"q","k":2}} `)
	v, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind() != Object || v.Len() != 9 || string(v.Raw()) != string(raw[1:len(raw)-1]) {
		t.Fatalf("root: kind %c len %d", v.Kind(), v.Len())
	}
	got := map[string]Value{}
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		got[name] = m
	}
	if s, ok := got["s"].Str(); !ok || s != "aé\n" {
		t.Fatalf("Str %q %v", s, ok)
	}
	if _, ok := got["i"].Str(); ok {
		t.Fatal("Str of a number")
	}
	if n, ok := got["i"].Int(); !ok || n != -42 {
		t.Fatalf("Int %d %v", n, ok)
	}
	if n, ok := got["z"].Int(); !ok || n != 0 {
		t.Fatalf("Int(-0) %d %v", n, ok)
	}
	for _, k := range []string{"f", "e", "s", "t"} {
		if _, ok := got[k].Int(); ok {
			t.Fatalf("Int accepted %s", k)
		}
	}
	if b, ok := got["t"].Bool(); !ok || !b {
		t.Fatal("Bool(true)")
	}
	if _, ok := got["n"].Bool(); ok || got["n"].Kind() != Null {
		t.Fatal("null")
	}
	a := got["a"]
	if a.Kind() != Array || a.Len() != 3 || a.Elem(1).Kind() != String {
		t.Fatalf("array %c %d", a.Kind(), a.Len())
	}
	if b, ok := a.Elem(2).Bool(); !ok || b {
		t.Fatal("Bool(false)")
	}
	if c, err := got["f"].Canonical(); err != nil || string(c) != "1.5" {
		t.Fatalf("Canonical 1.5: %s %v", c, err)
	}
	if c, err := got["e"].Canonical(); err != nil || string(c) != "1000" {
		t.Fatalf("Canonical 1e3: %s %v", c, err)
	}
	if c, err := got["o"].CanonicalWithout("sig"); err != nil || string(c) != `{"k":2}` {
		t.Fatalf("CanonicalWithout nested: %s %v", c, err)
	}
	if _, err := got["a"].CanonicalWithout("sig"); !errors.Is(err, ErrNotObject) {
		t.Fatalf("CanonicalWithout array: %v", err)
	}
	// The whole document without "f" still goes through jcs for 1e3 and gives its ES6 form.
	if c, err := v.CanonicalWithout("f"); err != nil || string(c) != `{"a":[1,"x",false],"e":1000,"i":-42,"n":null,"o":{"k":2,"sig":"q"},"s":"aé\n","t":true,"z":0}` {
		t.Fatalf("CanonicalWithout(f): %s %v", c, err)
	}
	var zero Value
	if zero.Kind() != Null || zero.Len() != 0 || string(zero.Raw()) != "null" {
		t.Fatal("zero Value")
	}
	if c, _ := zero.Canonical(); string(c) != "null" {
		t.Fatal("zero Canonical")
	}
	if _, err := Parse([]byte(`{"a":1,"A":2}`)); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("Parse strictness: %v", err)
	}
}
