package door

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"arena/actors"
	"arena/games"
)

// Refusal is a door's refusal of a request: its code, message, retry and Extra members (e.g.
// not_yet's "practice" count). Each site writes it in its protocol's shape (DOTDOTDOT's
// {error, code, retry}, transport/dotdotdot/codes); Extra never overrides a shape's fixed members.
type Refusal struct {
	Code  string
	Msg   string
	Retry bool
	Extra map[string]any
	// RetryAfter, when positive, is written as the Retry-After header (whole seconds, rounded
	// up) by Site.Write: how long a rate_limited caller waits.
	RetryAfter time.Duration
}

func (r *Refusal) Error() string { return r.Code + ": " + r.Msg }

// Refuse makes a *Refusal with no extra members.
func Refuse(code, msg string) *Refusal { return &Refusal{Code: code, Msg: msg} }

// Detailer is implemented by desk errors that carry members beyond {error, code, retry}; the
// doors copy them into the body.
type Detailer interface {
	Details() map[string]any
}

// AsRefusal turns err into the refusal written on the wire, the one mapping every door uses: a
// *Refusal as is; a *games.Error with its code, message and retry (and Details when the error
// has them); the actor tree's sentinels (actors.ErrNoTable ...) with their protocol codes; a
// context deadline as busy (retry); anything else as internal. ok is false for internal
// errors, which the caller should log: their text is not sent.
func AsRefusal(err error) (r *Refusal, ok bool) {
	var ref *Refusal
	if errors.As(err, &ref) {
		return ref, true
	}
	var ge *games.Error
	if errors.As(err, &ge) {
		r = &Refusal{Code: ge.Code, Msg: ge.Msg, Retry: ge.Retry}
		if r.Msg == "" {
			r.Msg = ge.Code
		}
		var d Detailer
		if errors.As(err, &d) {
			r.Extra = d.Details()
		}
		return r, true
	}
	if r := arenaRefusal(err); r != nil {
		return r, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Refusal{Code: CodeBusy, Msg: "the arena did not answer in time", Retry: true}, true
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return Refuse(CodeNotFound, "no such route"), true
		case http.StatusMethodNotAllowed:
			return Refuse(CodeMethod, "method not allowed on this route"), true
		case http.StatusRequestEntityTooLarge:
			return Refuse(CodeTooLarge, "body too large"), true
		case http.StatusUnsupportedMediaType:
			return Refuse(CodeMediaType, "body must be application/json"), true
		case http.StatusUnauthorized:
			return Refuse(CodeUnauthorized, "authorization required"), true
		}
		if he.Code >= 400 && he.Code < 500 {
			return Refuse(CodeBadRequest, http.StatusText(he.Code)), true
		}
	}
	return &Refusal{Code: CodeInternal, Msg: "internal error"}, false
}

// arenaRefusal is the refusal of one of the actor tree's sentinel errors (actors/errors.go),
// nil for any other error.
func arenaRefusal(err error) *Refusal {
	switch {
	case errors.Is(err, actors.ErrNoTable):
		return Refuse(CodeUnknownTable, "no such table")
	case errors.Is(err, actors.ErrNoRound):
		return Refuse(CodeUnknownRound, "no such round")
	case errors.Is(err, actors.ErrTableDown):
		return &Refusal{Code: CodeTableDown, Msg: "the table is not running (failed or stopped); an operator can restart it", Retry: true}
	case errors.Is(err, actors.ErrTimeout):
		return &Refusal{Code: CodeBusy, Msg: "the arena did not answer in time", Retry: true}
	case errors.Is(err, actors.ErrClosed):
		return &Refusal{Code: CodeBusy, Msg: "the arena is shutting down", Retry: true}
	case errors.Is(err, actors.ErrBadSpec):
		// the reason, without the package's prefix (an operator or a client reads it)
		return Refuse("refused", strings.TrimPrefix(err.Error(), actors.ErrBadSpec.Error()+": "))
	}
	return nil
}
