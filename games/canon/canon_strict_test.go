package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// Hostile tests of the strict scan (skipStr over skipPlain): the strict parser must refuse and
// accept exactly what the rules say, whatever the bytes of a string are and wherever they sit
// around the 8- and 32-byte blocks, and write JCS byte for byte.

// strictSeqs are byte sequences put into a string's content, with whether a string holding
// one (between plain bytes) is acceptable: valid UTF-8, no raw control character, escapes
// well formed, surrogate escapes paired (I-JSON).
var strictSeqs = []struct {
	s  string
	ok bool
}{
	{"é", true}, {"€", true}, {"😀", true}, {"\u2028", true}, {"\uffff", true}, {"\ufeff", true}, {"\x7f", true},
	{"\xed\xa0\x80", false}, {"\xc0\xaf", false}, {"\xe0\x80\x80", false}, {"\xe2\x82", false},
	{"\xf0\x9f\x98", false}, {"\x80", false}, {"\xbf", false}, {"\xf5\x80\x80\x80", false},
	{"\xf4\x90\x80\x80", false}, {"\xc3", false}, {"\xff", false},
	{`\"`, true}, {`\\`, true}, {`\/`, true}, {`\u0000`, true}, {`\u001f`, true}, {`\ud83d\ude00`, true},
	{`\u00e9`, true}, {`\b\f\n\r\t`, true}, {`\ud800`, false}, {`\udc00`, false}, {`\ud83d\u0041`, false},
	{`\x`, false}, {`\u12`, false}, {`\U0041`, false}, {`\'`, false},
	{"\x00", false}, {"\x01", false}, {"\n", false}, {"\x1f", false},
}

// strictLens are content lengths around skipPlain's blocks.
var strictLens = []int{0, 1, 2, 15, 16, 17, 31, 32, 33, 34, 63, 64, 65}

// checkCanonical holds Canonical, CanonicalWithout, Parse and Value.Canonical to each other and
// to want (acceptance) and github.com/gowebpki/jcs (bytes); the result must not change when the
// input is overwritten after the call.
func checkCanonical(t *testing.T, raw []byte, want bool) {
	t.Helper()
	in := bytes.Clone(raw)
	got, err := Canonical(in)
	if (err == nil) != want {
		t.Fatalf("%q: Canonical err %v, want accepted %v", raw, err, want)
	}
	v, perr := Parse(bytes.Clone(raw))
	if (perr == nil) != want {
		t.Fatalf("%q: Parse err %v, Canonical err %v", raw, perr, err)
	}
	if !want {
		return
	}
	ref, jerr := jcs.Transform(bytes.Clone(raw))
	if jerr != nil || !bytes.Equal(got, ref) {
		t.Fatalf("%q: Canonical %q, jcs %q (%v)", raw, got, ref, jerr)
	}
	vc, verr := v.Canonical()
	if verr != nil || !bytes.Equal(vc, got) {
		t.Fatalf("%q: Value.Canonical %q (%v), Canonical %q", raw, vc, verr, got)
	}
	keep := bytes.Clone(got)
	for i := range in {
		in[i] = '"'
	}
	if !bytes.Equal(got, keep) {
		t.Fatalf("%q: the canonical form changed with its input", raw)
	}
}

