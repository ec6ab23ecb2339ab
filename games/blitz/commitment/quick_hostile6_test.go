package commitment

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// Hostile tests (T6) of this afternoon's quick reader: the whole-copy path for commitments
// received canonical, memberAt's literal matching, strAt over canon.SkipPlain, the Names cache,
// ids and sig texts sharing one allocation, FinishQuick's paired digests, ParseRound's direct
// 19-digit read. checkQuick (quick_test.go) holds each taken commitment to ParseForms.

// hostile6Bytes are the byte values put in place of one byte of a commitment: the specials of
// a string scan, the structural bytes, and look-alikes of the bytes they replace.
var hostile6Bytes = []byte{0x00, ' ', '\n', '"', '\\', 0x7f, 0x80, '}', ',', ':', '0', '9', '-', 'e', 'A', 'x'}

// One byte of a commitment received in its canonical form (the whole-copy path) or in a loose
// form (written member by member), replaced by each of hostile6Bytes at every offset: whatever
// ScanQuick takes, ParseForms takes with the same commitment, canonical bytes and forms.
func TestScanQuickHostile6OneByte(t *testing.T) {
	k := testKey("alice")
	b := baseObj()
	forms := [][]byte{
		signed(t, b, k), // json.Marshal of a map: JCS order, compact
		signed(t, strings.Replace(b, `{"always":true}`, `{"and":[{"survives":["`+carol+`",2]},{"not":{"honoured":"sha256:`+strings.Repeat("0f", 32)+`"}}]}`, 1), k),
		signedLoose(t, exampleObj, k),
	}
	took, total := 0, 0
	for _, f := range forms {
		if !checkQuick(t, f) {
			t.Fatalf("%s: not taken unchanged", f)
		}
		hex := bytes.Index(f, []byte(`"ed25519:`)) + 9
		for i := range f {
			if i > hex+2 && i < hex+126 && i%8 != 0 {
				continue // the sig's hex digits are alike: one in eight of them
			}
			for _, c := range hostile6Bytes {
				if f[i] == c {
					continue
				}
				raw := bytes.Clone(f)
				raw[i] = c
				total++
				if checkQuick(t, raw) {
					took++
					checkJCS6(t, raw)
				}
			}
		}
	}
	// Some changes keep a valid commitment (a digit of the amount, a letter of an id): the
	// quick path must still take those, or the test judges nothing.
	if took < 100 {
		t.Fatalf("ScanQuick took %d of %d changed commitments: too few to judge", took, total)
	}
	t.Logf("%d of %d one-byte changes taken, each as ParseForms reads it", took, total)
}

// checkJCS6 holds a taken commitment's forms to github.com/gowebpki/jcs, which owes nothing to
// canon's strict scan (the reference checkQuick itself leans on): Forms.Signed is JCS of the
// object, Canonical.Bytes JCS of the object less sig.
func checkJCS6(t *testing.T, raw []byte) {
	t.Helper()
	q, _, _ := ScanQuick(raw, 0)
	full, err := jcs.Transform(bytes.Clone(raw))
	if err != nil || !bytes.Equal(full, q.Forms.Signed) {
		t.Fatalf("%q: signed form %q, jcs %q (%v)", raw, q.Forms.Signed, full, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "sig")
	obj, _ := json.Marshal(m)
	without, err := jcs.Transform(obj)
	if err != nil || !bytes.Equal(without, q.Canonical.Bytes) {
		t.Fatalf("%q: canonical bytes %q, jcs of the object less sig %q (%v)", raw, q.Canonical.Bytes, without, err)
	}
}

// The payer's text with a special byte or sequence at every offset, the payer's literal at
// lengths around SkipPlain's 16- and 32-byte blocks, and the payer as the last member so its
// closing quote sits near the end of the data: never taken unless printable ASCII, and then as
// ParseForms reads it.
func TestScanQuickHostile6PayerBytes(t *testing.T) {
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
					if checkQuick(t, raw) {
						took++
						if strings.ContainsAny(payer, "\"\\ \x7f") || strings.ContainsFunc(payer, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
							t.Fatalf("%q: taken with payer %q", raw, payer)
						}
					}
				}
			}
		}
	}
	if took == 0 {
		t.Fatal("no payer taken: the test judges nothing")
	}
}

// A commitment cut short at every length, and read from every offset of a buffer holding it
// after whitespace: never taken unless whole, never a panic, and ending where it ends.
func TestScanQuickHostile6Truncated(t *testing.T) {
	raw := signed(t, baseObj(), testKey("alice"))
	for n := 0; n < len(raw); n++ {
		if _, _, ok := ScanQuick(raw[:n], 0); ok {
			t.Fatalf("taken cut at %d: %q", n, raw[:n])
		}
		var room []byte
		var q Quick
		if _, ok := scanQuickTo(&q, raw[:n:n], 0, &room, &Names{}); ok {
			t.Fatalf("scanQuickTo took it cut at %d", n)
		}
	}
	buf := append([]byte(" \t\n\r "), raw...)
	for at := 0; at <= 5; at++ {
		if _, end, ok := ScanQuick(buf, at); !ok || end != len(buf) {
			t.Fatalf("from %d: %v, end %d of %d", at, ok, end, len(buf))
		}
	}
	for _, at := range []int{6, len(buf), len(buf) + 1, -1} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("ScanQuick(buf, %d) panicked: %v", at, r)
				}
			}()
			if at < 0 || at > len(buf) {
				return // outside the data: the caller's offsets are always inside it
			}
			if _, _, ok := ScanQuick(buf, at); ok {
				t.Errorf("taken from %d", at)
			}
		}()
	}
}

