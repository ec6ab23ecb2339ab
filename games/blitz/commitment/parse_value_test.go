package commitment

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"arena/games/canon"
)

// ParseValue (an answer's commitments read from the answer's own parse, with their signed and
// condition JCS written from that tree) must judge every commitment exactly as Parse does on its
// own bytes: same error and code, same commitment, same canonical bytes and id; and its Forms
// must be what the engine computed before (canon.Canonical of the raw object, canon.Marshal of
// the parsed condition). The commitment is also read as an element of an answer, where its
// bytes start deep inside a larger document.

// parseValueSeeds are commitments, valid and hostile: escapes, member order, numbers, case folds,
// unknown members, non-ASCII names (surrogate pairs sort below U+E000 in JCS).
func parseValueSeeds(t testing.TB) [][]byte {
	key := testKey("alice")
	base := baseObj()
	objs := []string{
		base,
		exampleObj,
		strings.Replace(base, `"payer":"`+alice+`"`, `"payer":"ccd:\u0034221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7"`, 1),
		strings.Replace(base, `"condition":{"always":true}`, `"condition":{"or":[{"not":{"survives":["`+carol+`",2]}},{"backs":["`+bob+`","\u0063cd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:4dKzQp7",1000000]}]}`, 1),
		strings.Replace(base, `"condition":{"always":true}`, `"condition":{"and":[{"always":true},{"honoured":"sha256:`+strings.Repeat("0f", 32)+`"}]}`, 1),
		`{"due":2,"condition":{"always":true},"amount":40000000,"payee":"` + bob + `","payer":"` + alice + `","seq":1,"turn":1,"round":"T-7","v":1}`,
		strings.Replace(base, `"amount":40000000`, `"amount":40000000,"Amount":1000000`, 1),
		strings.Replace(base, `"amount":40000000`, `"amount":4e7`, 1),
		strings.Replace(base, `"amount":40000000`, `"amount":40000000.0`, 1),
		strings.Replace(base, `"amount":40000000`, `"amount":9007199254740993`, 1),
		strings.Replace(base, `"seq":1`, `"seq":-0`, 1),
		strings.Replace(base, `"v":1`, `"v":1,"\ud83d\ude00":1,"\uffff":2`, 1),
		strings.Replace(base, `"v":1`, `"v":1,"memo":"<b>&</b>\u2028"`, 1),
		strings.Replace(base, `"due":2`, `"due":2,"pair":"deal:0000000a"`, 1),
		strings.Replace(base, `"due":2`, `"due":2,"pair":"deal:0000000A"`, 1),
		strings.Replace(base, `"round":"T-7"`, `"round":"T-07"`, 1),
		strings.Replace(base, `"condition":{"always":true}`, `"condition":{"survives":["`+carol+`",3]}`, 1),
		strings.Replace(base, `"condition":{"always":true}`, `"condition":{ "backs" : [ "`+carol+`" , "`+alice+`" ] }`, 1),
	}
	var out [][]byte
	for _, o := range objs {
		out = append(out, signedLoose(t, o, key))
	}
	out = append(out, []byte(base), []byte(`[1]`), []byte(`{"v":1}`),
		[]byte(base[:len(base)-1]+`,"sig":"ed25519:00"}`), []byte(base[:len(base)-1]+`,"sig":7}`),
		[]byte(strings.Replace(base, `"condition":{"always":true}`, `"condition":{"always":true,"always":true}`, 1)))
	return out
}

// sameJudgement compares Parse, ParseForms and ParseValue (alone, and as an answer's element)
// on raw.
func sameJudgement(t *testing.T, raw []byte) {
	c0, cb0, err0 := Parse(raw)
	c1, cb1, f1, err1 := ParseForms(raw)
	if (err0 == nil) != (err1 == nil) || (err0 != nil && (Code(err0) != Code(err1) || err0.Error() != err1.Error())) {
		t.Fatalf("%s:\nParse %v\nParseForms %v", raw, err0, err1)
	}
	if err0 == nil && (!reflect.DeepEqual(c0, c1) || !reflect.DeepEqual(cb0, cb1)) {
		t.Fatalf("%s: Parse and ParseForms read different commitments", raw)
	}
	if err0 == nil {
		// the forms the engine wrote before ParseValue existed
		signedOld, err := canon.Canonical(raw)
		if err != nil || !bytes.Equal(f1.Signed, signedOld) {
			t.Fatalf("%s: Forms.Signed\n %s\nwant canon.Canonical\n %s (%v)", raw, f1.Signed, signedOld, err)
		}
		condOld, err := canon.Marshal(c1.Condition)
		if err != nil || !bytes.Equal(f1.Condition, condOld) {
			t.Fatalf("%s: Forms.Condition\n %s\nwant canon.Marshal of the condition\n %s (%v)", raw, f1.Condition, condOld, err)
		}
	}
	for _, wrap := range []string{"%s", `{"commitments":[ %s ]}`, `{"v":1,"commitments":[{"x":"é"},` + "\n\t" + `%s],"z":[1,2]}`} {
		doc := []byte(strings.Replace(wrap, "%s", string(raw), 1))
		v, err := canon.Parse(doc)
		if err != nil {
			continue // the strict scan refuses the document: ParseValue is never reached
		}
		if wrap != "%s" {
			// the element that is raw itself (raw may be anything: check the document's shape)
			i, at, n := 0, 0, 1
			if wrap[2] == 'v' {
				i, at, n = 1, 1, 2
			}
			if v.Kind() != canon.Object || v.Len() <= i {
				continue
			}
			name, x := v.Member(i)
			if name != "commitments" || x.Kind() != canon.Array || x.Len() != n {
				continue
			}
			if !bytes.Equal(bytes.TrimSpace(x.Elem(at).Raw()), bytes.TrimSpace(raw)) {
				continue
			}
			v = x.Elem(at)
		}
		c2, cb2, f2, err2 := ParseValue(v)
		if (err1 == nil) != (err2 == nil) || (err1 != nil && (Code(err1) != Code(err2) || err1.Error() != err2.Error())) {
			t.Fatalf("%s (in %q):\nParseForms %v\nParseValue %v", raw, wrap, err1, err2)
		}
		if err1 == nil && (!reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(cb1, cb2) || !bytes.Equal(f1.Signed, f2.Signed) || !bytes.Equal(f1.Condition, f2.Condition)) {
			t.Fatalf("%s (in %q): ParseValue read\n %+v %s %s\nParseForms\n %+v %s %s", raw, wrap, c2, f2.Signed, f2.Condition, c1, f1.Signed, f1.Condition)
		}
	}
}

func TestParseValueJudgesAsParse(t *testing.T) {
	for _, raw := range parseValueSeeds(t) {
		sameJudgement(t, raw)
	}
}

func FuzzParseValueJudgesAsParse(f *testing.F) {
	for _, raw := range parseValueSeeds(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 4096 {
			return
		}
		sameJudgement(t, raw)
	})
}
