// Package market is the Game Master market's site (game-master-protocol-v2.md): its code → HTTP
// status table, its response envelope for a refusal, its doors (POST /v2/request and an A2A
// endpoint, each in front of one Seam) and its operator routes (keys, the Admin projection).
package market

import (
	"net/http"

	"github.com/labstack/echo/v4"

	gm "arena/games/market"
	"arena/transport/door"
	"arena/transport/httpapi"
)

// Statuses is the Game Master market site's code → HTTP status table. The protocol
// (game-master-protocol-v2.md, "Response" and "Errors") names no HTTP status: every answer to a
// command is its envelope, {protocolVersion:2, ok:false, …, error:{code, message}} for a
// refusal, and a replayed command returns its stored response byte for byte. So a refusal the
// protocol names ("Errors", listed here) is 200 with ok:false, except authentication_required
// (401, no authenticated caller); what the protocol never reaches (no such route, a wrong method
// or media type, a body over the cap, a rate limit, an ops token, busy, a bug) keeps its HTTP
// status. A code not listed is a bug, never a success: 500 (Else).
var Statuses = door.Statuses{Else: http.StatusInternalServerError, Codes: map[string]int{
	"authentication_required": http.StatusUnauthorized,

	// The protocol's refusals: 200 with ok:false.
	"malformed_request":            http.StatusOK,
	"unsupported_protocol_version": http.StatusOK,
	"not_enrolled":                 http.StatusOK,
	"unknown_player":               http.StatusOK,
	"invalid_trading_name":         http.StatusOK,
	"not_a_party":                  http.StatusOK,
	"not_your_turn":                http.StatusOK,
	"self_dealing":                 http.StatusOK,
	"terms_mismatch":               http.StatusOK,
	"unknown_asset":                http.StatusOK,
	"unknown_exchange":             http.StatusOK,
	"stale_exchange_version":       http.StatusOK,
	"exchange_not_open":            http.StatusOK,
	"insufficient_available":       http.StatusOK,
	"command_id_reuse":             http.StatusOK,

	door.CodeRateLimited:  http.StatusTooManyRequests,
	door.CodeUnauthorized: http.StatusUnauthorized,
	door.CodeForbidden:    http.StatusForbidden,

	door.CodeNotFound:   http.StatusNotFound,
	door.CodeMethod:     http.StatusMethodNotAllowed,
	door.CodeTooLarge:   http.StatusRequestEntityTooLarge,
	door.CodeMediaType:  http.StatusUnsupportedMediaType,
	door.CodeBadRequest: http.StatusBadRequest,
	door.CodeBusy:       http.StatusServiceUnavailable,
	door.CodeInternal:   http.StatusInternalServerError,
}}

// shapeAt writes a refusal as the market's response envelope, byte for byte as the reducer
// writes its own (games/market RefusalEnvelope: protocolVersion, ok, stateVersion, error{code,
// message}, in the protocol's order), at the State Version version gives (nil: 0, a site with
// no market behind it). Every refusal the site answers outside the doors (no such route, a
// wrong method, a Content-Type that is not JSON, a panic) takes this shape.
func shapeAt(version func() uint64) door.Shape {
	return func(c echo.Context, status int, r *door.Refusal) error {
		var v uint64
		if version != nil {
			v = version()
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Blob(status, echo.MIMEApplicationJSON, gm.RefusalEnvelope(v, r.Code, r.Msg))
	}
}

// Answer is how a Game Master market site with no market behind it answers a refusal
// (stateVersion 0); Site.Answer gives the one of a site with its Doors.
var Answer = door.Site{Statuses: Statuses, Shape: shapeAt(nil)}

// Site is the Game Master market site as transport/httpapi builds it: where it is reached (Place,
// from config) and what it serves: its Doors (nil: none, the global routes only), every other
// path answered with the market's envelope carrying not_found (404).
type Site struct {
	httpapi.Place
	Doors *Doors
}

// Name is "market".
func (Site) Name() string { return "market" }

// Answer is the site's refusal table and body: the market's envelope at its current durable
// State Version when the site has its Doors.
func (s Site) Answer() door.Site {
	if s.Doors == nil || s.Doors.Seam == nil {
		return Answer
	}
	return door.Site{Statuses: Statuses, Shape: shapeAt(s.Doors.Seam.Version)}
}

// Mount mounts the site's doors on e.
func (s Site) Mount(e *echo.Echo) error {
	if s.Doors != nil {
		s.Doors.mount(e)
	}
	return nil
}
