// Package door is what every HTTP door of the arena shares: one refusal type; a site's answer
// to a refusal (Site: its code → HTTP status table and its error body; DOTDOTDOT's, with the
// {error, code, retry} body, is here, the other protocols' sit beside their sites in
// transport/httpapi); strict JSON bodies (games/canon.Decode on the raw bytes, never echo's
// Bind); the body cap; and the guard that refuses a walk-in token anywhere in a URL. Doors
// translate; no rule is decided here.
package door

import "net/http"

// Codes the doors themselves give (the rest come from the desk and the games as *games.Error).
const (
	CodeBadRequest   = "bad_request"            // malformed JSON, unknown member, wrong type, empty body, trailing data, bad query
	CodeTokenInURL   = "token_in_url"           // a walk-in token in a query or path (§4.4: only in x-walkin)
	CodeNoToken      = "no_token"               // x-walkin missing on a route that needs it
	CodeUnknownToken = "unknown_token"          // x-walkin names no walk-in
	CodeUnauthorized = "unauthorized"           // ops: no bearer token
	CodeForbidden    = "forbidden"              // ops: wrong bearer token; a token that is not this seat's
	CodeTooLarge     = "too_large"              // body over the cap
	CodeMediaType    = "unsupported_media_type" // body is not application/json (XML, forms, text)
	CodeNotFound     = "not_found"              // no such route
	CodeMethod       = "method_not_allowed"
	CodeNotRevealed  = "not_revealed" // transcript asked before the reveal (§11.4)
	CodeUnknownRound = "unknown_round"
	CodeUnknownTable = "unknown_table"
	CodeUnknownName  = "unknown_name"
	CodeBusy         = "busy"           // the arena did not answer in time; retry
	CodeTooManyPolls = "too_many_polls" // more long polls open at once for one token than allowed
	CodeTableDown    = "table_down"     // the table is failed or stopped; an operator restarts it
	CodeInternal     = "internal"       // a bug; logged with its stack
)

// statuses is the DOTDOTDOT site's table: every code its doors know and its HTTP status. A code
// not listed is a game's refusal of a well-formed request: 409 (dotdotdotElse), like the levers
// of §12.
var statuses = map[string]int{
	CodeBadRequest:   http.StatusBadRequest,
	CodeTokenInURL:   http.StatusBadRequest,
	CodeNoToken:      http.StatusUnauthorized,
	CodeUnknownToken: http.StatusUnauthorized,
	CodeUnauthorized: http.StatusUnauthorized,
	CodeForbidden:    http.StatusForbidden,
	"not_seated":     http.StatusForbidden, // the token holds no seat in that round
	"not_host":       http.StatusForbidden, // §4.5 start by a non-host
	CodeTooLarge:     http.StatusRequestEntityTooLarge,
	CodeMediaType:    http.StatusUnsupportedMediaType,
	CodeNotFound:     http.StatusNotFound,
	CodeUnknownRound: http.StatusNotFound,
	CodeUnknownTable: http.StatusNotFound,
	CodeUnknownName:  http.StatusNotFound,
	CodeMethod:       http.StatusMethodNotAllowed,
	"claimed":        http.StatusGone, // §4.4 a claimed token is spent
	CodeBusy:         http.StatusServiceUnavailable,
	CodeTooManyPolls: http.StatusTooManyRequests,
	CodeTableDown:    http.StatusServiceUnavailable,
	"no_registry":    http.StatusServiceUnavailable, // §4.1 an arena with no registry seats nobody
	CodeInternal:     http.StatusInternalServerError,

	// 409: the request was well formed but the state refuses it.
	CodeNotRevealed:         http.StatusConflict,
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