// Nothing a Quick holds after ScanQuick, scanQuickInto, scanQuickTo (with and without names) or
// ScanQuickToLater then FinishQuick is a view of the input: the input overwritten afterwards,
// every field (strings, forms, digest, id, sig text, condition) reads as before.
func TestScanQuickHostile6NoViewOfInput(t *testing.T) {
	k := testKey("alice")
	for _, obj := range []string{baseObj(), exampleObj,
		strings.Replace(baseObj(), `{"always":true}`, `{"or":[{"backs":["`+carol+`","`+alice+`"]},{"honoured":"sha256:`+strings.Repeat("ab", 32)+`"}]}`, 1)} {
		for _, form := range [][]byte{signed(t, obj, k), signedLoose(t, obj, k)} {
			for way := 0; way < 5; way++ {
				in := bytes.Clone(form)
				var q Quick
				ok := false
				room := make([]byte, 0, 4096)
				switch way {
				case 0:
					q, _, ok = ScanQuick(in, 0)
				case 1:
					q, _, ok = scanQuickInto(in, 0, &room)
				case 2:
					_, ok = scanQuickTo(&q, in, 0, &room, nil)
				case 3:
					_, ok = scanQuickTo(&q, in, 0, &room, &Names{})
				case 4:
					qs := make([]Quick, 3)
					for i := range qs {
						if _, ok = ScanQuickToLater(&qs[i], in, 0, &room, &Names{}); !ok {
							break
						}
					}
					FinishQuick(qs)
					q = qs[1]
				}
				if !ok {
					t.Fatalf("way %d: %s not taken", way, form)
				}
				before := fmt.Sprintf("%#v", q)
				for i := range in {
					in[i] = 'X'
				}
				if after := fmt.Sprintf("%#v", q); after != before {
					t.Fatalf("way %d: the Quick changed with its input:\n%s\n%s", way, before, after)
				}
			}
		}
	}
}

// A Names cache full of near misses (prefixes, extensions, other cases, the empty string) gives
// each commitment exactly its own strings, however many times and in whatever order they come.
func TestNamesHostile6NearMisses(t *testing.T) {
	k := testKey("alice")
	var names Names
	for _, s := range []string{"T-77", "T-", alice + "x", alice[:len(alice)-1], strings.ToUpper(bob), "", "T-7 ", carol} {
		names.intern([]byte(s))
	}
	objs := []string{baseObj(),
		strings.Replace(strings.Replace(baseObj(), `"T-7"`, `"T-77"`, 1), alice, carol, 1),
		strings.Replace(baseObj(), bob, carol, 1)}
	r := rand.New(rand.NewPCG(6, 6))
	for i := 0; i < 60; i++ {
		raw := signed(t, objs[r.IntN(len(objs))], k)
		c, _, _, err := ParseForms(raw)
		if err != nil {
			t.Fatal(err)
		}
		var q Quick
		room := make([]byte, 0, 2048)
		if _, ok := scanQuickTo(&q, raw, 0, &room, &names); !ok {
			t.Fatalf("%s not taken", raw)
		}
		if !reflect.DeepEqual(q.Commitment, c) {
			t.Fatalf("with a cache of near misses: %+v, ParseForms %+v", q.Commitment, c)
		}
	}
}

// ParseRound against strconv.ParseUint and the rule's own words, on every digit count from 1 to
// 21 with random digits, the 19- and 20-digit edges, and each digit position holding a non-digit.
func TestParseRoundHostile6(t *testing.T) {
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

// FinishQuick's paired digests over commitments whose canonical bytes take every length modulo
// SHA-256's 64-byte block across three blocks (the payer 1 to 150 characters), paired with
// neighbours of other lengths so one stream of a pair has more blocks than the other: each id
// and digest is SHA-256 of the commitment's own canonical bytes, and each sig its own text.
func TestFinishQuickHostile6Lengths(t *testing.T) {
	var raws [][]byte
	for l := 1; l <= 150; l++ {
		payer := "ccd:" + strings.Repeat("x", l)
		obj := strings.Replace(baseObj(), `"payer":"`+alice+`"`, `"payer":"`+payer+`"`, 1)
		raws = append(raws, []byte(obj[:len(obj)-1]+`,"sig":"ed25519:`+fmt.Sprintf("%0128x", l)+`"}`))
	}
	r := rand.New(rand.NewPCG(6, 256))
	for rep := 0; rep < 40; rep++ {
		r.Shuffle(len(raws), func(i, j int) { raws[i], raws[j] = raws[j], raws[i] })
		n := 1 + r.IntN(9)
		list := raws[:n]
		qs := make([]Quick, n)
		room := make([]byte, 0, 1<<14)
		var names Names
		for i, raw := range list {
			if _, ok := ScanQuickToLater(&qs[i], raw, 0, &room, &names); !ok {
				t.Fatalf("%s not taken", raw)
			}
		}
		FinishQuick(qs)
		for i, raw := range list {
			want, _, ok := ScanQuick(raw, 0)
			if !ok || !reflect.DeepEqual(qs[i], want) {
				t.Fatalf("list of %d, item %d (%d canonical bytes): FinishQuick gave id %s, ScanQuick %s", n, i,
					len(qs[i].Canonical.Bytes), qs[i].Canonical.ID, want.Canonical.ID)
			}
			if d := sha256.Sum256(qs[i].Canonical.Bytes); d != qs[i].Canonical.Digest || !strings.HasSuffix(string(raw), `"sig":"`+qs[i].Commitment.Sig+`"}`) {
				t.Fatalf("item %d: digest or sig is not its own", i)
			}
		}
	}
}
