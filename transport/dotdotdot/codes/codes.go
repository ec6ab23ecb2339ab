// Package codes is the DOTDOTDOT site's answer to a refusal: its code → HTTP status table
// (dotdotdot-protocol-v1.md §12, §13, §4.4) and its {error, code, retry} body. Every DOTDOTDOT
// door's refusals go through it (transport/dotdotdot/site sets it as the site's error handler);
// a door's own tests use ErrorHandler to answer as the site does.
package codes

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

// Codes DOTDOTDOT's doors give themselves, beyond transport/door's (the rest come from the desk
// and the games as *games.Error).
const (
	TokenInURL   = "token_in_url"   // a walk-in token in a query or path (§4.4: only in x-walkin)
	NoToken      = "no_token"       // x-walkin missing on a route that needs it
	UnknownToken = "unknown_token"  // x-walkin names no walk-in
	UnknownName  = "unknown_name"   // no walk-in by that name (§4.4 records by name)
	TooManyPolls = "too_many_polls" // more long polls open at once for one token than allowed
	NotRevealed  = "not_revealed"   // transcript asked before the reveal (§11.4)
)

// statuses is the DOTDOTDOT site's table: every code its doors know and its HTTP status. A code
// not listed is a game's refusal of a well-formed request: 409 (dotdotdotElse), like the levers
// of §12.
var statuses = map[string]int{
	door.CodeBadRequest:   http.StatusBadRequest,
	TokenInURL:            http.StatusBadRequest,
	"agent_id_not_base58": http.StatusBadRequest, // §3: refused at the door (chain/badge codes)
	"bad_agent_id":        http.StatusBadRequest,
	NoToken:               http.StatusUnauthorized,
	UnknownToken:          http.StatusUnauthorized,
	"token_revoked":       http.StatusUnauthorized, // exposed in a URL: its record went to a new token
	door.CodeUnauthorized: http.StatusUnauthorized,
	door.CodeForbidden:    http.StatusForbidden,
	"not_seated":          http.StatusForbidden, // the token holds no seat in that round
	"not_host":            http.StatusForbidden, // §4.5 start by a non-host
	door.CodeTooLarge:     http.StatusRequestEntityTooLarge,
	door.CodeMediaType:    http.StatusUnsupportedMediaType,
	door.CodeNotFound:     http.StatusNotFound,
	door.CodeUnknownRound: http.StatusNotFound,
	door.CodeUnknownTable: http.StatusNotFound,
	UnknownName:           http.StatusNotFound,
	door.CodeMethod:       http.StatusMethodNotAllowed,
	"claimed":             http.StatusGone, // §4.4 a claimed token is spent
	door.CodeBusy:         http.StatusServiceUnavailable,
	TooManyPolls:          http.StatusTooManyRequests,
	door.CodeRateLimited:  http.StatusTooManyRequests,
	door.CodeTableDown:    http.StatusServiceUnavailable,
	"no_registry":         http.StatusServiceUnavailable, // §4.1 an arena with no registry seats nobody
	door.CodeInternal:     http.StatusInternalServerError,

	// 409: the request was well formed but the state refuses it.
	NotRevealed:             http.StatusConflict,
	"stale":                 http.StatusConflict, // §4.4, §13
	"not_yet":               http.StatusConflict, // §4.4 walk-in table before three Practice rounds
	"in_a_round":            http.StatusConflict, // §4.4
	"at_a_hosted_table":     http.StatusConflict, // §4.5
	"is_mole":               http.StatusConflict, // §12 levers
	"lever_spent":           http.StatusConflict,
	"round_over":            http.StatusConflict,
	"ai_speed":              http.StatusConflict,
	"bad_target":            http.StatusConflict,
	"not_now":               http.StatusConflict,
	"refused":               http.StatusConflict,
	"not_in_round":          http.StatusConflict,
	"invalid_signature":     http.StatusUnprocessableEntity, // §13: the body was understood but cannot be made whole
	"bad_seq":               http.StatusUnprocessableEntity,
	"bad_condition":         http.StatusUnprocessableEntity,
	"payee_not_alive":       http.StatusUnprocessableEntity,
	"pair_unmatched":        http.StatusUnprocessableEntity,
	"insufficient_unlocked": http.StatusUnprocessableEntity,
	"insufficient_budget":   http.StatusUnprocessableEntity,
	"too_many_open":         http.StatusUnprocessableEntity,
}

// dotdotdotElse is the DOTDOTDOT status of a code its table does not list.
const dotdotdotElse = http.StatusConflict

// Status is the DOTDOTDOT status of a refusal code: the table above, else 409.
func Status(code string) int { return Dotdotdot.Statuses.Status(code) }

// Dotdotdot is the DOTDOTDOT site's answer to a refusal: its table and {error, code, retry}.
var Dotdotdot = door.Site{Statuses: door.Statuses{Codes: statuses, Else: dotdotdotElse}, Shape: WriteShape}

// Write writes r as a DOTDOTDOT refusal: {error, code, retry} with its status (Status(r.Code)).
func Write(c echo.Context, r *door.Refusal) error { return Dotdotdot.Write(c, r) }

// WriteShape is DOTDOTDOT's refusal body: {error, code, retry} plus r.Extra, never cached; an
// unauthorized refusal names the ops bearer realm.
func WriteShape(c echo.Context, status int, r *door.Refusal) error {
	body := make(map[string]any, 3+len(r.Extra))
	for k, v := range r.Extra {
		body[k] = v
	}
	body["error"] = r.Msg
	body["code"] = r.Code
	body["retry"] = r.Retry
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	if r.Code == door.CodeUnauthorized {
		h.Set("WWW-Authenticate", `Bearer realm="arena ops"`)
	}
	return c.JSON(status, body)
}

// ErrorHandler is the DOTDOTDOT site's HTTPErrorHandler (Dotdotdot.ErrorHandler): each error
// becomes a JSON refusal ({error, code, retry}).
func ErrorHandler(log *slog.Logger) echo.HTTPErrorHandler { return Dotdotdot.ErrorHandler(log) }