// Every byte value, and every sequence of strictSeqs, at every offset of a string's content of
// each length in strictLens: as a top-level string (its closing quote the input's last byte),
// a member's value, a member's name, and with the
// string unterminated.
func TestCanonicalStringBytes(t *testing.T) {
	type seq struct {
		s  string
		ok bool
	}
	var seqs []seq
	for c := 0; c < 256; c++ {
		b := string([]byte{byte(c)})
		ok := c >= 0x20 && c != '"' && c != '\\' && c < 0x80
		if ok && c != ' ' && c != '!' && c != '#' && c != '[' && c != ']' && c != '~' {
			continue // the plain bytes are alike to skipPlain (TestSkipPlainEveryByte has them all)
		}
		seqs = append(seqs, seq{b, ok})
	}
	for _, s := range strictSeqs {
		seqs = append(seqs, seq(s))
	}
	n := 0
	for _, l := range strictLens {
		for pos := 0; pos <= l; pos++ {
			for _, sq := range seqs {
				content := strings.Repeat("a", pos) + sq.s + strings.Repeat("q", l-pos) // (\q is no escape)
				if l == 0 && sq.s != "" {
					content = sq.s
				}
				checkCanonical(t, []byte(`"`+content+`"`), sq.ok)
				checkCanonical(t, []byte(`{"k":"`+content+`","z":1}`), sq.ok)
				checkCanonical(t, []byte(`{"`+content+`":1,"\u00ff":[]}`), sq.ok)
				// unterminated, unless the quote itself closes it as the content's last byte
				checkCanonical(t, []byte(`"`+content), sq.s == `"` && pos == l)
				n++
			}
			if pos > 34 { // the later offsets of the longest texts add nothing skipPlain has not seen
				break
			}
		}
	}
	if n < 30000 {
		t.Fatalf("only %d strings judged", n)
	}
}

