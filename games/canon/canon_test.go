package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

func TestCanonicalWithout(t *testing.T) {
	raw := `{ "b": [1, 2.50, "x"], "sig": "ed25519:00", "a": {"z": 1, "y": null} }`
	got, err := CanonicalWithout([]byte(raw), "sig")
	want := `{"a":{"y":null,"z":1},"b":[1,2.5,"x"]}`
	if err != nil || string(got) != want {
		t.Fatalf("got %s, %v; want %s", got, err, want)
	}
	// Absent member: the whole object.
	got, err = CanonicalWithout([]byte(`{"a":1}`), "sig")
	if err != nil || string(got) != `{"a":1}` {
		t.Fatalf("absent: %s %v", got, err)
	}
	// The only member removed: an empty object.
	got, err = CanonicalWithout([]byte(`{"sig":"x"}`), "sig")
	if err != nil || string(got) != `{}` {
		t.Fatalf("only: %s %v", got, err)
	}
	// The removed member still takes part in the duplicate and folding checks.
	if _, err := CanonicalWithout([]byte(`{"sig":"x","Sig":"y","a":1}`), "sig"); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("Sig beside sig: %v", err)
	}
	if _, err := CanonicalWithout([]byte(`{"sig":"x","sig":"y"}`), "sig"); !errors.Is(err, ErrDuplicateMember) {
		t.Fatalf("sig twice: %v", err)
	}
	// Nested members named sig are kept.
	got, _ = CanonicalWithout([]byte(`{"o":{"sig":1}}`), "sig")
	if string(got) != `{"o":{"sig":1}}` {
		t.Fatalf("nested: %s", got)
	}
	if _, err := CanonicalWithout([]byte(`[1]`), "sig"); !errors.Is(err, ErrNotObject) {
		t.Fatalf("array: %v", err)
	}
}

func TestSyntaxRefusals(t *testing.T) {
	cases := map[string]error{
		``:               ErrSyntax,
		`{`:              ErrSyntax,
		`{"a" 1}`:        ErrSyntax,
		`{"a":1,}`:       ErrSyntax,
		`[1,]`:           ErrSyntax,
		`01`:             ErrTrailingData,
		`1.`:             ErrSyntax,
		`.5`:             ErrSyntax,
		`+1`:             ErrSyntax,
		`1e`:             ErrSyntax,
		`NaN`:            ErrSyntax,
		`"\x"`:           ErrSyntax,
		`"\ud800"`:       ErrSyntax,
		`"\udc00\ud800"`: ErrSyntax,
		`"\ud800\u0041"`: ErrSyntax,
		"\"a\tb\"":       ErrSyntax,
		"\xef\xbb\xbf{}": ErrSyntax,
		"\"\xff\"":       ErrInvalidUTF8,
		`{'a':1}`:        ErrSyntax,
		`tru`:            ErrSyntax,
		`1e400`:          ErrUnsafeInteger,
		`{"a":1} x`:      ErrTrailingData,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1): ErrTooDeep,
	}
	for in, want := range cases {
		if _, err := Canonical([]byte(in)); !errors.Is(err, want) {
			t.Errorf("%q: err = %v, want %v", in, err, want)
		}
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Canonical([]byte(ok)); err != nil {
		t.Errorf("depth %d refused: %v", MaxDepth, err)
	}
	// A valid surrogate pair is kept (JCS writes the character itself).
	got, err := Canonical([]byte(`"\ud83d\ude00"`))
	if err != nil || string(got) != "\"\U0001F600\"" {
		t.Errorf("surrogate pair: %q %v", got, err)
	}
}

func TestFoldKey(t *testing.T) {
	names := []string{"seq", "SEQ", "Seq", "\u017feq", "\u017fEQ"}
	for _, a := range names {
		for _, b := range names {
			if foldKey(a) != foldKey(b) || !strings.EqualFold(a, b) {
				t.Fatalf("%q ~ %q: fold keys %q %q", a, b, foldKey(a), foldKey(b))
			}
		}
	}
	for _, pair := range [][2]string{{"seq", "sep"}, {"a", "b"}, {"ß", "ss"}} {
		if foldKey(pair[0]) == foldKey(pair[1]) {
			t.Fatalf("%q and %q share a fold key", pair[0], pair[1])
		}
	}
}

func TestMarshalDigestID(t *testing.T) {
	v := struct {
		B int64  `json:"b"`
		A string `json:"a"`
	}{B: 40_000_000, A: "<&>"}
	got, err := Marshal(v)
	if err != nil || string(got) != `{"a":"<&>","b":40000000}` {
		t.Fatalf("Marshal: %s %v", got, err)
	}
	if _, err := Marshal(map[string]int64{"amount": 9007199254740993}); !errors.Is(err, ErrUnsafeInteger) {
		t.Fatalf("Marshal unsafe: %v", err)
	}
	// SHA-256 of "abc" (FIPS 180-2).
	want := "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := ID([]byte("abc")); got != want {
		t.Fatalf("ID = %s", got)
	}
	if d := Digest([]byte("abc")); IDOf(d) != want {
		t.Fatal("IDOf(Digest) != ID")
	}
}

type inner struct {
	N int `json:"n"`
}

type embedded struct {
	E string `json:"e"`
}

