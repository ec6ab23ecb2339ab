package commitment

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"arena/games/canon"
)

// checkQuick holds ScanQuick to ParseForms: whatever ScanQuick takes, ParseForms takes with
// the same Commitment, Canonical and Forms, and ScanQuick ends where the object does.
func checkQuick(t *testing.T, raw []byte) bool {
	t.Helper()
	q, end, ok := ScanQuick(raw, 0)
	if !ok {
		return false
	}
	if rest := bytes.TrimSpace(raw[end:]); len(rest) != 0 {
		// Trailing bytes are the caller's (the rest of an answer); judge the object alone.
		raw = raw[:end]
	}
	c, cb, f, err := ParseForms(raw)
	if err != nil {
		t.Fatalf("ScanQuick took %q, ParseForms refused it: %v", raw, err)
	}
	if !reflect.DeepEqual(q.Commitment, c) {
		t.Fatalf("%q: commitment %+v, ParseForms %+v", raw, q.Commitment, c)
	}
	if !bytes.Equal(q.Canonical.Bytes, cb.Bytes) || q.Canonical.Digest != cb.Digest || q.Canonical.ID != cb.ID {
		t.Fatalf("%q: canonical %s, ParseForms %s", raw, q.Canonical.Bytes, cb.Bytes)
	}
	if !bytes.Equal(q.Forms.Signed, f.Signed) || !bytes.Equal(q.Forms.Condition, f.Condition) {
		t.Fatalf("%q: forms %s / %s, ParseForms %s / %s", raw, q.Forms.Signed, q.Forms.Condition, f.Signed, f.Condition)
	}
	if sig, err := canon.ParseSig(c.Sig); err != nil || !bytes.Equal(q.Sig[:], sig) {
		t.Fatalf("%q: Sig %x, the sig's text reads %x (%v)", raw, q.Sig, sig, err)
	}
	_ = append(q.Forms.Condition, "XX"...) // never writes into Signed
	if !bytes.Equal(q.Forms.Signed, f.Signed) {
		t.Fatalf("%q: an append to the condition's form changed the signed form", raw)
	}
	if at := q.CondAt; at < 0 || at+len(q.Forms.Condition) > len(q.Forms.Signed) ||
		!bytes.Equal(q.Forms.Signed[at:at+len(q.Forms.Condition)], q.Forms.Condition) {
		t.Fatalf("%q: CondAt %d does not locate the condition in the signed form", raw, q.CondAt)
	}
	checkQuickInto(t, raw, q)
	// scanQuickTo reads the same into a Quick in place (the answer reader's list), without
	// names, and with them both empty and holding the strings already (read twice).
	var names Names
	for _, n := range []*Names{nil, &names, &names} {
		var to Quick
		room := make([]byte, 0, 8<<10)
		if end2, ok := scanQuickTo(&to, raw, 0, &room, n); !ok || end2 != end || !reflect.DeepEqual(to, q) {
			t.Fatalf("%q: scanQuickTo read %+v (%v, end %d), ScanQuick %+v (end %d)", raw, to, ok, end2, q, end)
		}
		// And with the digest left to FinishQuick, alone in its list.
		later := make([]Quick, 1)
		if end2, ok := ScanQuickToLater(&later[0], raw, 0, &room, n); !ok || end2 != end {
			t.Fatalf("%q: ScanQuickToLater refused what ScanQuick took, or ended elsewhere", raw)
		}
		FinishQuick(later)
		if !reflect.DeepEqual(later[0], q) {
			t.Fatalf("%q: ScanQuickToLater then FinishQuick read %+v, ScanQuick %+v", raw, later[0], q)
		}
	}
	return true
}

