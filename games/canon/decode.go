package canon

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Decode decodes raw JSON into v, a non-nil pointer, strictly: the raw checks of Canonical
// first (duplicates, folded names, unsafe integers, trailing data), then every member name of
// an object decoded into a struct must equal a field's json name exactly (case-sensitive; Go's
// encoding/json would fold case), no unknown members, and null only where the field is
// nil-able (pointer, interface, slice, map, json.RawMessage). Nested structs, slices, arrays and maps are walked;
// a field whose type implements json.Unmarshaler (json.RawMessage among them) is handed its
// raw value unwalked. Errors wrap the sentinels of Canonical, ErrUnknownMember, ErrNull,
// ErrType or ErrTarget, naming the member path.
func Decode(raw []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("%w", ErrTarget)
	}
	root, err := parse(raw)
	if err != nil {
		return err
	}
	if err := shape(root, rv.Type().Elem(), "$"); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// shape checked every JSON type, so what is left is a number out of its field's
		// range (300 for an int8) or a value a field's own UnmarshalJSON refused. Neither
		// error's text is sent on: it names Go types and fields.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%w: $.%s: out of range", ErrType, te.Field)
		}
		return fmt.Errorf("%w: a value is not valid for its member", ErrType)
	}
	return nil
}

var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// wrongType is the ErrType of a value at path that is not what its field takes, in JSON's
// words (never Go's type names).
func wrongType(path, want string) error { return fmt.Errorf("%w: %s: want %s", ErrType, path, want) }

// integerForm reports whether a number's text is an integer's: digits, an optional leading
// minus, no fraction or exponent (1.0 and 1e0 are not integers' forms, as encoding/json holds).
func integerForm(b []byte) bool {
	return len(b) > 0 && !bytes.ContainsAny(b, ".eE")
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// shape checks n against type t: exact member names, no unknown members, null only where it
// can be held.
func shape(r ref, t reflect.Type, path string) error {
	n := r.node()
	if reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType) {
		return nil
	}
	if n.kind == 'n' {
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			return nil // nil-able: null decodes to nil
		}
		return fmt.Errorf("%w: %s", ErrNull, path)
	}
	if t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(textUnmarshalerType) || t.Implements(textUnmarshalerType)) {
		if n.kind != '"' {
			return wrongType(path, "a string")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return shape(r, t.Elem(), path)
	case reflect.String:
		if n.kind != '"' {
			return wrongType(path, "a string")
		}
	case reflect.Bool:
		if n.kind != 't' && n.kind != 'f' {
			return wrongType(path, "true or false")
		}
	case reflect.Float32, reflect.Float64:
		if n.kind != '0' {
			return wrongType(path, "a number")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.kind != '0' || !integerForm(r.span()) {
			return wrongType(path, "a whole number")
		}
		// An integer is written as its digits: "-0" is not a form of 0, as "0.0" and "0e0"
		// are not (encoding/json would refuse those and take this one).
		if string(r.span()) == "-0" {
			return fmt.Errorf("%w: %s: -0 is not an integer", ErrType, path)
		}
		if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 && r.span()[0] == '-' {
			return wrongType(path, "a whole number ≥ 0")
		}
	case reflect.Struct:
		if n.kind != '{' {
			return wrongType(path, "an object")
		}
		fields := fieldsOf(t)
		for _, m := range r.members() {
			name := r.name(m)
			ft, ok := fields[name]
			if !ok {
				return fmt.Errorf("%w: %q in %s", ErrUnknownMember, name, path)
			}
			if err := shape(r.val(m), ft, path+"."+name); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			if n.kind != '"' {
				return wrongType(path, "a base64 string") // []byte is a base64 string
			}
			return nil
		}
		if n.kind != '[' {
			return wrongType(path, "an array")
		}
		for i := 0; i < int(n.n); i++ {
			if err := shape(r.elem(i), t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.kind != '{' {
			return wrongType(path, "an object")
		}
		for _, m := range r.members() {
			if err := shape(r.val(m), t.Elem(), path+"."+r.name(m)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldsOf maps each exact json member name of struct t to its field type, following
// encoding/json's naming (tag name, else field name; "-" skipped; untagged embedded structs
// flattened, shallower fields winning). It is worked out for every object decoded, not cached:
// a cache shared by every table would need a lock, and the bodies decoded this way (levers,
// setups, door requests) are small and few next to the signature checks.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	out := make(map[string]reflect.Type, t.NumField())
	collectFields(t, out, map[reflect.Type]bool{})
	return out
}

func collectFields(t reflect.Type, out map[string]reflect.Type, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	var embedded []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				embedded = append(embedded, et)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := out[name]; !taken {
			out[name] = f.Type
		}
	}
	for _, et := range embedded {
		collectFields(et, out, seen)
	}
}
