package canon

import (
	"bytes"
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
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%w: %s: %v", ErrType, te.Field, err)
		}
		return fmt.Errorf("%w: %v", ErrType, err)
	}
	return nil
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
	switch t.Kind() {
	case reflect.Pointer:
		return shape(r, t.Elem(), path)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// An integer is written as its digits: "-0" is not a form of 0, as "0.0" and "0e0"
		// are not (encoding/json would refuse those and take this one).
		if n.kind == '0' && string(r.span()) == "-0" {
			return fmt.Errorf("%w: %s: -0 is not an integer", ErrType, path)
		}
	case reflect.Struct:
		if n.kind != '{' {
			return fmt.Errorf("%w: %s: want an object", ErrType, path)
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
			return nil // []byte is a base64 string
		}
		if n.kind != '[' {
			return fmt.Errorf("%w: %s: want an array", ErrType, path)
		}
		for i := 0; i < int(n.n); i++ {
			if err := shape(r.elem(i), t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.kind != '{' {
			return fmt.Errorf("%w: %s: want an object", ErrType, path)
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
