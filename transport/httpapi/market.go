package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

// marketStatuses is the Game Master market site's code → HTTP status table. The protocol
// (game-master-protocol-v2.md, "Response" and "Errors") names no HTTP status: every answer to a
// command is its envelope, {protocolVersion:2, ok:false, …, error:{code, message}} for a
// refusal, and a replayed command returns its stored response byte for byte. So a refusal the
// protocol names is 200 with ok:false (Else), except authentication_required (401, no
// authenticated caller); what the protocol never reaches (no such route, a wrong method or
// media type, a body over the cap, busy, a bug) keeps its HTTP status.
var marketStatuses = door.Statuses{Else: http.StatusOK, Codes: map[string]int{
	"authentication_required": http.StatusUnauthorized,

	door.CodeNotFound:   http.StatusNotFound,
	door.CodeMethod:     http.StatusMethodNotAllowed,
	door.CodeTooLarge:   http.StatusRequestEntityTooLarge,
	door.CodeMediaType:  http.StatusUnsupportedMediaType,
	door.CodeBadRequest: http.StatusBadRequest,
	door.CodeBusy:       http.StatusServiceUnavailable,
	door.CodeInternal:   http.StatusInternalServerError,
}}

// marketShape writes a refusal as the market's response envelope: {protocolVersion:2, ok:false,
// stateVersion, error:{code, message}}. stateVersion is r.Extra["stateVersion"] when the
// refusal carries it, else 0 (a refusal outside the market, e.g. no such route, knows no state).
func marketShape(c echo.Context, status int, r *door.Refusal) error {
	sv := any(0)
	if v, ok := r.Extra["stateVersion"]; ok {
		sv = v
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, map[string]any{
		"protocolVersion": 2,
		"ok":              false,
		"stateVersion":    sv,
		"error":           map[string]any{"code": r.Code, "message": r.Msg},
	})
}

// Market is how the Game Master market site answers a refusal.
var Market = door.Site{Statuses: marketStatuses, Shape: marketShape}

// NewMarket returns the Game Master market site. Its command endpoint is not built yet: it
// serves the global routes and answers every other path with the market's envelope carrying
// not_found (404).
func NewMarket(g Global) (*echo.Echo, error) {
	return newSite(Market, g, false)
}