// checkQuickInto holds scanQuickInto to ScanQuick's q for raw: with room to spare the forms
// are written after what room held, which stays as it was, room grows by exactly their size,
// and nothing past them is written; with too little room, room is left alone.
func checkQuickInto(t *testing.T, raw []byte, q Quick) {
	t.Helper()
	need := len(q.Forms.Signed) + len(q.Canonical.Bytes)
	for _, spare := range []int{need + 40, need, need - 1} {
		pre := []byte("held before")
		room := make([]byte, len(pre), len(pre)+spare)
		copy(room, pre)
		full := room[:cap(room)]
		for i := len(pre); i < len(full); i++ {
			full[i] = '#'
		}
		r, end, ok := scanQuickInto(raw, 0, &room)
		if _, qend, _ := ScanQuick(raw, 0); !ok || end != qend {
			t.Fatalf("%q: scanQuickInto refused what ScanQuick took, or ended elsewhere (%v, %d, %d)", raw, ok, end, qend)
		}
		if !reflect.DeepEqual(r.Commitment, q.Commitment) || r.Canonical.ID != q.Canonical.ID || r.Sig != q.Sig ||
			r.CondAt != q.CondAt || !bytes.Equal(r.Canonical.Bytes, q.Canonical.Bytes) ||
			!bytes.Equal(r.Forms.Signed, q.Forms.Signed) || !bytes.Equal(r.Forms.Condition, q.Forms.Condition) {
			t.Fatalf("%q (room %d for %d): scanQuickInto read differently from ScanQuick", raw, spare, need)
		}
		if !bytes.Equal(room[:len(pre)], pre) {
			t.Fatalf("%q: scanQuickInto wrote over what room held", raw)
		}
		if spare < need {
			if len(room) != len(pre) {
				t.Fatalf("%q: too little room (%d for %d), yet room grew to %d", raw, spare, need, len(room))
			}
			continue
		}
		if len(room) != len(pre)+need {
			t.Fatalf("%q: room grew by %d, the forms are %d", raw, len(room)-len(pre), need)
		}
		for i := len(room); i < len(full); i++ {
			if full[i] != '#' {
				t.Fatalf("%q: scanQuickInto wrote past its forms at %d", raw, i)
			}
		}
		if cap(r.Forms.Signed) != len(r.Forms.Signed) || cap(r.Canonical.Bytes) != len(r.Canonical.Bytes) {
			t.Fatalf("%q: the forms in room are not full slices", raw)
		}
	}
}

func quickCases(t testing.TB) []string {
	k := testKey("alice")
	b := baseObj()
	with := func(old, new string) string { return strings.Replace(b, old, new, 1) }
	dummySig := func(obj string) string {
		return obj[:len(obj)-1] + `,"sig":"ed25519:` + strings.Repeat("00", 64) + `"}`
	}
	return []string{
		string(signed(t, b, k)),
		string(signed(t, exampleObj, k)),
		string(signedLoose(t, b, k)),
		string(signedLoose(t, with(`"due":2`, `"due":2,"pair":"deal:0000abcd"`), k)),
		string(signedLoose(t, with(`{"always":true}`, `{"and":[{"survives":["`+carol+`",2]},{"not":{"honoured":"sha256:`+strings.Repeat("0f", 32)+`"}}]}`), k)),
		string(signedLoose(t, with(`{"always":true}`, ` { "or" : [ {"backs":["`+carol+`","`+alice+`"]} , {"always":true} ] } `), k)),
		string(signedLoose(t, "\t{\n"+strings.ReplaceAll(b[1:], ",", " ,\r\n "), k)),
		// each of these takes the strict path
		string(signedLoose(t, with(`"payer":"`+alice, `"payer":"ccd:é😀`), k)),
		dummySig(with(`"amount":40000000`, `"amount":40000000,"Amount":1`)),
		string(signedLoose(t, with(`"amount":40000000`, `"amount":9007199254740993`), k)),
		string(signedLoose(t, with(`"amount":40000000`, `"amount":500000`), k)),
		string(signedLoose(t, with(`"amount":40000000`, `"amount":4e7`), k)),
		string(signedLoose(t, with(`"round":"T-7"`, `"round":"T\u002d7"`), k)),
		string(signedLoose(t, with(`"seq":1`, `"seq":-0`), k)),
		dummySig(with(`"seq":1`, `"seq":01`)),
		string(signedLoose(t, with(`"due":2`, `"due":2,"memo":"x"`), k)),
		dummySig(with(`{"always":true}`, `{"always":true,"always":true}`)),
		string(signedLoose(t, with(`{"always":true}`, `{"and":[{"always":true}]}`), k)),
		string(signedLoose(t, with(`{"always":true}`, `{"not":{"not":{"not":{"always":true}}}}`), k)),
		string(signedLoose(t, with(`"payer":"`+alice, `"payer":"`+bob), k)),
		dummySig(with(`"turn":1`, `"turn":1,"turn":1`)),
		b, `{}`, `[]`, `{"v":1`, `{"v":1,}`, "{\"round\":\"\xff\"}",
	}
}

