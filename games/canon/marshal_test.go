package canon

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// oldMarshal is the oracle Marshal is held to: encoding/json's Marshal, then Canonical of its
// text. It lives only here.
func oldMarshal(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Canonical(raw)
}

// canonSentinels are the errors of this package an oracle's refusal may wrap; Marshal must
// wrap the same one.
var canonSentinels = []error{ErrSyntax, ErrInvalidUTF8, ErrTooDeep, ErrDuplicateMember, ErrFoldedMember, ErrUnsafeInteger}

// sameAsOracle holds Marshal(v) to oldMarshal(v): the same bytes, or both refused, for the
// same reason of this package's when the oracle's is one.
func sameAsOracle(t *testing.T, v any) {
	t.Helper()
	got, err := Marshal(v)
	want, werr := oldMarshal(v)
	if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("%#v:\n Marshal %q (%v)\n  oracle %q (%v)", v, got, err, want, werr)
	}
}

// sameRefusal is sameAsOracle, and where the oracle's refusal is one of this package's,
// Marshal's is the same one (for values with a single fault: with several, the two may meet
// different faults first).
func sameRefusal(t *testing.T, v any) {
	t.Helper()
	sameAsOracle(t, v)
	_, err := Marshal(v)
	_, werr := oldMarshal(v)
	for _, s := range canonSentinels {
		if errors.Is(werr, s) && !errors.Is(err, s) {
			t.Fatalf("%#v: Marshal err %v, oracle err %v", v, err, werr)
		}
	}
}

type valMarshaler struct{ S string }

func (m valMarshaler) MarshalJSON() ([]byte, error) { return []byte(m.S), nil }

type ptrMarshaler struct{ N int }

func (m *ptrMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(` {"n" : %d, "b":[ 1.50, "x"]} `, m.N)), nil
}

type failMarshaler struct{}

func (failMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

type textKey struct{ A, B int }

func (k textKey) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%d-%d", k.A, k.B)), nil }

type ptrText struct{ S string }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte("<" + p.S + ">"), nil }

// both has a pointer-receiver MarshalJSON and a value-receiver MarshalText: addressable values
// are written by the first, others by the second.
type both struct{ V int }

func (b *both) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprint(b.V * 2)), nil }
func (b both) MarshalText() ([]byte, error)  { return []byte(fmt.Sprint("t", b.V)), nil }

type zeroer struct{ N int }

func (z zeroer) IsZero() bool { return z.N < 0 }

type ptrZeroer struct{ N int }

func (z *ptrZeroer) IsZero() bool { return z.N == 7 }

type Base struct {
	ID   int    `json:"id"`
	Name string `json:"name,omitempty"`
	Dup  int
}

type base2 struct {
	Dup   int
	Other string `json:"other"`
}

type Tagged struct {
	X int `json:"Dup"`
}

type embeds struct {
	Base
	*base2
	Own string `json:"own"`
}

type embedsTwice struct {
	Base
	B2 struct{ Base } `json:"b2"`
	Tagged
}

type Level2 struct{ Deep int }

type Level1 struct {
	Level2
	Deep int `json:"deep"`
}

type clash struct {
	A int `json:"a"`
	B int `json:"A,omitempty"`
}

type options struct {
	I   int            `json:"i,string"`
	U   uint64         `json:"u,string"`
	F   float64        `json:"f,string"`
	F32 float32        `json:"f32,string"`
	B   bool           `json:"b,string"`
	S   string         `json:"s,string"`
	P   *int           `json:"p,string"`
	N   json.Number    `json:"n,string"`
	Big int64          `json:"big,string"`
	Dsh string         `json:"-,"`
	Skp string         `json:"-"`
	Bad string         `json:"a\"b"`
	Sym string         `json:"$ok!"`
	OE  map[string]int `json:"oe,omitempty"`
	OZ  time.Time      `json:"oz,omitzero"`
	OZ2 zeroer         `json:"oz2,omitzero"`
	OZ3 ptrZeroer      `json:"oz3,omitzero"`
	OZ4 *ptrZeroer     `json:"oz4,omitzero"`
	OEP *int           `json:"oep,omitempty"`
	OEA [0]int         `json:"oea,omitempty"`
	OES []int          `json:"oes,omitempty"`
	OEF float32        `json:"oef,omitempty"`
	OEI any            `json:"oei,omitempty"`
	OEB bool           `json:"oeb,omitempty"`
	Str struct{}       `json:"str,omitempty"`
	unx int
}

