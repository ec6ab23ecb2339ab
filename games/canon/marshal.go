package canon

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// Marshal writes v as RFC 8785 (JCS) canonical JSON, for objects the server builds itself. The
// bytes are those of encoding/json's Marshal(v) put through Canonical, written in one pass
// without the intermediate text:
//
//   - Go values map to JSON as encoding/json maps them: json struct tags (a name, "-",
//     omitempty, omitzero, string), embedded structs' fields promoted by its rules, maps with
//     string, integer or encoding.TextMarshaler keys, []byte as a base64 string, nil pointers,
//     slices, maps and interfaces as null, json.Marshaler and encoding.TextMarshaler values
//     (pointer receivers where the value is addressable), json.Number as its number.
//   - A string's invalid UTF-8 bytes become U+FFFD, one for each byte, as encoding/json writes
//     them; members are sorted by the UTF-16 code units of their names (RFC 8785 §3.2.3),
//     strings escaped minimally (§3.2.2.2) and numbers printed as ECMAScript prints them
//     (§3.2.2.3).
//   - What a json.Marshaler returns (json.RawMessage among them) goes through the strict
//     checks of Canonical and is written canonically.
//
// Errors: the strict checks of Canonical on the value as a whole: ErrUnsafeInteger for an
// integer-valued number beyond ±(2^53−1) (an int64, a uint64 or an integral float; a ",string"
// integer is a string and not refused), ErrDuplicateMember or ErrFoldedMember for two member
// names of one object that are equal (map keys encoding alike) or equal under case folding,
// ErrTooDeep past MaxDepth; a Marshaler's output that Canonical refuses; and encoding/json's
// own refusals (*json.UnsupportedTypeError for a channel, function or complex number,
// *json.UnsupportedValueError for NaN, ±Inf or a cycle of pointers, *json.MarshalerError when
// a MarshalJSON or MarshalText method fails).
func Marshal(v any) ([]byte, error) {
	e := encoder{}
	e.b.Grow(128)
	if err := e.any(v); err != nil {
		return nil, err
	}
	return e.b.Bytes(), nil
}

// encoder is one Marshal call's state. Type facts are worked out once per type per call and
// kept here rather than in a cache shared by every table, which would need a lock.
type encoder struct {
	b     bytes.Buffer
	depth int // arrays and objects open
	ptrs  int // pointers followed along the current path
	seen  map[uintptr]bool
	types []typeFacts
}

// cycleAfter is the number of pointers followed along one path after which each pointer is
// remembered, so that a cycle of pointers is refused (as encoding/json refuses it) rather than
// followed forever.
const cycleAfter = 1000

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
	zeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
)

// typeFacts are what one type's values are written by: its methods, and for a struct its
// fields in JCS order.
type typeFacts struct {
	t                    reflect.Type
	marshaler, text      bool // t implements json.Marshaler, encoding.TextMarshaler
	ptrMarshaler, ptrTxt bool // *t does (t not a pointer): used when the value is addressable
	bytes                bool // a slice written as base64 ([]byte and its kin)
	fields               []field
	foldable             bool // two of fields' names are equal under case folding
}

// field is one struct field written as a member.
type field struct {
	name                        string
	index                       []int
	typ                         reflect.Type
	tagged                      bool
	omitEmpty, omitZero, quoted bool
}

func (e *encoder) facts(t reflect.Type) *typeFacts {
	for i := range e.types {
		if e.types[i].t == t {
			return &e.types[i]
		}
	}
	f := typeFacts{t: t, marshaler: t.Implements(marshalerType), text: t.Implements(textMarshalerType)}
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		f.ptrMarshaler, f.ptrTxt = pt.Implements(marshalerType), pt.Implements(textMarshalerType)
	}
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			pe := reflect.PointerTo(t.Elem())
			f.bytes = !pe.Implements(marshalerType) && !pe.Implements(textMarshalerType)
		}
	case reflect.Struct:
		f.fields = structFields(t)
		f.foldable = foldClash(f.fields)
	}
	e.types = append(e.types, f)
	return &e.types[len(e.types)-1]
}

