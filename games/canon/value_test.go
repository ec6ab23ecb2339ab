package canon

import (
	"bytes"
	"errors"
	"testing"
	"unsafe"
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

// StrBytes reads a string without an escape in place (its literal then its own JCS form) and
// decodes one with escapes into new bytes; StrIn gives the caller's own word when the content is
// one of them, whichever way it is written. Other kinds are refused by both.
func TestValueStrBytesAndStrIn(t *testing.T) {
	raw := []byte(`{"a":"plain é","b":"esc\u0061ped\n","c":"ask","d":"\u0061sk","e":"asks","f":1,"g":null,"h":""}`)
	v, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"offer", "ask"}
	want := map[string]struct {
		bytes string
		view  bool
		word  string
		found bool
		ok    bool
	}{
		"a": {"plain é", true, "plain é", false, true},
		"b": {"escaped\n", false, "escaped\n", false, true},
		"c": {"ask", true, "ask", true, true},
		"d": {"ask", false, "ask", true, true},
		"e": {"asks", true, "asks", false, true},
		"f": {"", false, "", false, false},
		"g": {"", false, "", false, false},
		"h": {"", true, "", false, true},
	}
	for i := 0; i < v.Len(); i++ {
		name, m := v.Member(i)
		w := want[name]
		b, ok := m.StrBytes()
		if ok != w.ok || string(b) != w.bytes {
			t.Errorf("%s: StrBytes %q %v, want %q %v", name, b, ok, w.bytes, w.ok)
		}
		if s, sok := m.Str(); sok != w.ok || s != w.bytes {
			t.Errorf("%s: Str %q %v, want %q %v", name, s, sok, w.bytes, w.ok)
		}
		if ok && len(m.Raw()) == len(b)+2 != w.view {
			t.Errorf("%s: read in place %v, want %v", name, !w.view, w.view)
		}
		if w.view && ok {
			if jcsForm, err := Canonical(m.Raw()); err != nil || !bytes.Equal(jcsForm, m.Raw()) {
				t.Errorf("%s: literal %q is not its JCS form %q (%v)", name, m.Raw(), jcsForm, err)
			}
		}
		s, found, ok := m.StrIn(words)
		if s != w.word || found != w.found || ok != w.ok {
			t.Errorf("%s: StrIn %q %v %v, want %q %v %v", name, s, found, ok, w.word, w.found, w.ok)
		}
		if found && unsafe.StringData(s) != unsafe.StringData(words[1]) {
			t.Errorf("%s: StrIn found a copy, not the caller's word", name)
		}
	}
}