type holder struct {
	PM  ptrMarshaler
	PMp *ptrMarshaler
	PT  ptrText
	VM  valMarshaler
	Bo  both
	BoP *both
	Raw json.RawMessage
	Any any
	Arr [2]both
	Sl  []both
}

type bytesNamed []byte
type byteNamed byte
type loop struct{ Next *loop }
type P *P

type weird struct {
	F func() `json:",omitempty"`
}

// TestMarshalMatchesOracle: values of every shape callers hand Marshal, and the ones at the
// edges of encoding/json's rules and Canonical's checks.
func TestMarshalMatchesOracle(t *testing.T) {
	seven := 7
	cyc := &loop{}
	cyc.Next = cyc
	var p P
	p = &p
	deep := any(1)
	for range MaxDepth - 1 {
		deep = []any{deep}
	}
	deepMap := any("x")
	for range MaxDepth {
		deepMap = map[string]any{"k": deepMap}
	}
	cases := []any{
		nil, true, false, 0, -0, 1, -1, maxSafe, -maxSafe, maxSafe + 1, -maxSafe - 1, int64(math.MaxInt64),
		uint64(maxSafe), uint64(maxSafe + 1), int8(-128), uint8(255), uintptr(9), int32(7),
		0.0, math.Copysign(0, -1), 0.1, 1.5, -2.5e-7, 1e-7, 1e21, 1e20, 9007199254740991.0, 9007199254740992.0,
		4503599627370495.5, 123456789.125, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1),
		float32(0.1), float32(3.4e38), float32(1e-7), float32(16777216), float32(-1.5), float32(1e10), float32(1e21),
		"", "plain", "<&>\u2028\u2029", "\x00\x01\x1f\x7f\"\\/\b\f\n\r\t", "é€😀\uffff\ufeff", "\xff", "a\xc3", "\xed\xa0\x80",
		"\xf0\x9f\x98", []byte(nil), []byte{}, []byte("hi\x00\xff"), bytesNamed("abc"), []byteNamed{1, 2}, [3]byte{1, 2, 3},
		[]int(nil), []int{}, []int{1, -2, maxSafe + 1}, []any{nil, "x", 1.5, []any{}}, []string{"b", "a"},
		map[string]any(nil), map[string]any{}, map[string]any{"b": 1, "a": "x", "c": []int{1}, "\ue000": 1, "😀": 2, "": 3},
		map[string]any{"a": 1, "A": 2}, map[string]any{"seq": 1, "ſeq": 2}, map[string]any{"\xff": 1, "\xfe": 2},
		map[string]any{"kelvin": 1, "\u212aelvin": 2}, map[string]any{"bustOrder": 1, "round": 2},
		map[int]string{3: "c", -1: "m", 10: "x", 2: "b"}, map[uint8]bool{1: true, 200: false},
		map[textKey]int{{1, 2}: 3, {0, 0}: 1}, map[*ptrText]int{nil: 1}, map[*ptrText]int{{"a"}: 1, {"b"}: 2},
		map[[2]int]int(nil), map[[2]int]int{{1, 2}: 3}, map[string]func(){}, map[string]func(){"f": nil},
		map[byteNamed]int{1: 1}, bigMap(20, false), bigMap(20, true),
		json.RawMessage(nil), json.RawMessage(`null`), json.RawMessage(` {"b":1,"a":[1.0,2e0,"\u0041"]} `),
		json.RawMessage(`{"a":1,"a":2}`), json.RawMessage(`{"a":1,"A":2}`), json.RawMessage(`9007199254740993`),
		json.RawMessage(`"\ud800"`), json.RawMessage(`{"a":`), json.RawMessage(`1 2`), json.RawMessage("\"\xff\""),
		json.Number("12"), json.Number("-0"), json.Number("1.50"), json.Number("1e2"), json.Number(""), json.Number("1e400"),
		json.Number("9007199254740993"), json.Number("x"), json.Number(" 1"), json.Number("01"),
		valMarshaler{`{"z":1,"y":2}`}, valMarshaler{`[`}, &valMarshaler{`true`}, (*valMarshaler)(nil), failMarshaler{},
		ptrMarshaler{3}, &ptrMarshaler{4}, (*ptrMarshaler)(nil), ptrText{"v"}, &ptrText{"v"}, both{2}, &both{3},
		textKey{5, 6}, &textKey{5, 6}, []ptrMarshaler{{1}}, []*ptrMarshaler{nil, {2}}, []both{{1}}, [1]both{{1}},
		holder{PM: ptrMarshaler{1}, PT: ptrText{"x"}, Bo: both{1}, Raw: json.RawMessage(`[1]`), Any: both{4}, Arr: [2]both{{1}, {2}}, Sl: []both{{5}}},
		&holder{PM: ptrMarshaler{1}, PMp: &ptrMarshaler{2}, PT: ptrText{"x"}, VM: valMarshaler{"1"}, Bo: both{1}, BoP: &both{2}, Any: &both{4}, Arr: [2]both{{1}, {2}}},
		embeds{Base: Base{ID: 1, Name: "n", Dup: 2}, base2: &base2{Dup: 3, Other: "o"}, Own: "w"},
		embeds{Base: Base{ID: 1}}, &embeds{}, embedsTwice{Base: Base{ID: 1, Dup: 2}, Tagged: Tagged{X: 9}},
		Level1{Level2: Level2{Deep: 1}, Deep: 2}, clash{A: 1}, clash{A: 1, B: 2},
		options{I: 1, U: maxSafe + 5, F: 1e21, F32: 0.1, B: true, S: "<q\"\xff>", P: &seven, N: "1.5", Big: math.MaxInt64, Dsh: "d", Skp: "s", Bad: "b", Sym: "y"},
		&options{OZ: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), OZ2: zeroer{-1}, OZ3: ptrZeroer{7}, OZ4: &ptrZeroer{7}, OEI: 0, OEF: 0},
		options{OZ2: zeroer{1}, OZ3: ptrZeroer{1}, OES: []int{1}, OEB: true, OE: map[string]int{"a": 1}, OEP: new(int)},
		options{N: "x"}, options{F: math.NaN()},
		time.Date(2026, 10, 2, 8, 0, 0, 123, time.UTC), struct{ T *time.Time }{},
		cyc, p, deep, []any{deep}, deepMap, weird{}, weird{F: func() {}}, make(chan int), complex(1, 2),
		struct {
			A int `json:"a"`
			B any `json:"b"`
		}{1, json.RawMessage(strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1))},
		struct {
			A int `json:"a"`
			B any `json:"b"`
		}{1, json.RawMessage(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))},
	}
	for _, c := range cases {
		sameRefusal(t, c)
	}
}