// any writes x, taking the types the games build their lines from without reflection.
func (e *encoder) any(x any) error {
	switch x := x.(type) {
	case nil:
		e.b.WriteString("null")
	case string:
		e.str(x)
	case int:
		return e.int(int64(x))
	case int64:
		return e.int(x)
	case bool:
		e.bool(x)
	case map[string]any:
		if x == nil {
			e.b.WriteString("null")
			return nil
		}
		return e.mapAny(x)
	case []any:
		if x == nil {
			e.b.WriteString("null")
			return nil
		}
		if err := e.open(); err != nil {
			return err
		}
		e.b.WriteByte('[')
		for i, v := range x {
			if i > 0 {
				e.b.WriteByte(',')
			}
			if err := e.any(v); err != nil {
				return err
			}
		}
		e.b.WriteByte(']')
		e.depth--
	case []int:
		if x == nil {
			e.b.WriteString("null")
			return nil
		}
		if err := e.open(); err != nil {
			return err
		}
		e.b.WriteByte('[')
		for i, v := range x {
			if i > 0 {
				e.b.WriteByte(',')
			}
			if err := e.int(int64(v)); err != nil {
				return err
			}
		}
		e.b.WriteByte(']')
		e.depth--
	case json.RawMessage:
		if x == nil {
			e.b.WriteString("null")
			return nil
		}
		return e.raw(x)
	default:
		return e.value(reflect.ValueOf(x), false)
	}
	return nil
}

// open enters an array or object: ErrTooDeep past MaxDepth.
func (e *encoder) open() error {
	e.depth++
	if e.depth > MaxDepth {
		return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth)
	}
	return nil
}

func (e *encoder) bool(b bool) {
	if b {
		e.b.WriteString("true")
	} else {
		e.b.WriteString("false")
	}
}

func (e *encoder) int(n int64) error {
	if n > maxSafe || n < -maxSafe {
		return fmt.Errorf("%w: %d", ErrUnsafeInteger, n)
	}
	e.b.Write(strconv.AppendInt(e.b.AvailableBuffer(), n, 10))
	return nil
}

func (e *encoder) uint(n uint64) error {
	if n > maxSafe {
		return fmt.Errorf("%w: %d", ErrUnsafeInteger, n)
	}
	e.b.Write(strconv.AppendUint(e.b.AvailableBuffer(), n, 10))
	return nil
}

// float writes f (of bits 32 or 64) as JCS writes the number encoding/json prints for it: a
// float32 is printed in its own shortest form, which JCS reads back as a float64.
func (e *encoder) float(f float64, bits int) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	if bits == 32 {
		var tmp [32]byte
		f, _ = strconv.ParseFloat(string(strconv.AppendFloat(tmp[:0], f, 'g', -1, 32)), 64)
	}
	if f == math.Trunc(f) {
		if math.Abs(f) > maxSafe {
			return fmt.Errorf("%w: %g", ErrUnsafeInteger, f)
		}
		e.b.Write(strconv.AppendInt(e.b.AvailableBuffer(), int64(f), 10)) // -0 is 0
		return nil
	}
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	e.b.WriteString(s)
	return nil
}

// str writes s as a JCS string, each byte of invalid UTF-8 as U+FFFD.
func (e *encoder) str(s string) {
	if !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	writeString(&e.b, s)
}

// validUTF8 is s with each byte that starts no valid UTF-8 sequence replaced by U+FFFD.
func validUTF8(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// raw writes JSON text from a Marshaler canonically, after Canonical's strict checks; its
// nesting counts with the levels already open.
func (e *encoder) raw(raw []byte) error {
	r, err := parse(raw)
	if err != nil {
		return err
	}
	if e.depth+r.depth() > MaxDepth {
		return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth)
	}
	mark := e.b.Len()
	if err := writeNode(&e.b, r, "", false); err != nil {
		if !errors.Is(err, errNeedsJCS) {
			return err
		}
		e.b.Truncate(mark)
		out, err := transform(r.span())
		if err != nil {
			return err
		}
		e.b.Write(out)
	}
	return nil
}

// depth is the nesting of arrays and objects in r: 0 for a scalar.
func (r ref) depth() int {
	n := r.node()
	d := 0
	switch n.kind {
	case '{':
		for _, m := range r.members() {
			d = max(d, r.val(m).depth())
		}
	case '[':
		for i := 0; i < int(n.n); i++ {
			d = max(d, r.elem(i).depth())
		}
	default:
		return 0
	}
	return d + 1
}

// entry is one member to write: its name and its value (x, or v when x is unused).
type entry struct {
	name string
	x    any
	v    reflect.Value
}

