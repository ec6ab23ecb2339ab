// Package warden is the Warden's site (warden-rulebook.md, warden-games.md): its code → HTTP
// status table, its error body and, as they are built, its doors.
package warden

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
	"arena/transport/httpapi"
)

// Statuses is the Warden site's code → HTTP status table (warden-games.md §7.3 and
// §10.10): 400 malformed input, 401/403 identity, 404 unknown ids, 409 state conflicts, 422 rule
// violations, 429 rate_limited; the payment codes of §10.10 (402 for every refused payment,
// 400 for an undecodable one, 503 when the facilitator cannot be reached). A code the table
// does not list is malformed input: 400. not_found, method_not_allowed, too_large,
// unsupported_media_type, busy and internal are the doors' own codes (transport/door).
var Statuses = door.Statuses{Else: http.StatusBadRequest, Codes: map[string]int{
	// §7.3
	"bad_request":         http.StatusBadRequest,
	"bad_stake":           http.StatusBadRequest,
	"unknown_temperament": http.StatusBadRequest, // a temperament outside the closed list (§14)
	"unauthorized":        http.StatusUnauthorized,
	"challenge_expired":   http.StatusUnauthorized,
	"bad_signature":       http.StatusUnauthorized,
	"forbidden":           http.StatusForbidden,
	"not_seated":          http.StatusForbidden,
	"unknown_game":        http.StatusNotFound,
	"unknown_match":       http.StatusNotFound,
	"wrong_state":         http.StatusConflict,
	"wrong_step":          http.StatusConflict,
	"stale_round":         http.StatusConflict,
	"already_acted":       http.StatusConflict,
	"already_staked":      http.StatusConflict,
	"match_full":          http.StatusConflict,
	"already_queued":      http.StatusConflict,
	"too_many_matches":    http.StatusConflict,
	"self_match":          http.StatusConflict,
	"stake_window_closed": http.StatusConflict,
	"illegal_action":      http.StatusUnprocessableEntity,
	"bad_args":            http.StatusUnprocessableEntity,
	"ask_above_valuation": http.StatusUnprocessableEntity,
	"message_too_long":    http.StatusUnprocessableEntity,
	"rate_limited":        http.StatusTooManyRequests,

	// §10.10: payments.
	"payment_required":                                     http.StatusPaymentRequired,
	"bad_payment":                                          http.StatusBadRequest,
	"invalid_payload":                                      http.StatusBadRequest,
	"invalid_x402_version":                                 http.StatusPaymentRequired,
	"invalid_payment_requirements":                         http.StatusPaymentRequired,
	"invalid_network":                                      http.StatusPaymentRequired,
	"invalid_scheme":                                       http.StatusPaymentRequired,
	"insufficient_funds":                                   http.StatusPaymentRequired,
	"payer_mismatch":                                       http.StatusPaymentRequired,
	"payment_replayed":                                     http.StatusPaymentRequired,
	"payer_suspended":                                      http.StatusPaymentRequired,
	"invalid_exact_evm_payload_signature":                  http.StatusPaymentRequired,
	"invalid_exact_evm_payload_recipient_mismatch":         http.StatusPaymentRequired,
	"invalid_exact_evm_payload_authorization_value":        http.StatusPaymentRequired,
	"invalid_exact_evm_payload_authorization_valid_after":  http.StatusPaymentRequired,
	"invalid_exact_evm_payload_authorization_valid_before": http.StatusPaymentRequired,
	"settlement_failed":                                    http.StatusPaymentRequired, // the chain refused or reverted the transfer
	"facilitator_unavailable":                              http.StatusServiceUnavailable,

	door.CodeNotFound:  http.StatusNotFound,
	door.CodeMethod:    http.StatusMethodNotAllowed,
	door.CodeTooLarge:  http.StatusRequestEntityTooLarge, // §7: bodies up to 8 KB
	door.CodeMediaType: http.StatusUnsupportedMediaType,
	door.CodeBusy:      http.StatusServiceUnavailable,
	door.CodeInternal:  http.StatusInternalServerError,
}}

// Shape writes a refusal as the Warden's error body (§7): {v:1, error:<code>, detail},
// plus r.Extra where it names no fixed member.
func Shape(c echo.Context, status int, r *door.Refusal) error {
	body := make(map[string]any, 3+len(r.Extra))
	for k, v := range r.Extra {
		body[k] = v
	}
	body["v"] = 1
	body["error"] = r.Code
	body["detail"] = r.Msg
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, body)
}

// Answer is how the Warden site answers a refusal.
var Answer = door.Site{Statuses: Statuses, Shape: Shape}

// Site is the Warden site as transport/httpapi builds it: where it is reached (Place, from config)
// and what it serves: its Doors (nil: none, the global routes only), its Ledger Reads (nil: none),
// its Gallery (nil: none), its metered MCP door (nil: none, and with it the REST catalog) and its
// operator routes (Admin, nil: none), every other path answered with
// the Warden's not_found error (404).
type Site struct {
	httpapi.Place
	Doors   *Doors
	Reads   *Reads
	Gallery *Gallery
	MCP     *MCP
	Admin   *Admin // the operator routes (nil: none)
}

// Name is "warden".
func (Site) Name() string { return "warden" }

// Answer is the site's refusal table and body.
func (Site) Answer() door.Site { return Answer }

// Mount mounts the site's doors on e.
func (s Site) Mount(e *echo.Echo) error {
	if s.Doors != nil {
		s.Doors.mount(e)
	}
	if s.Reads != nil {
		s.Reads.mount(e)
	}
	if s.Gallery != nil {
		s.Gallery.mount(e)
	}
	if s.Admin != nil {
		s.Admin.mount(e)
	}
	if s.MCP != nil {
		return s.MCP.mount(e)
	}
	return nil
}