// bigMap is a map of n members, two of them folding together when clash is set: the map path
// of the folding check.
func bigMap(n int, clash bool) map[string]int {
	m := map[string]int{}
	for i := range n {
		m[fmt.Sprintf("m%c", 'a'+i)] = i
	}
	if clash {
		m["MA"] = 1
	}
	return m
}

// TestMarshalJCSVectors: the RFC 8785 vectors' inputs, decoded into Go values (numbers as
// float64, as JCS reads them), marshal to the vectors' outputs; the ones Canonical refuses on
// purpose are refused alike.
func TestMarshalJCSVectors(t *testing.T) {
	for _, name := range []string{"arrays.json", "french.json", "structures.json", "unicode.json", "values.json", "weird.json"} {
		raw, err := os.ReadFile(td(t, "jcs", "input", name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(td(t, "jcs", "output", name))
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		got, err := Marshal(v)
		if sentinel, refused := strictRefusals[name]; refused {
			if !errors.Is(err, sentinel) {
				t.Fatalf("%s: err %v, want %v", name, err, sentinel)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s (%v)\nwant %s", name, got, err, want)
		}
		sameAsOracle(t, v)
	}
}

// TestMarshalRandomValues: thousands of random values of many types, held to the oracle.
func TestMarshalRandomValues(t *testing.T) {
	n := 4000
	if testing.Short() || raceEnabled {
		n = 600
	}
	for seed := range uint64(n) {
		rnd := rand.New(rand.NewPCG(seed, 0x5eed))
		sameAsOracle(t, randomValue(rnd, 0))
	}
}

// FuzzMarshal: a value built from the fuzzer's bytes marshals as the oracle does.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03", strings.Repeat("\xff", 64), "abcdefghijklmnopqrstuvwxyz0123456789"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsOracle(t, randomValue(rand.New(&byteSource{data: data}), 0))
	})
}