// sortEntries puts es in JCS order.
func sortEntries(es []entry) {
	if len(es) <= 12 {
		for i := 1; i < len(es); i++ {
			for j := i; j > 0 && compareUTF16(es[j-1].name, es[j].name) > 0; j-- {
				es[j-1], es[j] = es[j], es[j-1]
			}
		}
		return
	}
	slices.SortFunc(es, func(a, b entry) int { return compareUTF16(a.name, b.name) })
}

// checkNames refuses two names of one object (es, in JCS order) that are equal
// (ErrDuplicateMember) or equal under case folding (ErrFoldedMember), as Canonical does.
func checkNames(es []entry) error {
	plain := true // ASCII without upper case: folding equals only equal names, found side by side
	for _, m := range es {
		for i := 0; i < len(m.name); i++ {
			if c := m.name[i]; c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' {
				plain = false
				break
			}
		}
		if !plain {
			break
		}
	}
	for i := 1; i < len(es); i++ {
		if es[i].name == es[i-1].name {
			return fmt.Errorf("%w: %q", ErrDuplicateMember, es[i].name)
		}
	}
	if plain {
		return nil
	}
	if len(es) <= smallObject {
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				if strings.EqualFold(es[i].name, es[j].name) {
					return fmt.Errorf("%w: %q and %q", ErrFoldedMember, es[i].name, es[j].name)
				}
			}
		}
		return nil
	}
	folded := make(map[string]string, len(es))
	for _, m := range es {
		k := foldKey(m.name)
		if other, clash := folded[k]; clash {
			return fmt.Errorf("%w: %q and %q", ErrFoldedMember, other, m.name)
		}
		folded[k] = m.name
	}
	return nil
}

// members writes the object of es (in JCS order).
func (e *encoder) members(es []entry) error {
	if err := e.open(); err != nil {
		return err
	}
	e.b.WriteByte('{')
	for i, m := range es {
		if i > 0 {
			e.b.WriteByte(',')
		}
		e.str(m.name)
		e.b.WriteByte(':')
		var err error
		if m.v.IsValid() {
			err = e.value(m.v, false)
		} else {
			err = e.any(m.x)
		}
		if err != nil {
			return err
		}
	}
	e.b.WriteByte('}')
	e.depth--
	return nil
}

func (e *encoder) mapAny(m map[string]any) error {
	var room [8]entry
	es := room[:0]
	for k, v := range m {
		if !utf8.ValidString(k) {
			k = validUTF8(k)
		}
		es = append(es, entry{name: k, x: v})
	}
	sortEntries(es)
	if err := checkNames(es); err != nil {
		return err
	}
	return e.members(es)
}

// value writes v by reflection; quoted is a ",string" field's option.
func (e *encoder) value(v reflect.Value, quoted bool) error {
	if !v.IsValid() {
		e.b.WriteString("null")
		return nil
	}
	t := v.Type()
	f := e.facts(t)
	if t.Kind() != reflect.Pointer && v.CanAddr() {
		switch {
		case f.ptrMarshaler:
			return e.marshalJSON(v.Addr())
		case f.ptrTxt:
			return e.marshalText(v.Addr())
		}
	}
	switch {
	case f.marshaler:
		return e.marshalJSON(v)
	case f.text:
		return e.marshalText(v)
	}
	switch v.Kind() {
	case reflect.Bool:
		if quoted {
			e.b.WriteByte('"')
			e.bool(v.Bool())
			e.b.WriteByte('"')
			return nil
		}
		e.bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if quoted {
			e.str(strconv.FormatInt(v.Int(), 10))
			return nil
		}
		return e.int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if quoted {
			e.str(strconv.FormatUint(v.Uint(), 10))
			return nil
		}
		return e.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		bits := 64
		if v.Kind() == reflect.Float32 {
			bits = 32
		}
		if quoted {
			fv := v.Float()
			if math.IsNaN(fv) || math.IsInf(fv, 0) {
				return &json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(fv, 'g', -1, bits)}
			}
			var text []byte
			if bits == 32 {
				text, _ = json.Marshal(float32(fv))
			} else {
				text, _ = json.Marshal(fv)
			}
			e.str(string(text))
			return nil
		}
		return e.float(v.Float(), bits)
	case reflect.String:
		return e.string(v, quoted)
	case reflect.Interface:
		if v.IsNil() {
			e.b.WriteString("null")
			return nil
		}
		return e.value(v.Elem(), false)
	case reflect.Pointer:
		if v.IsNil() {
			e.b.WriteString("null")
			return nil
		}
		e.ptrs++
		if e.ptrs > cycleAfter {
			p := v.Pointer()
			if e.seen[p] {
				return &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + t.String()}
			}
			if e.seen == nil {
				e.seen = map[uintptr]bool{}
			}
			e.seen[p] = true
			defer delete(e.seen, p)
		}
		err := e.value(v.Elem(), quoted)
		e.ptrs--
		return err
	case reflect.Struct:
		return e.structValue(v, f)
	case reflect.Map:
		return e.mapValue(v)
	case reflect.Slice:
		if v.IsNil() {
			e.b.WriteString("null")
			return nil
		}
		if f.bytes {
			e.b.WriteByte('"')
			raw := v.Bytes()
			out := e.b.AvailableBuffer()
			out = base64.StdEncoding.AppendEncode(out, raw)
			e.b.Write(out)
			e.b.WriteByte('"')
			return nil
		}
		return e.array(v)
	case reflect.Array:
		return e.array(v)
	default:
		return &json.UnsupportedTypeError{Type: t}
	}
	return nil
}

