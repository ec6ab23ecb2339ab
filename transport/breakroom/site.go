// Package breakroom is the Break Room site (breakroom-protocol-v0.md): its code → HTTP status
// table, its error body and, as they are built, its doors.
package breakroom

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/httpapi"
)

// Statuses is the Break Room site's code → HTTP status table (breakroom-protocol-v0.md,
// "Error codes" and "HTTP fallback"). The spec fixes a few statuses: a refused move is 400, a
// paid join 402 (payment_required, not_paid), leaving the queue once seated 409
// already_playing, a spectator's not_live 404, rate_limited 429, busy 503. The rest follow the
// same reading: identity 401/403, unknown ids 404, a conflict with the key's queue or match
// 409. A code the table does not list is a refused request: 400, like a move. not_found,
// method_not_allowed, too_large, unsupported_media_type and internal are the doors' own codes
// (transport/door), which the spec leaves unnamed.
var Statuses = door.Statuses{Else: http.StatusBadRequest, Codes: map[string]int{
	"bad_request":     http.StatusBadRequest,
	"bad_version":     http.StatusBadRequest,
	"auth_failed":     http.StatusUnauthorized, // the join's signature or nonce does not check out
	"unauthorized":    http.StatusUnauthorized, // HTTP only: no or unknown bearer token
	"forbidden":       http.StatusForbidden,    // ops: a wrong operator token (transport/door)
	"already_joined":  http.StatusConflict,
	"not_joined":      http.StatusConflict,
	"unknown_game":    http.StatusNotFound,
	"already_queued":  http.StatusConflict,
	"already_playing": http.StatusConflict, // spec: DELETE /v0/join/{token} once seated
	"unknown_match":   http.StatusNotFound,
	"not_seated":      http.StatusForbidden,

	// A refused move: "{ok:true} or an error (HTTP 400)". Errors never consume the turn.
	"not_your_turn": http.StatusBadRequest,
	"stale_turn":    http.StatusBadRequest,
	"illegal_move":  http.StatusBadRequest,
	"bad_amount":    http.StatusBadRequest,
	"bad_message":   http.StatusBadRequest,
	"match_over":    http.StatusBadRequest,

	"rate_limited": http.StatusTooManyRequests,

	// Handles (NIP-05).
	"not_eligible":       http.StatusForbidden, // fewer than 10 completed matches
	"handle_invalid":     http.StatusBadRequest,
	"handle_reserved":    http.StatusConflict,
	"handle_taken":       http.StatusConflict,
	"already_has_handle": http.StatusConflict,

	// Paid tables: the join answers 402 with the payment_required body until paid.
	"payment_required":   http.StatusPaymentRequired,
	"not_paid":           http.StatusPaymentRequired,
	"payments_disabled":  http.StatusForbidden,
	"bad_stake":          http.StatusBadRequest,
	"escrow_full":        http.StatusServiceUnavailable,
	"unknown_payment":    http.StatusNotFound,
	"payment_expired":    http.StatusGone,
	"bad_payout_address": http.StatusBadRequest,
	"wallet_error":       http.StatusBadGateway,

	// Spectators: /r/{match_id}/live.
	"not_live": http.StatusNotFound,
	"busy":     http.StatusServiceUnavailable,

	// Feedback.
	"match_running":   http.StatusConflict,
	"feedback_closed": http.StatusGone,

	door.CodeNotFound:  http.StatusNotFound,
	door.CodeMethod:    http.StatusMethodNotAllowed,
	door.CodeTooLarge:  http.StatusRequestEntityTooLarge,
	door.CodeMediaType: http.StatusUnsupportedMediaType,
	door.CodeInternal:  http.StatusInternalServerError,
}}

// Shape writes a refusal as Break Room's error message: {type:"error", v:0, code,
// detail}, plus r.Extra (a move's match_id) where it names no fixed member.
func Shape(c echo.Context, status int, r *door.Refusal) error {
	body := make(map[string]any, 4+len(r.Extra))
	for k, v := range r.Extra {
		body[k] = v
	}
	body["type"] = "error"
	body["v"] = 0
	body["code"] = r.Code
	body["detail"] = r.Msg
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, body)
}

// Answer is how the Break Room site answers a refusal.
var Answer = door.Site{Statuses: Statuses, Shape: Shape}

// Site is the Break Room site as transport/httpapi builds it: where it is reached (Place, from
// config) and what it serves: the global routes, its Doors' routes (transport/breakroom/play:
// /v0/play, the HTTP fallback, /v0/games), and Break Room's not_found error (404) on every other
// path.
type Site struct {
	httpapi.Place
	// Doors mounts the playing doors (a *play.Door); nil serves none. It is an interface so that
	// this package, which the doors' own packages import for its refusal table, imports none of them.
	Doors interface{ Mount(*echo.Echo) error }
}

// Name is "breakroom".
func (Site) Name() string { return "breakroom" }

// Answer is the site's refusal table and body.
func (Site) Answer() door.Site { return Answer }

// Mount mounts the site's doors on e.
func (s Site) Mount(e *echo.Echo) error {
	if s.Doors == nil {
		return nil
	}
	return s.Doors.Mount(e)
}
