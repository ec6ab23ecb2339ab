package dotdotdot

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"arena/games"
	"arena/games/canon"
)

// AnswerEcho is the part of an answer the door checks (§4, §4.4): the move it answers. The rest
// of the body is the game's intent, decoded strictly by the desk and the game.
type AnswerEcho struct {
	Round    string
	Turn     int
	Phase    string
	Exchange int
}

// CheckAnswer is the one strict reader of an answer body at DOTDOTDOT's doors, run on the bytes
// as the agent sent them: the walk-in door's POST /v1/walkin/answer (transport/dotdotdot/desk)
// and the A2A channel's answer (the data part's raw bytes, transport/a2a), so the two refuse the
// same bytes the same way. It checks one JSON object passing canon's raw checks (valid UTF-8, no
// lone surrogate, no duplicate or case-folded member names, no trailing data, safe integers),
// carrying "round" (a T-<n> string), "turn" (an integer ≥ 0), "phase" (a non-empty string) and,
// when present, "exchange" (an integer ≥ 1); no member may be a case variant of those names or
// of "seat". Every failure is a *games.Error with code bad_request. It never panics, whatever
// the bytes.
func CheckAnswer(raw []byte) (AnswerEcho, error) {
	if _, err := canon.Canonical(raw); err != nil {
		return AnswerEcho{}, badAnswer(canon.Reason(err))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return AnswerEcho{}, badAnswer("the answer is one JSON object")
	}
	for k := range top {
		for _, name := range echoNames {
			if k != name && strings.EqualFold(k, name) {
				return AnswerEcho{}, badAnswer(fmt.Sprintf("member %q: did you mean %q? member names are exact-case", k, name))
			}
		}
	}
	var a AnswerEcho
	if err := echoMember(top, "round", &a.Round, true); err != nil {
		return AnswerEcho{}, err
	}
	if !answerRound.MatchString(a.Round) {
		return AnswerEcho{}, badAnswer(`"round" must be T-<n>, echoed from the envelope`)
	}
	if err := echoMember(top, "turn", &a.Turn, true); err != nil {
		return AnswerEcho{}, err
	}
	if a.Turn < 0 {
		return AnswerEcho{}, badAnswer(`"turn" must not be negative`)
	}
	if err := echoMember(top, "phase", &a.Phase, true); err != nil {
		return AnswerEcho{}, err
	}
	if a.Phase == "" {
		return AnswerEcho{}, badAnswer(`"phase" must not be empty`)
	}
	if err := echoMember(top, "exchange", &a.Exchange, false); err != nil {
		return AnswerEcho{}, err
	}
	if _, ok := top["exchange"]; ok && a.Exchange < 1 {
		return AnswerEcho{}, badAnswer(`"exchange" counts from 1`)
	}
	return a, nil
}

// answerRound is the shape of a round id, T-<n> (§3).
var answerRound = regexp.MustCompile(`^T-[0-9]{1,19}$`)

// echoNames are the members an answer echoes from its envelope. A case variant of one
// ("Turn", "eXchange") is refused: a decoder further in that folds case would read it.
var echoNames = []string{"round", "turn", "phase", "exchange", "seat"}

func badAnswer(msg string) error { return games.Errorf(games.CodeBadRequest, "%s", msg) }

// echoMember decodes top[name] into v (a *string or an *int), refusing null and the wrong JSON
// type.
func echoMember(top map[string]json.RawMessage, name string, v any, required bool) error {
	raw, ok := top[name]
	if !ok {
		if required {
			return badAnswer(fmt.Sprintf("%q is required: echo it from the envelope", name))
		}
		return nil
	}
	if string(raw) == "null" {
		return badAnswer(fmt.Sprintf("%q must not be null", name))
	}
	if _, isInt := v.(*int); isInt && string(raw) == "-0" {
		return badAnswer(fmt.Sprintf("%q must be a %s", name, echoKind(v))) // -0 is no integer's form, as 0.0 is not
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return badAnswer(fmt.Sprintf("%q must be a %s", name, echoKind(v)))
		}
		return badAnswer(fmt.Sprintf("%q is not a valid %s", name, echoKind(v)))
	}
	return nil
}

func echoKind(v any) string {
	switch v.(type) {
	case *string:
		return "string"
	case *int:
		return "whole number"
	}
	return "value"
}
