package blitz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/games/canon"
)

// decodeAnswer reads an answer's top level strictly (one object, exact-case member names from
// the answer's vocabulary, no member twice or spelled twice under case folding) and leaves
// each message and commitment as its raw bytes, so that a hostile commitment is refused on its
// own (with its code) while the rest of the answer goes through (§4.4).
func decodeAnswer(raw []byte) (answerBody, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return answerBody{}, nil
	}
	// The common case: the whole answer passes the strict checks, and one pass gives
	// every member, message and commitment. Otherwise (a hostile item somewhere) the answer is
	// read leniently at the top and each item is judged alone.
	if v, err := canon.Parse(raw); err == nil && v.Kind() == canon.Object {
		if fb, ok := fastAnswer(v); ok {
			return fb, nil
		}
	}
	return lenientAnswer(raw)
}

// lenientAnswer is decodeAnswer's last path: the top level through encoding/json (whose
// pointers into the body put it on the heap, which is why the paths above do not share its
// variable), each item left raw to be judged alone. Its errors say what is wrong in JSON's
// words (a member and the type it wants), never a Go decoder's.
func lenientAnswer(raw []byte) (answerBody, error) {
	var b answerBody
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return b, fmt.Errorf("malformed JSON at offset %d", se.Offset)
		}
		return b, fmt.Errorf("the answer must be one JSON object")
	}
	if dec.More() {
		return b, fmt.Errorf("trailing data after the answer")
	}
	if top == nil {
		return b, nil // null: an empty answer
	}
	if err := topNames(raw); err != nil {
		return b, err
	}
	for k, v := range top {
		var err error
		switch k {
		case "v":
			b.V, err = wholeMember(v)
		case "round":
			b.Round, err = stringMember(v)
		case "turn":
			b.Turn, err = wholeMember(v)
		case "phase":
			b.Phase, err = stringMember(v)
		case "exchange":
			b.Exchange, err = wholeMember(v)
		case "seat":
			b.Seat, err = wholeMember(v)
		case "messages":
			b.Messages, err = arrayMember(v)
		case "commitments":
			b.Commitments, err = arrayMember(v)
		case "accusation":
			if string(bytes.TrimSpace(v)) != "null" {
				b.Accusation, err = wholeMember(v)
			}
		default:
			err = fmt.Errorf("unknown member")
		}
		if err != nil {
			return b, fmt.Errorf("%q: %v", k, err)
		}
	}
	if len(b.Messages) > 64 || len(b.Commitments) > 64 {
		return b, fmt.Errorf("too many items")
	}
	return b, nil
}

// wholeMember reads a member that must be a whole number (digits, an optional minus; no
// fraction or exponent) within ±2^31.
func wholeMember(raw json.RawMessage) (*int, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, errors.New(canon.Reason(err))
	}
	n, ok := v.Int()
	if !ok || n < -1<<31 || n > 1<<31 {
		return nil, errors.New("must be a whole number")
	}
	i := int(n)
	return &i, nil
}

// stringMember reads a member that must be a string.
func stringMember(raw json.RawMessage) (*string, error) {
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, errors.New(canon.Reason(err))
	}
	s, ok := v.Str()
	if !ok {
		return nil, errors.New("must be a string")
	}
	return &s, nil
}

// arrayMember reads a member that must be an array (or null), its items left raw.
func arrayMember(raw json.RawMessage) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errors.New("must be an array")
	}
	return items, nil
}

// topNames refuses a top-level member name given twice or two names equal under Unicode case
// folding (encoding/json would fold them into one field).
func topNames(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return errors.New("malformed JSON")
	}
	var names []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return errors.New("malformed JSON")
		}
		name, _ := t.(string)
		for _, n := range names {
			if strings.EqualFold(n, name) {
				return fmt.Errorf("member %q beside %q", name, n)
			}
		}
		names = append(names, name)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return errors.New("malformed JSON")
		}
	}
	return nil
}

// fastAnswer reads a strictly parsed answer; false sends the caller to the slow path, which
// reports the precise error.
func fastAnswer(v canon.Value) (answerBody, bool) {
	var b answerBody
	intp := func(x canon.Value) (*int, bool) {
		n, ok := x.Int()
		if !ok || n < -1<<31 || n > 1<<31 {
			return nil, false
		}
		i := int(n)
		return &i, true
	}
	for i := 0; i < v.Len(); i++ {
		name, x := v.Member(i)
		ok := true
		switch name {
		case "v":
			b.V, ok = intp(x)
		case "turn":
			b.Turn, ok = intp(x)
		case "exchange":
			b.Exchange, ok = intp(x)
		case "seat":
			b.Seat, ok = intp(x)
		case "accusation":
			if x.Kind() != canon.Null {
				b.Accusation, ok = intp(x)
			}
		case "round", "phase":
			var s string
			s, ok = x.Str()
			if name == "round" {
				b.Round = &s
			} else {
				b.Phase = &s
			}
		case "messages", "commitments":
			if x.Kind() == canon.Null {
				continue
			}
			if x.Kind() != canon.Array || x.Len() > 64 {
				return b, false
			}
			if name == "messages" {
				b.Messages = make([]json.RawMessage, 0, x.Len())
				b.msgVals = make([]canon.Value, 0, x.Len())
			} else {
				b.Commitments = make([]json.RawMessage, 0, x.Len())
				b.comVals = make([]canon.Value, 0, x.Len())
			}
			for j := 0; j < x.Len(); j++ {
				e := x.Elem(j)
				if name == "messages" {
					b.Messages = append(b.Messages, e.Raw())
					b.msgVals = append(b.msgVals, e)
				} else {
					b.Commitments = append(b.Commitments, e.Raw())
					b.comVals = append(b.comVals, e)
				}
			}
		default:
			return b, false
		}
		if !ok {
			return b, false
		}
	}
	return b, true
}
