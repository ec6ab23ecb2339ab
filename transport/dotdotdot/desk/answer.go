package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"arena/games/canon"
	"arena/transport/door"
)

// AnswerEcho is the part of a walk-in answer the door checks (§4.4): the move it answers. The
// rest of the body is the game's intent, decoded strictly by the desk and the game.
type AnswerEcho struct {
	Round    string
	Turn     int
	Phase    string
	Exchange int
}

// DecodeAnswer checks a raw answer body: one JSON object passing canon's raw checks (valid
// UTF-8, no duplicate or case-folded member names, no trailing data, safe integers), carrying
// "round" (a T-<n> string), "turn" (an integer ≥ 0), "phase" (a non-empty string) and, when
// present, "exchange" (an integer ≥ 1); no member may be a case variant of those names. Every failure is a *door.Refusal with code bad_request.
// It never panics, whatever the bytes.
func DecodeAnswer(raw []byte) (AnswerEcho, error) {
	if _, err := canon.Canonical(raw); err != nil {
		return AnswerEcho{}, bad(canon.Reason(err))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return AnswerEcho{}, bad("the answer is one JSON object")
	}
	for k := range top {
		for _, name := range echoNames {
			if k != name && strings.EqualFold(k, name) {
				return AnswerEcho{}, bad(fmt.Sprintf("member %q: did you mean %q? member names are exact-case", k, name))
			}
		}
	}
	var a AnswerEcho
	if err := member(top, "round", &a.Round, true); err != nil {
		return AnswerEcho{}, err
	}
	if !roundID.MatchString(a.Round) {
		return AnswerEcho{}, bad(`"round" must be T-<n>, echoed from the envelope`)
	}
	if err := member(top, "turn", &a.Turn, true); err != nil {
		return AnswerEcho{}, err
	}
	if a.Turn < 0 {
		return AnswerEcho{}, bad(`"turn" must not be negative`)
	}
	if err := member(top, "phase", &a.Phase, true); err != nil {
		return AnswerEcho{}, err
	}
	if a.Phase == "" {
		return AnswerEcho{}, bad(`"phase" must not be empty`)
	}
	if err := member(top, "exchange", &a.Exchange, false); err != nil {
		return AnswerEcho{}, err
	}
	if _, ok := top["exchange"]; ok && a.Exchange < 1 {
		return AnswerEcho{}, bad(`"exchange" counts from 1`)
	}
	return a, nil
}

// echoNames are the members an answer echoes from its envelope. A case variant of one
// ("Turn", "eXchange") is refused: a decoder further in that folds case would read it.
var echoNames = []string{"round", "turn", "phase", "exchange", "seat"}

func bad(msg string) error { return door.Refuse(door.CodeBadRequest, msg) }

// member decodes top[name] into v, refusing null and the wrong JSON type.
func member(top map[string]json.RawMessage, name string, v any, required bool) error {
	raw, ok := top[name]
	if !ok {
		if required {
			return bad(fmt.Sprintf("%q is required: echo it from the envelope", name))
		}
		return nil
	}
	if string(raw) == "null" {
		return bad(fmt.Sprintf("%q must not be null", name))
	}
	if _, isInt := v.(*int); isInt && string(raw) == "-0" {
		return bad(fmt.Sprintf("%q must be a %s", name, kindOf(v))) // -0 is no integer's form, as 0.0 is not
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return bad(fmt.Sprintf("%q must be a %s", name, kindOf(v)))
		}
		return bad(fmt.Sprintf("%q is not a valid %s", name, kindOf(v)))
	}
	return nil
}

func kindOf(v any) string {
	switch v.(type) {
	case *string:
		return "string"
	case *int:
		return "whole number"
	}
	return "value"
}