// string writes a string-kinded value: a json.Number as its number, else the string (a
// ",string" field's string is the JSON text of the string, as encoding/json writes it).
func (e *encoder) string(v reflect.Value, quoted bool) error {
	if v.Type() == numberType {
		s := v.String()
		if s == "" {
			s = "0"
		}
		if !validNumber(s) {
			return fmt.Errorf("json: invalid number literal %q", s)
		}
		if quoted {
			e.str(s)
			return nil
		}
		return e.raw([]byte(s))
	}
	if quoted {
		text, _ := json.Marshal(v.String())
		e.str(string(text))
		return nil
	}
	e.str(v.String())
	return nil
}

// validNumber reports whether s is one JSON number (RFC 8259 §6), nothing around it.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i == len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i == len(s)
}

func (e *encoder) marshalJSON(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.b.WriteString("null")
		return nil
	}
	m, ok := v.Interface().(json.Marshaler)
	if !ok {
		e.b.WriteString("null")
		return nil
	}
	raw, err := m.MarshalJSON()
	if err != nil {
		return &json.MarshalerError{Type: v.Type(), Err: err}
	}
	return e.raw(raw)
}

func (e *encoder) marshalText(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.b.WriteString("null")
		return nil
	}
	m, ok := v.Interface().(encoding.TextMarshaler)
	if !ok {
		e.b.WriteString("null")
		return nil
	}
	text, err := m.MarshalText()
	if err != nil {
		return &json.MarshalerError{Type: v.Type(), Err: err}
	}
	e.str(string(text))
	return nil
}

func (e *encoder) array(v reflect.Value) error {
	if err := e.open(); err != nil {
		return err
	}
	e.b.WriteByte('[')
	for i := range v.Len() {
		if i > 0 {
			e.b.WriteByte(',')
		}
		if err := e.value(v.Index(i), false); err != nil {
			return err
		}
	}
	e.b.WriteByte(']')
	e.depth--
	return nil
}

func (e *encoder) mapValue(v reflect.Value) error {
	kt := v.Type().Key()
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !kt.Implements(textMarshalerType) {
			return &json.UnsupportedTypeError{Type: v.Type()}
		}
	}
	if v.IsNil() {
		e.b.WriteString("null")
		return nil
	}
	var room [8]entry
	es := room[:0]
	it := v.MapRange()
	for it.Next() {
		name, err := keyName(it.Key())
		if err != nil {
			return fmt.Errorf("json: encoding error for type %q: %q", v.Type().String(), err.Error())
		}
		if !utf8.ValidString(name) {
			name = validUTF8(name)
		}
		es = append(es, entry{name: name, v: it.Value()})
	}
	sortEntries(es)
	if err := checkNames(es); err != nil {
		return err
	}
	return e.members(es)
}

// keyName is a map key's member name: a string key itself, a TextMarshaler's text, an
// integer's decimal digits.
func keyName(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		text, err := tm.MarshalText()
		return string(text), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	default:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
}

