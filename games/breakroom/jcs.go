package breakroom

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"arena/games/canon"
)

// errNotPlain says appendJCS met a value it does not write itself; MarshalJCS then asks canon.
var errNotPlain = errors.New("breakroom: not a plain value")

// MarshalJCS is canon.Marshal(v) (RFC 8785 JCS) for the values a game's lines are made of,
// written in one pass: map[string]any with ASCII keys, []map[string]any, []any, string (valid
// UTF-8), bool, nil, int, int64 and whole floats within ±(2^53−1), []int, []int64, [][]int64,
// json.RawMessage (canonicalised by canon) and other float64 between 1e-6 and 1e21 in
// magnitude, or 0 (ECMAScript's shortest form is then Go's 'f' −1). Anything else, anywhere in v, is canon.Marshal's: the bytes are the same
// either way (TestMarshalJCSIsCanon), only slower. The match_start and end lines of every game
// carry such values, once a match, and canon's general transform was a sixth of a Dilemma
// match.
func MarshalJCS(v any) ([]byte, error) {
	if b, err := appendJCS(make([]byte, 0, 512), v); err == nil {
		return b, nil
	}
	return canon.Marshal(v)
}

func appendJCS(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return appendJCSString(b, x)
	case int:
		return appendSafeInt(b, int64(x))
	case int64:
		return appendSafeInt(b, x)
	case float64:
		switch a := math.Abs(x); {
		case x == 0:
			return append(b, '0'), nil
		case a >= 1e-6 && a < 1e21 && (a <= 1<<53-1 || x != math.Trunc(x)):
			return strconv.AppendFloat(b, x, 'f', -1, 64), nil
		}
		return b, errNotPlain
	case json.RawMessage:
		c, err := canon.Canonical(x)
		if err != nil {
			return b, err
		}
		return append(b, c...), nil
	case []int:
		return appendList(b, len(x), x == nil, func(b []byte, i int) ([]byte, error) { return appendSafeInt(b, int64(x[i])) })
	case []int64:
		return appendList(b, len(x), x == nil, func(b []byte, i int) ([]byte, error) { return appendSafeInt(b, x[i]) })
	case [][]int64:
		return appendList(b, len(x), x == nil, func(b []byte, i int) ([]byte, error) { return appendJCS(b, x[i]) })
	case []any:
		return appendList(b, len(x), x == nil, func(b []byte, i int) ([]byte, error) { return appendJCS(b, x[i]) })
	case []map[string]any:
		return appendList(b, len(x), x == nil, func(b []byte, i int) ([]byte, error) { return appendJCS(b, x[i]) })
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			for i := 0; i < len(k); i++ {
				if k[i] >= utf8.RuneSelf {
					return b, errNotPlain // JCS orders by UTF-16 code units: ASCII only here
				}
			}
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i := range keys {
			for _, k := range keys[i+1:] {
				if strings.EqualFold(keys[i], k) {
					return b, errNotPlain // canon refuses names equal under folding: its error
				}
			}
		}
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJCSString(b, k); err != nil {
				return b, err
			}
			if b, err = appendJCS(append(b, ':'), x[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	return b, errNotPlain
}

// appendSafeInt writes an integer JCS holds exactly (within ±(2^53−1)); a larger one is not
// plain (JCS would write it as the nearest double).
func appendSafeInt(b []byte, n int64) ([]byte, error) {
	if n > 1<<53-1 || n < -(1<<53-1) {
		return b, errNotPlain
	}
	return strconv.AppendInt(b, n, 10), nil
}

// appendList writes n elements as a JSON array, each by elem; a nil slice (isNil) is null, as
// encoding/json writes it.
func appendList(b []byte, n int, isNil bool, elem func([]byte, int) ([]byte, error)) ([]byte, error) {
	if isNil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(b, i); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendJCSString writes s as JCS does (RFC 8785 §3.2.2.2): quote and backslash escaped, the
// controls as \b \t \n \f \r or \u00xx, everything else as it stands. Invalid UTF-8 is not plain.
func appendJCSString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return b, errNotPlain
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"'), nil
}