type target struct {
	embedded
	Name  string           `json:"name"`
	Count int64            `json:"count"`
	Opt   *int             `json:"opt"`
	In    inner            `json:"in"`
	List  []inner          `json:"list"`
	Map   map[string]inner `json:"map"`
	Raw   json.RawMessage  `json:"raw"`
	Any   any              `json:"any"`
	Skip  string           `json:"-"`
	Plain string
	Tags  map[string]string `json:"tags,omitempty"`
}

func TestDecodeStrict(t *testing.T) {
	var v target
	raw := `{"e":"emb","name":"x","count":9007199254740991,"opt":null,"in":{"n":1},"list":[{"n":2}],
	         "map":{"k":{"n":3}},"raw":{"x":1,"y":[2]},"any":[1],"Plain":"p","tags":{"A":"1"}}`
	if err := Decode([]byte(raw), &v); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if v.E != "emb" || v.Name != "x" || v.Count != 9007199254740991 || v.Opt != nil || v.In.N != 1 ||
		v.List[0].N != 2 || v.Map["k"].N != 3 || string(v.Raw) != `{"x":1,"y":[2]}` || v.Plain != "p" {
		t.Fatalf("decoded %+v", v)
	}
	_ = v.Raw // json.RawMessage is handed its bytes unwalked, but the raw checks still apply:
	if err := Decode([]byte(`{"raw":{"a":1,"A":2}}`), &v); !errors.Is(err, ErrFoldedMember) {
		t.Fatalf("folded inside raw: %v", err)
	}
	cases := map[string]error{
		`{"Name":"x"}`:               ErrUnknownMember, // Go would fold into Name
		`{"NAME":"x"}`:               ErrUnknownMember,
		`{"name":"x","Name":"y"}`:    ErrFoldedMember,
		`{"name":"x","name":"y"}`:    ErrDuplicateMember,
		`{"other":1}`:                ErrUnknownMember,
		`{"in":{"N":1}}`:             ErrUnknownMember,
		`{"list":[{"n":1,"m":2}]}`:   ErrUnknownMember,
		`{"map":{"k":{"x":1}}}`:      ErrUnknownMember,
		`{"Skip":"s"}`:               ErrUnknownMember,
		`{"plain":"p"}`:              ErrUnknownMember,
		`{"count":9007199254740993}`: ErrUnsafeInteger,
		`{"count":1.5}`:              ErrType,
		`{"count":-0}`:               ErrType,
		`{"count":1e0}`:              ErrType,
		`{"count":"1"}`:              ErrType,
		`{"name":null}`:              ErrNull,
		`{"in":null}`:                ErrNull,
		`{"in":[1]}`:                 ErrType,
		`{"name":"x"} {}`:            ErrTrailingData,
		`[]`:                         ErrType,
	}
	for in, want := range cases {
		var v target
		if err := Decode([]byte(in), &v); !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", in, err, want)
		}
	}
	if err := Decode([]byte(`{}`), v); !errors.Is(err, ErrTarget) {
		t.Fatalf("non-pointer: %v", err)
	}
	var n int
	if err := Decode([]byte(`7`), &n); err != nil || n != 7 {
		t.Fatalf("scalar: %d %v", n, err)
	}
	if err := Decode([]byte(`-0`), &n); !errors.Is(err, ErrType) {
		t.Fatalf("-0 as an integer: %v", err)
	}
	var f float64
	if err := Decode([]byte(`-0`), &f); err != nil || f != 0 {
		t.Fatalf("-0 as a float: %v %v", f, err)
	}
}

func TestDecodeNullNilable(t *testing.T) {
	var v target
	if err := Decode([]byte(`{"list":null,"map":null,"raw":null,"any":null,"opt":null}`), &v); err != nil {
		t.Fatalf("null into nil-able fields: %v", err)
	}
	if v.List != nil || v.Map != nil || v.Opt != nil {
		t.Fatalf("decoded %+v", v)
	}
}

// TestWriterMatchesJCS: the tree writer (no fallback: strings, integers, literals) against
// github.com/gowebpki/jcs on the name-ordering and escaping cases that matter.
func TestWriterMatchesJCS(t *testing.T) {
	docs := []string{
		`{"\ud83d\ude00":1,"\uffff":2,"\ue000":3,"\ud800\udc00":4,"\ud800\udc01":5,"z":6,"":7,"\u00e9":8,"e\u0301":9}`,
		`{"s":"a\u0001\u001f\u007f\u2028\u2029\b\f\n\r\t\"\\\/\u00e9\ud83d\ude00"}`,
		`[ -0 , 0, -9007199254740991, 9007199254740991, true, false, null, {}, [], "" ]`,
		`{"b":{"y":1,"x":[{"d":1,"c":2}]},"a":"\u0041"}`,
	}
	for _, d := range docs {
		n, err := parse([]byte(d))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		var b bytes.Buffer
		if err := writeNode(&b, n, "", false); err != nil {
			t.Fatalf("%s: writer fell back: %v", d, err)
		}
		want, err := jcs.Transform([]byte(d))
		if err != nil || !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("%s:\nwriter %q\n   jcs %q (%v)", d, b.Bytes(), want, err)
		}
	}
	// A member named "" can be the one removed.
	got, err := CanonicalWithout([]byte(`{"":1,"a":2}`), "")
	if err != nil || string(got) != `{"a":2}` {
		t.Fatalf("without \"\": %s %v", got, err)
	}
}
