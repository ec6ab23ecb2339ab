package canon

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// Kind is the JSON type of a Value.
type Kind byte

// Kinds of Value.
const (
	Object Kind = '{'
	Array  Kind = '['
	String Kind = '"'
	Number Kind = '0'
	True   Kind = 't'
	False  Kind = 'f'
	Null   Kind = 'n'
)

// Value is one JSON value that passed the strict checks of Canonical (see Parse), with
// accessors for rules code that reads protocol objects member by member instead of through
// reflection: it is what lets a commitment be checked in one pass over its bytes.
type Value struct {
	r ref // r.t nil: the zero Value, null
}

// Parse runs the strict checks of Canonical on raw (UTF-8, one value, no duplicate or folded
// member names, safe integers, depth) and returns the checked value. Errors as Canonical.
func Parse(raw []byte) (Value, error) {
	r, err := parse(raw)
	if err != nil {
		return Value{}, err
	}
	return Value{r}, nil
}

// Kind is the value's JSON type; the zero Value is Null.
func (v Value) Kind() Kind {
	if v.r.t == nil {
		return Null
	}
	return Kind(v.r.node().kind)
}

// Raw is the value's bytes as received.
func (v Value) Raw() []byte {
	if v.r.t == nil {
		return []byte("null")
	}
	return v.r.span()
}

// Len is the number of members of an object or elements of an array (0 otherwise).
func (v Value) Len() int {
	if k := v.Kind(); k != Object && k != Array {
		return 0
	}
	return int(v.r.node().n)
}

// Member is the i-th member of an object, in the order received: its exact (unescaped) name
// and its value. Like a slice index, i must be below Len() of an object.
func (v Value) Member(i int) (string, Value) {
	m := v.r.members()[i]
	return v.r.name(m), Value{v.r.val(m)}
}

// Elem is the i-th element of an array; i must be below Len() of an array.
func (v Value) Elem(i int) Value {
	if v.Kind() != Array || i < 0 || i >= v.Len() {
		panic(fmt.Sprintf("canon: Elem(%d) of a %c of length %d", i, v.Kind(), v.Len()))
	}
	return Value{v.r.elem(i)}
}

// Str is the decoded content of a string value; false for any other kind.
func (v Value) Str() (string, bool) {
	if v.Kind() != String {
		return "", false
	}
	if c, ok := v.plain(); ok {
		return string(c), true
	}
	s := scanner{data: v.r.t.raw, i: int(v.r.node().start)}
	out, err := s.str()
	return out, err == nil
}

// StrBytes is Str as bytes: for a string written without an escape, its content as received (a
// view of the parsed input: read it, never write into it or keep it past the input), else its
// decoded content in a new slice. false for any other kind.
//
// A string without an escape is also its own JCS form (Raw, quotes included): JCS escapes only
// the quote, the backslash and control characters, which such a string cannot hold.
func (v Value) StrBytes() ([]byte, bool) {
	if v.Kind() != String {
		return nil, false
	}
	if c, ok := v.plain(); ok {
		return c, true
	}
	s, ok := v.Str()
	return []byte(s), ok
}

// StrIn is Str for a string that should be one of words: the word itself (the caller's string,
// no allocation) when the content equals it, else the content as a new string (found false).
// ok is false for any other kind.
func (v Value) StrIn(words []string) (s string, found, ok bool) {
	if v.Kind() != String {
		return "", false, false
	}
	if c, plain := v.plain(); plain {
		for _, w := range words {
			if string(c) == w {
				return w, true, true
			}
		}
	}
	if s, ok = v.Str(); !ok {
		return "", false, false
	}
	for _, w := range words {
		if s == w {
			return w, true, true
		}
	}
	return s, false, true
}

// plain is a string value's content between its quotes when it holds no escape (the strict
// scan checked everything else about it); false when it has one. v must be a string.
func (v Value) plain() ([]byte, bool) {
	n := v.r.node()
	c := v.r.t.raw[n.start+1 : n.end-1]
	return c, bytes.IndexByte(c, '\\') < 0
}

