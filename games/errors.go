package games

import "fmt"

// Error is a refusal carrying the protocol's error code (§13 for Blitz, e.g. "stale",
// "bad_condition"). Doors map Code to the wire; Retry says whether the same request could
// succeed later (§12).
type Error struct {
	Code  string
	Msg   string
	Retry bool
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Errorf makes an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Generic codes shared by every game; games add their own.
const (
	CodeStale      = "stale"       // answer for a move not open (§13)
	CodeBadRequest = "bad_request" // malformed body
	CodeNotSeated  = "not_seated"
	CodeRoundOver  = "round_over"
)
