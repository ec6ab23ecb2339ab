package commitment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// Hostile byte-level tests of the one parser of signed commitments (ParseForms): changed
// bytes, hostile payer texts, truncation, forms that owe nothing to the input, ParseRound's
// direct 19-digit read.

// oneByteSubs are the byte values put in place of one byte of a commitment: the specials of
// a string scan, the structural bytes, and look-alikes of the bytes they replace.
var oneByteSubs = []byte{0x00, ' ', '\n', '"', '\\', 0x7f, 0x80, '}', ',', ':', '0', '9', '-', 'e', 'A', 'x'}

// parses reports whether ParseForms takes raw.
func parses(raw []byte) bool {
	_, _, _, err := ParseForms(raw)
	return err == nil
}

// One byte of a commitment received in its canonical form or in a loose form, replaced by each
// of oneByteSubs at every offset: whatever ParseForms takes, its forms are those
// github.com/gowebpki/jcs writes (checkJCS).
func TestParseFormsOneByte(t *testing.T) {
	k := testKey("alice")
	b := baseObj()
	forms := [][]byte{
		signed(t, b, k), // json.Marshal of a map: JCS order, compact
		signed(t, strings.Replace(b, `{"always":true}`, `{"and":[{"survives":["`+carol+`",2]},{"not":{"honoured":"sha256:`+strings.Repeat("0f", 32)+`"}}]}`, 1), k),
		signedLoose(t, exampleObj, k),
	}
	took, total := 0, 0
	for _, f := range forms {
		if !parses(f) {
			t.Fatalf("%s: not taken unchanged", f)
		}
		hex := bytes.Index(f, []byte(`"ed25519:`)) + 9
		for i := range f {
			if i > hex+2 && i < hex+126 && i%8 != 0 {
				continue // the sig's hex digits are alike: one in eight of them
			}
			for _, c := range oneByteSubs {
				if f[i] == c {
					continue
				}
				raw := bytes.Clone(f)
				raw[i] = c
				total++
				if parses(raw) {
					took++
					checkJCS(t, raw)
				}
			}
		}
	}
	// Some changes keep a valid commitment (a digit of the amount, a letter of an id): the
	// parser must still take those, or the test judges nothing.
	if took < 100 {
		t.Fatalf("ParseForms took %d of %d changed commitments: too few to judge", took, total)
	}
	t.Logf("%d of %d one-byte changes taken, each as jcs writes it", took, total)
}