// byteSource is a rand.Source reading the fuzzer's bytes, each word mixed with a counter
// (splitmix64) so that the source never runs dry into constant words.
type byteSource struct {
	data []byte
	n    uint64
}

func (s *byteSource) Uint64() uint64 {
	var b [8]byte
	k := copy(b[:], s.data)
	s.data = s.data[k:]
	s.n += 0x9e3779b97f4a7c15
	z := s.n
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return binary.LittleEndian.Uint64(b[:]) ^ z ^ z>>31
}

// randomTypes are the types randomValue fills by reflection, besides the trees it builds.
var randomTypes = []reflect.Type{
	reflect.TypeFor[options](), reflect.TypeFor[holder](), reflect.TypeFor[embeds](), reflect.TypeFor[embedsTwice](),
	reflect.TypeFor[Level1](), reflect.TypeFor[clash](), reflect.TypeFor[map[int]string](), reflect.TypeFor[map[textKey]int](),
	reflect.TypeFor[[]both](), reflect.TypeFor[*both](), reflect.TypeFor[[3]byte](), reflect.TypeFor[bytesNamed](),
	reflect.TypeFor[map[string]*ptrText](), reflect.TypeFor[[]float32](), reflect.TypeFor[map[uint16]any](),
	reflect.TypeFor[struct {
		A []map[string][]int `json:"a,omitempty"`
		B *Base              `json:"b"`
		C json.Number        `json:"c"`
	}](),
}

// randomStrings are the pieces random strings are made of: plain, escaped, HTML, folding,
// supplementary, invalid UTF-8.
var randomStrings = []string{"a", "B", "seq", "ſ", "K", "k", "é", "😀", "\ue000", "\uffff", "<", "&", "\u2028", "\x00",
	"\x1f", "\"", "\\", "\xff", "\xc3", "\xed\xa0\x80", " ", "1", "round", "Round"}

func randomString(rnd *rand.Rand) string {
	var b strings.Builder
	for range rnd.IntN(4) {
		b.WriteString(randomStrings[rnd.IntN(len(randomStrings))])
	}
	return b.String()
}

// randomNumbers are floats at the edges of JCS's number forms and the safe integers.
var randomNumbers = []float64{0, 1, -1, 0.5, 1e-7, 1e-6, 1e21, 1e20, 1e15, 1e16, maxSafe, maxSafe + 1, 0.1, 1.0 / 3,
	-2.5e300, 5e-324, 123.456, 4503599627370495.5}