// Member names near the literal ones: escaped, case-folded (ASCII and U+017F, U+212A), given
// twice directly or after a nested object's members, a name that is a prefix of another. The
// scanner's name cache must find an escaped spelling equal to a raw one, and never take a
// prefix for the name.
func TestCanonicalNearNames(t *testing.T) {
	refuse := []string{
		`{"seq":1,"\u0073eq":2}`, `{"\u0073eq":1,"seq":2}`, `{"seq":1,"SEQ":2}`, `{"seq":1,"ſeq":2}`,
		`{"kelvin":1,"\u212aelvin":2}`, `{"sig":1,"o":{"sig":2},"Sig":3}`, `{"a":1,"b":{"x":[{"a":1}]},"\u0061":2}`,
		`{"seq":1,"s\u0065q":1}`, `{"amount":1,"amount":1}`,
	}
	for _, r := range refuse {
		_, err := Canonical([]byte(r))
		if !errors.Is(err, ErrDuplicateMember) && !errors.Is(err, ErrFoldedMember) {
			t.Errorf("%s: %v, want a duplicate or folded member", r, err)
		}
		if _, err := Parse([]byte(r)); err == nil {
			t.Errorf("%s: Parse accepted", r)
		}
	}
	accept := []string{
		`{"se":1,"seq":2,"seqq":3,"s":4}`, `{"seq":1,"o":{"seq":2}}`, `{"a\"":1,"a":2}`, `{"a\\":1,"a":2}`,
		`{"\u0000":1,"":2}`, `{"` + strings.Repeat("n", 33) + `":1,"` + strings.Repeat("n", 32) + `":2}`,
		`[{"x":1},{"x":2},{"\u0078":3}]`,
	}
	for _, a := range accept {
		checkCanonical(t, []byte(a), true)
	}
	// more than 16 members: the map path of the duplicate check
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 20; i++ {
		b.WriteString(`"m` + string(rune('a'+i)) + `":1,`)
	}
	for _, tail := range []string{`"mA":1}`, `"m\u0061":1}`, `"mz":1}`} {
		raw := b.String() + tail
		_, err := Canonical([]byte(raw))
		if (err == nil) != (tail == `"mz":1}`) {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// Numbers at the edge of the safe integers, and 19 or 20 digits.
func TestCanonicalNumbers(t *testing.T) {
	for _, c := range []struct {
		n  string
		ok bool
	}{
		{"9007199254740991", true}, {"-9007199254740991", true}, {"9007199254740992", false},
		{"-9007199254740992", false}, {"9007199254740991e0", true}, {"900719925474099.1e1", true},
		{"90071992547409910e-1", true}, {"9.007199254740992e15", false}, {"1234567890123456789", false},
		{"12345678901234567890", false}, {"-0", true}, {"0e99999999999", true}, {"1e-99999999999", true},
		{"0.0000", true}, {"1E+2", true}, {"01", false}, {"1.", false}, {".5", false}, {"+1", false},
		{"-", false}, {"1e", false}, {"1e+", false},
	} {
		checkCanonical(t, []byte(`{"n":`+c.n+`}`), c.ok)
	}
}

// Canonical from many goroutines on inputs of different shapes and lengths, each result held
// to one computed alone beforehand; then the inputs scribbled over and the results checked
// again: no result aliases a tree's lists or another call's input.
func TestCanonicalConcurrent(t *testing.T) {
	var inputs [][]byte
	for _, l := range strictLens {
		s := strings.Repeat("q", l)
		inputs = append(inputs,
			[]byte(`{"`+s+`":"`+s+`","b":[1,{"`+s+`x":"é"}],"a":null}`),
			[]byte(`["`+s+`",{"z":"\u00e9`+s+`","y":1.5e3}]`))
	}
	want := make([][]byte, len(inputs))
	for i, in := range inputs {
		w, err := jcs.Transform(bytes.Clone(in))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = w
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				var outs [][]byte
				var ins [][]byte
				for i := range inputs {
					in := bytes.Clone(inputs[(i+g+k)%len(inputs)])
					out, err := Canonical(in)
					if err != nil {
						errs <- err.Error()
						return
					}
					outs, ins = append(outs, out), append(ins, in)
				}
				for _, in := range ins {
					for j := range in {
						in[j] = '\\'
					}
				}
				for i, out := range outs {
					if !bytes.Equal(out, want[(i+g+k)%len(inputs)]) {
						errs <- "a result changed after later calls or its input's overwrite: " + string(out)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// FuzzCanonicalStrict: Canonical, the tree-keeping Parse and github.com/gowebpki/jcs
// agree on every input (acceptance by json.Valid and utf8.Valid apart from the strict rules, and
// bytes), before and after the input is overwritten, and the canonical form canonicalises to
// itself (a fraction beyond 2^53 or float64 is the hard case: fraction_test.go).
func FuzzCanonicalStrict(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"` + strings.Repeat("a", 31) + `":"` + strings.Repeat("b", 15) + "\xc3\xa9" + `"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		in := bytes.Clone(raw)
		out, err := Canonical(in)
		v, perr := Parse(raw)
		if (err == nil) != (perr == nil) {
			t.Fatalf("%q: Canonical %v, Parse %v", raw, err, perr)
		}
		if err != nil {
			return
		}
		if !json.Valid(raw) || !utf8.Valid(raw) {
			t.Fatalf("accepted %q", raw)
		}
		ref, jerr := jcs.Transform(bytes.Clone(raw))
		if jerr != nil || !bytes.Equal(ref, out) {
			t.Fatalf("%q: %q, jcs %q (%v)", raw, out, ref, jerr)
		}
		if vc, err := v.Canonical(); err != nil || !bytes.Equal(vc, out) {
			t.Fatalf("%q: Value.Canonical %q, Canonical %q", raw, vc, out)
		}
		w, werr := CanonicalWithout(in, "sig")
		if v.Kind() == Object {
			vw, vwerr := v.CanonicalWithout("sig")
			if werr != nil || vwerr != nil || !bytes.Equal(w, vw) {
				t.Fatalf("%q: CanonicalWithout %q (%v), Value's %q (%v)", raw, w, werr, vw, vwerr)
			}
		}
		keep, keepW := bytes.Clone(out), bytes.Clone(w)
		for i := range in {
			in[i] = '{'
		}
		if !bytes.Equal(out, keep) || !bytes.Equal(w, keepW) {
			t.Fatalf("%q: a result changed with its input", raw)
		}
		again, err := Canonical(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q → %q (%v)", raw, out, again, err)
		}
	})
}