// checkJCS holds a taken commitment's forms to github.com/gowebpki/jcs, which owes nothing to
// canon's strict scan: Forms.Signed is JCS of the object, Canonical.Bytes JCS of the object
// less sig.
func checkJCS(t *testing.T, raw []byte) {
	t.Helper()
	_, cb, forms, err := ParseForms(raw)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	full, err := jcs.Transform(bytes.Clone(raw))
	if err != nil || !bytes.Equal(full, forms.Signed) {
		t.Fatalf("%q: signed form %q, jcs %q (%v)", raw, forms.Signed, full, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "sig")
	obj, _ := json.Marshal(m)
	without, err := jcs.Transform(obj)
	if err != nil || !bytes.Equal(without, cb.Bytes) {
		t.Fatalf("%q: canonical bytes %q, jcs of the object less sig %q (%v)", raw, cb.Bytes, without, err)
	}
}

// The payer's text with a special byte or sequence at every offset, the payer's literal at
// lengths around the string scan's 8- and 32-byte blocks, and the payer as the last member so
// its closing quote sits near the end of the data: never taken unless printable ASCII.
func TestParseFormsPayerBytes(t *testing.T) {
	seqs := []string{"\x00", "\x1f", "\x7f", "\x80", "\xc3", "\xc3\xa9", "\xe2\x82", "\xed\xa0\x80", "\xff", `\"`, `\\`,
		`\u0041`, `"`, "\\", "~", "!", " "}
	took := 0
	for _, l := range []int{1, 14, 15, 16, 17, 30, 31, 32, 33, 34, 62, 63, 64, 65} {
		for pos := 0; pos < l; pos++ {
			for _, s := range seqs {
				payer := strings.Repeat("p", pos) + s + strings.Repeat("q", l-pos-1)
				if len(payer) < 1 {
					continue
				}
				obj := strings.Replace(baseObj(), `"payer":"`+alice+`"`, `"payer":"`+payer+`"`, 1)
				last := `{"v":1,"round":"T-7","turn":1,"seq":1,"payee":"` + bob + `","amount":40000000,"condition":{"always":true},"due":2,"sig":"ed25519:` +
					strings.Repeat("ab", 64) + `","payer":"` + payer + `"}`
				dummy := obj[:len(obj)-1] + `,"sig":"ed25519:` + strings.Repeat("cd", 64) + `"}` // not verified here
				for _, raw := range [][]byte{[]byte(dummy), []byte(last)} {
					c, _, _, err := ParseForms(raw)
					if err != nil {
						continue
					}
					took++
					if strings.ContainsFunc(c.Payer, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
						t.Fatalf("%q: taken with payer %q", raw, c.Payer)
					}
				}
			}
		}
	}
	if took == 0 {
		t.Fatal("no payer taken: the test judges nothing")
	}
}

// A commitment cut short at every length is never taken, and never a panic; leading and
// trailing whitespace around the whole is.
func TestParseFormsTruncated(t *testing.T) {
	raw := signed(t, baseObj(), testKey("alice"))
	for n := 0; n < len(raw); n++ {
		if parses(raw[:n]) {
			t.Fatalf("taken cut at %d: %q", n, raw[:n])
		}
	}
	if !parses(append([]byte(" \t\n\r "), append(bytes.Clone(raw), " \n"...)...)) {
		t.Fatal("not taken with whitespace around it")
	}
}

// Nothing ParseForms returns is a view of the input: the input overwritten afterwards, every
// field (strings, forms, digest, id, sig text, condition) reads as before.
func TestParseFormsNoViewOfInput(t *testing.T) {
	k := testKey("alice")
	for _, obj := range []string{baseObj(), exampleObj,
		strings.Replace(baseObj(), `{"always":true}`, `{"or":[{"backs":["`+carol+`","`+alice+`"]},{"honoured":"sha256:`+strings.Repeat("ab", 32)+`"}]}`, 1)} {
		for _, form := range [][]byte{signed(t, obj, k), signedLoose(t, obj, k)} {
			in := bytes.Clone(form)
			c, cb, f, err := ParseForms(in)
			if err != nil {
				t.Fatalf("%s not taken: %v", form, err)
			}
			before := fmt.Sprintf("%#v %#v %#v", c, cb, f)
			for i := range in {
				in[i] = 'X'
			}
			if after := fmt.Sprintf("%#v %#v %#v", c, cb, f); after != before {
				t.Fatalf("the result changed with its input:\n%s\n%s", before, after)
			}
		}
	}
}

// ParseRound against strconv.ParseUint and the rule's own words, on every digit count from 1 to
// 21 with random digits, the 19- and 20-digit edges, and each digit position holding a non-digit.
func TestParseRoundDigits(t *testing.T) {
	ref := func(id string) (uint64, bool) {
		if !strings.HasPrefix(id, "T-") || len(id) < 3 || id[2] == '0' {
			return 0, false
		}
		for _, c := range []byte(id[2:]) {
			if c < '0' || c > '9' {
				return 0, false
			}
		}
		n, err := strconv.ParseUint(id[2:], 10, 64)
		if err != nil {
			return 0, false
		}
		return n, true
	}
	r := rand.New(rand.NewPCG(19, 20))
	var ids []string
	for d := 1; d <= 21; d++ {
		for i := 0; i < 200; i++ {
			b := make([]byte, d)
			for j := range b {
				b[j] = '0' + byte(r.IntN(10))
			}
			ids = append(ids, "T-"+string(b))
			if i < 20 { // a non-digit somewhere
				b[r.IntN(d)] = []byte{'/', ':', 'a', ' ', '-', '+', 0x80}[r.IntN(7)]
				ids = append(ids, "T-"+string(b))
			}
		}
	}
	ids = append(ids, "T-9999999999999999999", "T-10000000000000000000", "T-18446744073709551615",
		"T-18446744073709551616", "T-18446744073709551619", "T-99999999999999999999", "T-1"+strings.Repeat("0", 19),
		"T-"+strings.Repeat("9", 40), "T-0000000000000000001", "T-1\x00")
	for _, id := range ids {
		wn, wok := ref(id)
		if n, ok := ParseRound(id); n != wn || ok != wok {
			t.Fatalf("ParseRound(%q) = %d, %v; strconv %d, %v", id, n, ok, wn, wok)
		}
	}
}

// BenchmarkParseForms reads one signed commitment of the round benchmark's shape: the one path
// every received commitment takes.
func BenchmarkParseForms(b *testing.B) {
	raw := signed(b, baseObj(), testKey("alice"))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := ParseForms(raw); err != nil {
			b.Fatal(err)
		}
	}
}
