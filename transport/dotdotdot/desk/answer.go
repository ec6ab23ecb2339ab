package desk

import (
	"errors"

	"arena/actors/dotdotdot"
	"arena/games"
	"arena/transport/door"
)

// AnswerEcho is the part of a walk-in answer the door checks (§4.4): the move it answers.
type AnswerEcho = dotdotdot.AnswerEcho

// DecodeAnswer checks a raw answer body with dotdotdot.CheckAnswer, the strict reader the A2A
// channel runs on an agent's answer too (so both doors refuse the same bytes the same way): one
// JSON object passing canon's raw checks, echoing "round", "turn", "phase" and, when present,
// "exchange". Every failure is a *door.Refusal with code bad_request. It never panics,
// whatever the bytes.
func DecodeAnswer(raw []byte) (AnswerEcho, error) {
	a, err := dotdotdot.CheckAnswer(raw)
	if err != nil {
		var ge *games.Error
		if errors.As(err, &ge) {
			return AnswerEcho{}, door.Refuse(ge.Code, ge.Msg)
		}
		return AnswerEcho{}, door.Refuse(door.CodeBadRequest, "the answer is one JSON object")
	}
	return a, nil
}