func randomValue(rnd *rand.Rand, depth int) any {
	k := rnd.IntN(22)
	if depth > 4 && k < 6 {
		k += 6 // no more containers
	}
	switch k {
	case 0, 1:
		m := map[string]any{}
		for range rnd.IntN(6) {
			m[randomString(rnd)] = randomValue(rnd, depth+1)
		}
		return m
	case 2, 3:
		a := make([]any, rnd.IntN(5))
		for i := range a {
			a[i] = randomValue(rnd, depth+1)
		}
		return a
	case 4, 5:
		t := randomTypes[rnd.IntN(len(randomTypes))]
		v := reflect.New(t).Elem()
		fill(rnd, v, depth+1)
		if rnd.IntN(2) == 0 {
			return v.Addr().Interface()
		}
		return v.Interface()
	case 6:
		return nil
	case 7:
		return randomString(rnd)
	case 8:
		return rnd.IntN(2) == 0
	case 9:
		return rnd.Int64N(4*maxSafe) - 2*maxSafe
	case 10:
		return int(rnd.Int32())
	case 11:
		return randomNumbers[rnd.IntN(len(randomNumbers))] * float64(1-2*rnd.IntN(2))
	case 12:
		return math.Float64frombits(rnd.Uint64())
	case 13:
		return float32(math.Float32frombits(rnd.Uint32()))
	case 14:
		return rnd.Uint64() >> rnd.IntN(64)
	case 15:
		b := make([]byte, rnd.IntN(6))
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	case 16:
		raws := []string{`{"b":1,"a":2}`, `[1.5,-0,1e2]`, `"\u00e9"`, `{"a":1,"A":1}`, `null`, `9007199254740993`, `{`, ` 1 `}
		return json.RawMessage(raws[rnd.IntN(len(raws))])
	case 17:
		nums := []string{"0", "-0", "1.25", "1E3", "", "abc", "9007199254740992", "0.000001"}
		return json.Number(nums[rnd.IntN(len(nums))])
	case 18:
		return []int{rnd.IntN(10), -rnd.IntN(10)}
	case 19:
		return both{rnd.IntN(5)}
	case 20:
		return &ptrMarshaler{rnd.IntN(5)}
	default:
		return textKey{rnd.IntN(3), rnd.IntN(3)}
	}
}

// fill sets v (settable) to a random value of its type.
func fill(rnd *rand.Rand, v reflect.Value, depth int) {
	if depth > 6 {
		return // the zero value
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rnd.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := rnd.Int64() >> rnd.IntN(64)
		if rnd.IntN(2) == 0 {
			n = -n
		}
		if !v.OverflowInt(n) {
			v.SetInt(n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := rnd.Uint64() >> rnd.IntN(64); !v.OverflowUint(n) {
			v.SetUint(n)
		}
	case reflect.Float32, reflect.Float64:
		f := randomNumbers[rnd.IntN(len(randomNumbers))]
		if rnd.IntN(3) == 0 {
			f = math.Float64frombits(rnd.Uint64())
		}
		if v.Kind() == reflect.Float32 && !v.OverflowFloat(f) {
			v.SetFloat(float64(float32(f)))
		} else if v.Kind() == reflect.Float64 {
			v.SetFloat(f)
		}
	case reflect.String:
		if v.Type() == reflect.TypeFor[json.Number]() {
			v.SetString([]string{"1", "-0", "2.50", "1e400", "x", ""}[rnd.IntN(6)])
			return
		}
		v.SetString(randomString(rnd))
	case reflect.Interface:
		if rnd.IntN(3) > 0 && v.NumMethod() == 0 {
			if x := randomValue(rnd, depth+1); x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	case reflect.Pointer:
		if rnd.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fill(rnd, p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		if rnd.IntN(4) == 0 {
			return // nil
		}
		s := reflect.MakeSlice(v.Type(), rnd.IntN(4), 4)
		for i := range s.Len() {
			fill(rnd, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(rnd, v.Index(i), depth+1)
		}
	case reflect.Map:
		if rnd.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range rnd.IntN(5) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(rnd, k, depth+1)
			fill(rnd, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			if rnd.IntN(2) == 0 {
				v.Set(reflect.ValueOf(time.Unix(rnd.Int64N(1<<33), rnd.Int64N(1e9)).UTC()))
			}
			return
		}
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				fill(rnd, f, depth+1)
			}
		}
	}
}