// Int is the value of a number written as a plain integer (-?digits: no fraction, no
// exponent), which the checks already bound to ±(2^53−1); false otherwise. 1.0 and 1e6 are
// not integers here: protocol integers are written as integers.
func (v Value) Int() (int64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	lit := v.r.span()
	for i, c := range lit {
		if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(lit), 10, 64)
	return n, err == nil
}

// Bool is the value of true or false; false, false for any other kind.
func (v Value) Bool() (bool, bool) {
	switch v.Kind() {
	case True:
		return true, true
	case False:
		return false, true
	}
	return false, false
}

// Canonical is the JCS canonical form of the value.
func (v Value) Canonical() ([]byte, error) {
	if v.r.t == nil {
		return []byte("null"), nil
	}
	return canonicalTree(v.r, "", false)
}

// CanonicalWithout is the JCS canonical form of an object less its top-level member name
// (§7.2 "without sig"). ErrNotObject for any other kind.
func (v Value) CanonicalWithout(name string) ([]byte, error) {
	if v.Kind() != Object {
		return nil, fmt.Errorf("%w", ErrNotObject)
	}
	return canonicalTree(v.r, name, true)
}

// CanonicalForms writes an object's JCS form once and returns three views of it: full, the
// form of the whole object (Canonical); without, the form less the top-level member skip
// (CanonicalWithout); and member, the form of the top-level member named member's value, a
// subslice of full (nil when there is no such member). It is what a signed object needs (its
// transcript form, its signed bytes and a part of it) for one walk of the tree. Bytes and
// errors are those of Canonical and CanonicalWithout; ErrNotObject for any other kind.
func (v Value) CanonicalForms(skip, member string) (full, without, part []byte, err error) {
	if v.Kind() != Object {
		return nil, nil, nil, fmt.Errorf("%w", ErrNotObject)
	}
	var b bytes.Buffer
	b.Grow(len(v.r.span()))
	skipAt, skipEnd, partAt, partEnd := -1, -1, -1, -1
	ms := v.r.members()
	if !membersSorted(v.r, ms, "", false) {
		ms = sortedMembers(v.r, ms, "", false)
	}
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		start := b.Len()
		name := v.r.name(m)
		writeString(&b, name)
		b.WriteByte(':')
		valAt := b.Len()
		if err := writeNode(&b, v.r.val(m), "", false); err != nil {
			if !errors.Is(err, errNeedsJCS) {
				return nil, nil, nil, err
			}
			return v.canonicalFormsSlow(skip, member)
		}
		if name == skip {
			// The member and the comma that joins it to its neighbours: the one before it,
			// or the one after it when it is first.
			skipAt, skipEnd = start, b.Len()
			if i > 0 {
				skipAt--
			} else if len(ms) > 1 {
				skipEnd++
			}
		}
		if name == member {
			partAt, partEnd = valAt, b.Len()
		}
	}
	b.WriteByte('}')
	full = b.Bytes()
	full = full[:len(full):len(full)]
	if skipAt < 0 {
		without = full
	} else {
		without = make([]byte, 0, len(full)-(skipEnd-skipAt))
		without = append(append(without, full[:skipAt]...), full[skipEnd:]...)
	}
	if partAt >= 0 {
		part = full[partAt:partEnd:partEnd]
	}
	return full, without, part, nil
}

// canonicalFormsSlow is CanonicalForms for an object holding a number only
// github.com/gowebpki/jcs writes: each form on its own.
func (v Value) canonicalFormsSlow(skip, member string) (full, without, part []byte, err error) {
	if without, err = v.CanonicalWithout(skip); err != nil {
		return nil, nil, nil, err
	}
	if full, err = v.Canonical(); err != nil {
		return nil, nil, nil, err
	}
	for i := 0; i < v.Len(); i++ {
		if name, x := v.Member(i); name == member {
			if part, err = x.Canonical(); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return full, without, part, nil
}