func TestScanQuickMatchesParse(t *testing.T) {
	took := 0
	for _, c := range quickCases(t) {
		if checkQuick(t, []byte(c)) {
			took++
		}
	}
	if took != 7 {
		t.Errorf("ScanQuick took %d cases, want the first 7", took)
	}
	// Inside an answer: it starts after whitespace and stops at the closing brace.
	raw := []byte(`[  ` + string(signed(t, baseObj(), testKey("alice"))) + ` ,1]`)
	q, end, ok := ScanQuick(raw, 1)
	if !ok || raw[end-1] != '}' || !strings.HasPrefix(string(raw[end:]), " ,1]") || q.Commitment.Amount != 40_000_000 {
		t.Fatalf("in an array: ok %v, end %d", ok, end)
	}
}

func FuzzScanQuick(f *testing.F) {
	for _, c := range quickCases(f) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkQuick(t, raw)
	})
}

// BenchmarkScanQuick reads one signed commitment of the round benchmark's shape.
func BenchmarkScanQuick(b *testing.B) {
	raw := signed(b, baseObj(), testKey("alice"))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := ScanQuick(raw, 0); !ok {
			b.Fatal("not taken")
		}
	}
}

// BenchmarkParseForms is the strict path for the same bytes.
func BenchmarkParseForms(b *testing.B) {
	raw := signed(b, baseObj(), testKey("alice"))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := ParseForms(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// An object received in its own full form (members in JCS order, no whitespace, its condition
// canonical) is copied whole into its forms; anything else is written member by member. Both
// give ParseForms's forms: here objects on each side of that line, each taken.
func TestScanQuickReceivedForm(t *testing.T) {
	k := testKey("alice")
	b := baseObj()
	with := func(old, new string) string { return strings.Replace(b, old, new, 1) }
	and := `{"and":[{"survives":["` + carol + `",2]},{"not":{"honoured":"sha256:` + strings.Repeat("0f", 32) + `"}}]}`
	compact := []string{ // json.Marshal of a map: JCS order, no whitespace
		string(signed(t, b, k)),
		string(signed(t, with(`"due":2`, `"due":2,"pair":"deal:0000abcd"`), k)),
		string(signed(t, with(`{"always":true}`, and), k)),
		string(signed(t, with(`{"always":true}`, `{"backs":["`+carol+`","`+alice+`",2000000]}`), k)),
	}
	for _, c := range compact {
		var room []byte
		q, _, ok := scanQuickInto([]byte(c), 0, &room)
		if !ok || !checkQuick(t, []byte(c)) {
			t.Fatalf("%s: not taken", c)
		}
		if !bytes.Equal(q.Forms.Signed, []byte(c)) {
			t.Fatalf("%s: signed form %s, want the object as received", c, q.Forms.Signed)
		}
	}
	for _, c := range compact {
		loose := []string{
			strings.Replace(c, `,`, ` ,`, 1),                  // one space
			strings.Replace(c, `"and":[`, `"and": [`, 1),      // a space inside the condition
			strings.Replace(c, `"amount"`, "\n\"amount\"", 1), // before the first member
			strings.Replace(c, `}`, "} ", 1),                  // inside, or after the object
		}
		// out of JCS order: amount moved last, same length
		if i := strings.Index(c, `"amount":`); i >= 0 {
			j := strings.IndexByte(c[i:], ',') + i
			loose = append(loose, "{"+c[j+1:len(c)-1]+","+c[i:j]+"}")
		}
		for _, l := range loose {
			if l != c && !checkQuick(t, []byte(l)) {
				t.Fatalf("%q: not taken", l)
			}
		}
	}
}

// Names hands back the string it holds for equal bytes, keeps the last 8 distinct ones, and
// never confuses two different texts (the empty text included).
func TestNames(t *testing.T) {
	var n Names
	a := n.intern([]byte("T-7"))
	if b := n.intern([]byte("T-7")); unsafe.StringData(a) != unsafe.StringData(b) || b != "T-7" {
		t.Fatal("an equal text copied again")
	}
	if n.intern([]byte("T-8")) != "T-8" || n.intern(nil) != "" || n.intern([]byte("T-7")) != "T-7" {
		t.Fatal("a different text read as a cached one")
	}
	for i := 0; i < 8; i++ {
		n.intern([]byte{'x', byte('a' + i)})
	}
	if c := n.intern([]byte("T-7")); c != "T-7" || unsafe.StringData(c) == unsafe.StringData(a) {
		t.Fatal("T-7 should have left the cache after 8 newer texts")
	}
}

// memberAt takes exactly the eleven member names, each as its whole literal, and nothing that
// only looks like one: another case, an escape, a longer or shorter name, no closing quote.
func TestMemberAt(t *testing.T) {
	for k, name := range memberNames {
		lit := `"` + name + `"`
		if got, n := memberAt([]byte(lit + `:1`)); got != k || n != len(lit) {
			t.Errorf("%s: member %d length %d, want %d %d", lit, got, n, k, len(lit))
		}
		for _, bad := range []string{`"` + strings.ToUpper(name[:1]) + name[1:] + `"`, `"` + name + `x"`, `"x` + name + `"`,
			`"` + name[:len(name)-1] + `"`, `"\u00` + fmt.Sprintf("%02x", name[0]) + name[1:] + `"`, `"` + name, name + `"`} {
			if got, _ := memberAt([]byte(bad + `:1`)); got >= 0 && bad != `"`+memberNames[got]+`"` {
				t.Errorf("%s: taken as member %d", bad, got)
			}
		}
	}
	for _, r := range []string{``, `"`, `""`, `"v`, `v"`} {
		if got, _ := memberAt([]byte(r)); got >= 0 {
			t.Errorf("%q: taken as member %d", r, got)
		}
	}
}

// FinishQuick over lists of every length from 1 to 7 (pairs and an odd one last) gives each
// commitment exactly what ScanQuick gives it alone.
func TestFinishQuickPairs(t *testing.T) {
	k := testKey("alice")
	var raws [][]byte
	for i := 0; i < 7; i++ {
		obj := strings.Replace(baseObj(), `"seq":1`, fmt.Sprintf(`"seq":%d`, i+1), 1)
		if i%3 == 1 { // a longer one: a block more to hash than its pair
			obj = strings.Replace(obj, `{"always":true}`, `{"and":[{"survives":["`+carol+`",2]},{"not":{"honoured":"sha256:`+strings.Repeat("0f", 32)+`"}}]}`, 1)
		}
		raws = append(raws, signed(t, obj, k))
	}
	for n := 1; n <= len(raws); n++ {
		qs := make([]Quick, n)
		var names Names
		room := make([]byte, 0, 16<<10)
		for i := range qs {
			if _, ok := ScanQuickToLater(&qs[i], raws[i], 0, &room, &names); !ok {
				t.Fatalf("%s: not taken", raws[i])
			}
			if qs[i].Canonical.ID != "" || qs[i].Commitment.Sig != "" {
				t.Fatalf("%s: id or sig written before FinishQuick", raws[i])
			}
		}
		FinishQuick(qs)
		for i := range qs {
			want, _, _ := ScanQuick(raws[i], 0)
			if !reflect.DeepEqual(qs[i], want) {
				t.Fatalf("list of %d, item %d: %+v, ScanQuick %+v", n, i, qs[i], want)
			}
		}
	}
}
