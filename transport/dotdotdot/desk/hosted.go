package desk

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"arena/actors/dotdotdot"
	"arena/transport/door"
)

// Hosted tables over HTTP (dotdotdot-protocol-v1 §4.5 "Hosted tables over HTTP, and the link"),
// mounted by Mount when the Desk also implements Hosted:
//
//	POST /v1/walkin/host    {format?} (x-walkin)  → 201 the table, with code and link
//	POST /v1/walkin/join    {code} (x-walkin)     → the join answer (routes.go; the desk joins by code)
//	POST /v1/walkin/start   (x-walkin, host only) → the table, started, with its round; 403 not_host
//	POST /v1/walkin/leave   (x-walkin)            → {status: "left"}
//	GET  /v1/tables/hosted                        → {tables: [...]} gathering, display names only
//	GET  /v1/tables/hosted/{code}                 → the table: gathering, or started with the round
//	                                                to watch (two hours after the start); 404 unknown_table
//
// start and leave take no body (an empty body, or {}); host takes {} or {"format"}.

// Hosted is the desk's hosted tables (§4.5) over dotdotdot.HostedTable (display names only,
// never a token; the door makes Link and Watch absolute on the request's origin).
// *dotdotdot.Arena implements it. Refusals (*games.Error): at_a_hosted_table (409), not_host (403), unknown_table
// (404), table_started (409), not_at_a_table (409), bad_request, unknown_token, busy.
type Hosted interface {
	// HostTable opens a table with a code; format "blitz" (default) or "short".
	HostTable(ctx context.Context, token, format string, seats int) (dotdotdot.HostedTable, error)
	// StartHosted starts the token's table now (its host only); house seats fill the rest.
	StartHosted(ctx context.Context, token string) (dotdotdot.HostedTable, error)
	// LeaveTable takes the token away from the hosted table it waits at.
	LeaveTable(ctx context.Context, token string) error
	// ListHosted lists the tables gathering, oldest first.
	ListHosted(ctx context.Context) ([]dotdotdot.HostedTable, error)
	// HostedByCode is one table by code (gathering, starting, or started within two hours).
	HostedByCode(ctx context.Context, code string) (dotdotdot.HostedTable, error)
}

type hostBody struct {
	Format string `json:"format,omitempty"`
	Seats  int    `json:"seats,omitempty"` // within the format's (§5.6); 0: its fewest
}

type emptyBody struct{}

// mountHosted adds the hosted routes when the desk serves hosted tables.
func mountHosted(e *echo.Echo, h *handlers) {
	hd, ok := h.d.(Hosted)
	if !ok {
		return
	}
	hh := &hostedHandlers{handlers: h, hd: hd}
	e.POST("/v1/walkin/host", hh.host)
	e.POST("/v1/walkin/start", hh.start)
	e.POST("/v1/walkin/leave", hh.leave)
	e.GET("/v1/tables/hosted", hh.list)
	e.GET("/v1/tables/hosted/:code", hh.byCode)
}

type hostedHandlers struct {
	*handlers
	hd Hosted
}

// origin is the site the links name: Options.Site when set, else the site as the client
// reached it (X-Forwarded-Proto honoured for the scheme; the Host is the client's word).
func origin(c echo.Context, site string) string {
	if site != "" {
		return strings.TrimRight(site, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

// absolute makes a table's links absolute on origin(c, site).
func absolute(c echo.Context, site string, t dotdotdot.HostedTable) dotdotdot.HostedTable {
	o := origin(c, site)
	if t.Link == "" {
		t.Link = "/t/" + t.Code
	}
	t.Link = o + t.Link
	if t.Round != "" {
		t.Watch = o + "/r/" + t.Round
	}
	if t.Players == nil {
		t.Players = []string{}
	}
	return t
}

// optionalBody decodes a body that may be absent (no bytes, or white space) into v strictly.
func (h *hostedHandlers) optionalBody(c echo.Context, v any) error {
	req := c.Request()
	if req.Body == nil {
		return nil
	}
	max := h.opts.MaxBody
	if max <= 0 {
		max = door.DefaultMaxBody
	}
	raw, err := io.ReadAll(io.LimitReader(req.Body, max+1))
	if err != nil {
		return door.Refuse(door.CodeBadRequest, "body could not be read")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	req.ContentLength = int64(len(raw))
	return door.Decode(c, h.opts.MaxBody, v)
}

func (h *hostedHandlers) host(c echo.Context) error {
	tok, err := walkinRequest(c)
	if err != nil {
		return err
	}
	var b hostBody
	if err := h.optionalBody(c, &b); err != nil {
		return err
	}
	if err := h.opts.Tables.Allow(door.ClientAddr(c.Request(), h.opts.Forwarded)); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	t, err := h.hd.HostTable(ctx, tok, b.Format, b.Seats)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, absolute(c, h.opts.Site, t))
}

func (h *hostedHandlers) start(c echo.Context) error {
	return h.bodiless(c, func(ctx context.Context, tok string) (any, error) {
		t, err := h.hd.StartHosted(ctx, tok)
		return absolute(c, h.opts.Site, t), err
	})
}

func (h *hostedHandlers) leave(c echo.Context) error {
	return h.bodiless(c, func(ctx context.Context, tok string) (any, error) {
		return map[string]string{"status": "left"}, h.hd.LeaveTable(ctx, tok)
	})
}

// bodiless serves a walk-in call that takes no body (none, or an empty object): the token, then
// call with the request's deadline; its value is sent as 200, its error as the refusal.
func (h *hostedHandlers) bodiless(c echo.Context, call func(ctx context.Context, tok string) (any, error)) error {
	tok, err := walkinRequest(c)
	if err != nil {
		return err
	}
	if err := h.optionalBody(c, &emptyBody{}); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	v, err := call(ctx, tok)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, v)
}

func (h *hostedHandlers) list(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	ctx, cancel := h.call(c)
	defer cancel()
	ts, err := h.hd.ListHosted(ctx)
	if err != nil {
		return err
	}
	out := make([]dotdotdot.HostedTable, 0, len(ts))
	for _, t := range ts {
		out = append(out, absolute(c, h.opts.Site, t))
	}
	return sendJSON(c, http.StatusOK, map[string]any{"tables": out})
}

func (h *hostedHandlers) byCode(c echo.Context) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	code := c.Param("code")
	if len(code) > 16 {
		return door.Refuse(door.CodeUnknownTable, "no hosted table with that code")
	}
	ctx, cancel := h.call(c)
	defer cancel()
	t, err := h.hd.HostedByCode(ctx, code)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, absolute(c, h.opts.Site, t))
}
