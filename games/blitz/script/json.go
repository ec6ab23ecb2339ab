package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxScriptBytes bounds a script: a full Blitz round of 8 seats at every limit is well under 4 MiB.
const maxScriptBytes = 16 << 20

// maxDepth bounds JSON nesting; a condition nests at most three levels (§10), a script ten.
const maxDepth = 64

// maxSafeInt is 2^53 − 1: above it JCS (RFC 8785) writes a different number than the one given,
// so the signed bytes and the value settled would differ. Every integer in a script stays below.
const maxSafeInt = 1<<53 - 1

type kind int

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// value is one JSON value decoded strictly: object members keep their order and exact spelling,
// numbers keep their literal. It is the script's own tree so that errors can name a path.
type value struct {
	kind kind
	b    bool
	num  string // literal, for kNumber
	str  string
	arr  []*value
	obj  []member
}

type member struct {
	name string
	val  *value
}

// get returns the member spelled exactly name, or nil.
func (v *value) get(name string) *value {
	for _, m := range v.obj {
		if m.name == name {
			return m.val
		}
	}
	return nil
}

// parseStrict decodes one JSON document. It refuses invalid UTF-8, a member given twice (names
// compared exactly, as JCS keeps them), nesting deeper than maxDepth and trailing data.
func parseStrict(data []byte) (*value, error) {
	if len(data) > maxScriptBytes {
		return nil, errors.New("larger than 16 MiB")
	}
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the document")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (*value, error) {
	if depth > maxDepth {
		return nil, pathErr(path, "nested deeper than 64 levels")
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, pathErr(path, "invalid JSON: "+err.Error())
	}
	switch t := tok.(type) {
	case nil:
		return &value{kind: kNull}, nil
	case bool:
		return &value{kind: kBool, b: t}, nil
	case json.Number:
		// An integer beyond 2^53 − 1 anywhere (a condition's min too) is refused here: JCS would
		// sign a different number than the one written.
		if lit := strings.TrimPrefix(string(t), "-"); !strings.ContainsAny(lit, ".eE") {
			if n, err := strconv.ParseInt(string(t), 10, 64); err != nil || n > maxSafeInt || n < -maxSafeInt {
				return nil, pathErr(path, "integer "+string(t)+" is beyond 2^53 − 1")
			}
		}
		return &value{kind: kNumber, num: string(t)}, nil
	case string:
		return &value{kind: kString, str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			v := &value{kind: kArray}
			for dec.More() {
				e, err := parseValue(dec, path+"["+strconv.Itoa(len(v.arr))+"]", depth+1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, e)
			}
			if _, err := dec.Token(); err != nil {
				return nil, pathErr(path, "invalid JSON: "+err.Error())
			}
			return v, nil
		case '{':
			v := &value{kind: kObject}
			for dec.More() {
				nt, err := dec.Token()
				if err != nil {
					return nil, pathErr(path, "invalid JSON: "+err.Error())
				}
				name, ok := nt.(string)
				if !ok {
					return nil, pathErr(path, "invalid JSON: member name is not a string")
				}
				mp := joinPath(path, name)
				if v.get(name) != nil {
					return nil, pathErr(mp, "member given twice")
				}
				e, err := parseValue(dec, mp, depth+1)
				if err != nil {
					return nil, err
				}
				v.obj = append(v.obj, member{name, e})
			}
			if _, err := dec.Token(); err != nil {
				return nil, pathErr(path, "invalid JSON: "+err.Error())
			}
			return v, nil
		}
	}
	return nil, pathErr(path, "invalid JSON")
}

// joinPath appends a member name to a path; names that are not plain identifiers are quoted so
// the path stays unambiguous ("task[\"Kind\"]" would read oddly; we write task.Kind, and quote
// only names with dots, brackets, spaces or non-ASCII letters).
func joinPath(path, name string) string {
	plain := name != ""
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if !plain {
		name = strconv.QuoteToASCII(name)
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// intOf reads an integer literal: no fraction, no exponent, no leading zeros, |n| ≤ 2^53 − 1.
func intOf(v *value, path string) (int64, error) {
	if v.kind != kNumber {
		return 0, pathErr(path, "must be an integer, got "+v.kind.String())
	}
	s := v.num
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.ContainsAny(digits, ".eE+") {
		return 0, pathErr(path, "must be an integer, got "+s)
	}
	if len(digits) > 1 && digits[0] == '0' {
		return 0, pathErr(path, "must be an integer without leading zeros, got "+s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > maxSafeInt || n < -maxSafeInt {
		return 0, pathErr(path, "integer "+s+" is beyond 2^53 − 1")
	}
	return n, nil
}

// encode writes v back as compact JSON, members in their order.
func (v *value) encode(buf *bytes.Buffer) {
	switch v.kind {
	case kNull:
		buf.WriteString("null")
	case kBool:
		buf.WriteString(strconv.FormatBool(v.b))
	case kNumber:
		buf.WriteString(v.num)
	case kString:
		b, _ := json.Marshal(v.str) // a Go string never fails to marshal
		buf.Write(b)
	case kArray:
		buf.WriteByte('[')
		for i, e := range v.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			e.encode(buf)
		}
		buf.WriteByte(']')
	case kObject:
		buf.WriteByte('{')
		for i, m := range v.obj {
			if i > 0 {
				buf.WriteByte(',')
			}
			b, _ := json.Marshal(m.name)
			buf.Write(b)
			buf.WriteByte(':')
			m.val.encode(buf)
		}
		buf.WriteByte('}')
	}
}

func (v *value) bytes() []byte {
	var buf bytes.Buffer
	v.encode(&buf)
	return buf.Bytes()
}