func (e *encoder) structValue(v reflect.Value, f *typeFacts) error {
	var room [12]entry
	es := room[:0]
fields:
	for i := range f.fields {
		fd := &f.fields[i]
		fv := v
		for _, x := range fd.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fields // a field of a nil embedded pointer: left out
				}
				fv = fv.Elem()
			}
			fv = fv.Field(x)
		}
		if fd.omitEmpty && empty(fv) || fd.omitZero && zero(fv, fd.typ) {
			continue
		}
		es = append(es, entry{name: fd.name, v: fv})
		if fd.quoted {
			es[len(es)-1].x = quotedMark{}
		}
	}
	if f.foldable {
		if err := checkNames(es); err != nil {
			return err
		}
	}
	if err := e.open(); err != nil {
		return err
	}
	e.b.WriteByte('{')
	for i, m := range es {
		if i > 0 {
			e.b.WriteByte(',')
		}
		e.str(m.name)
		e.b.WriteByte(':')
		_, quoted := m.x.(quotedMark)
		if err := e.value(m.v, quoted); err != nil {
			return err
		}
	}
	e.b.WriteByte('}')
	e.depth--
	return nil
}

// quotedMark marks a struct member written with the ",string" option.
type quotedMark struct{}

// empty is omitempty's test: false, 0, a nil pointer or interface, an empty array, map, slice
// or string.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// zero is omitzero's test: the type's own IsZero method when it has one (a nil pointer or
// interface is zero without calling it), else the zero value.
func zero(v reflect.Value, t reflect.Type) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(zeroerType):
		return v.IsNil() || v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() ||
			v.Interface().(interface{ IsZero() bool }).IsZero()
	case t.Kind() == reflect.Pointer && t.Implements(zeroerType):
		return v.IsNil() || v.Interface().(interface{ IsZero() bool }).IsZero()
	case t.Implements(zeroerType):
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	case reflect.PointerTo(t).Implements(zeroerType):
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}

// structFields are t's members as encoding/json names them, in JCS order: exported fields
// (and the exported fields of embedded structs, exported or not) by tag name or field name, a
// "-" tag left out, an invalid tag name replaced by the field name. Where several fields share
// a name, the shallowest wins, then the one of them that is tagged; with no single winner the
// name is left out altogether (Go's rules for embedded fields, JSON tags promoting).
func structFields(t reflect.Type) []field {
	type level struct {
		t     reflect.Type
		index []int
	}
	var all []field
	visited := map[reflect.Type]bool{}
	next := []level{{t: t}}
	var nextTimes map[reflect.Type]int
	for len(next) > 0 {
		cur, times := next, nextTimes
		next, nextTimes = nil, map[reflect.Type]int{}
		for _, l := range cur {
			if visited[l.t] {
				continue
			}
			visited[l.t] = true
			for i := range l.t.NumField() {
				sf := l.t.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clone(l.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					nextTimes[ft]++
					if nextTimes[ft] == 1 {
						next = append(next, level{t: ft, index: index})
					}
					continue
				}
				fd := field{name: name, index: index, typ: sf.Type, tagged: name != ""}
				if name == "" {
					fd.name = sf.Name
				}
				for o := range strings.SplitSeq(opts, ",") {
					switch o {
					case "omitempty":
						fd.omitEmpty = true
					case "omitzero":
						fd.omitZero = true
					case "string":
						switch ft.Kind() {
						case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
							reflect.Float32, reflect.Float64, reflect.String:
							fd.quoted = true
						}
					}
				}
				all = append(all, fd)
				if times[l.t] > 1 {
					all = append(all, fd) // the struct is embedded twice at one depth: its names clash
				}
			}
		}
	}
	slices.SortStableFunc(all, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := all[:0]
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		// all[i] is the shallowest, tagged first: it wins unless all[i+1] ties it on both.
		if j == i+1 || len(all[i+1].index) != len(all[i].index) || all[i+1].tagged != all[i].tagged {
			out = append(out, all[i])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return compareUTF16(a.name, b.name) })
	return out
}

// validTagName reports whether a json tag's name is one encoding/json takes: non-empty, of
// letters, digits and the punctuation it allows (no quote, backslash or comma).
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) {
			continue
		}
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// foldClash reports whether two of fs's names are equal under case folding (their names are
// distinct), so that the members a value writes must be checked (checkNames).
func foldClash(fs []field) bool {
	seen := make(map[string]bool, len(fs))
	for _, f := range fs {
		k := foldKey(f.name)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}
