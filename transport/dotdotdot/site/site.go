// Package site assembles the DOTDOTDOT site (dotdotdot-protocol-v1.md): the token-in-URL guard
// (§4.4) in front of routing, refusals as {error, code, retry} with DOTDOTDOT's status table
// (transport/dotdotdot/codes), and the desk, join, chat seat, ops, instance card and pages
// doors. transport/httpapi builds it through its Site interface; cmd/arena wires it.
package site

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"arena/transport/door"
	"arena/transport/dotdotdot/chatseat"
	"arena/transport/dotdotdot/codes"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/feedback"
	"arena/transport/dotdotdot/join"
	"arena/transport/dotdotdot/pages"
	"arena/transport/dotdotdot/walkin"
	"arena/transport/httpapi"
	"arena/transport/meta"
	"arena/transport/ops"
)

// Options are the doors to mount. A nil Desk or Ops leaves those routes out (404).
type Options struct {
	Desk        desk.Desk
	DeskOptions desk.Options
	Ops         ops.Tables
	OpsOptions  ops.Options
	Meta        meta.Options
	// Join, when set, mounts the registered agents' door (POST /v1/join, sessions, the owner's
	// levers beside the desk's x-walkin ones, paid checks), after the desk.
	Join *join.Options
	// Pages, when set, mounts the pages people open (/, /t/{code}, /r/{round}, the round's
	// public SSE feed, /protocol/v1, /skill.md; transport/dotdotdot/pages).
	Pages *pages.Options
	// Chat, when set, mounts the MCP chat seat (§4.5) at /mcp (transport/dotdotdot/chatseat).
	Chat *chatseat.Options
	// Feedback, when set, mounts the scouting notice's link (§5.2: GET and POST /v1/feedback)
	// and the operators' GET /ops/feedback (transport/dotdotdot/feedback).
	Feedback *feedback.Options
	// LentCard, when set, serves the card of a table's lent seat at
	// /.well-known/lent/{table}/{seat}.json (the agent_uri its minted Badge names, §15
	// badge.minted): the bytes as given (their SHA-256 is the registry's metadata_hash), or 404.
	LentCard func(table string, seat int) ([]byte, bool)
	// Metrics, when set, receives arena_http_requests_total{route,code} (New only; under
	// httpapi.Assemble the Global's registerer counts).
	Metrics prometheus.Registerer
	// Logger receives access lines (debug) and internal errors; nil discards (New only, as
	// Metrics).
	Logger *slog.Logger
}

// Site is the DOTDOTDOT site as transport/httpapi builds it: where it is reached (Place, from
// config) and its doors (Options).
type Site struct {
	httpapi.Place
	Options
}

// Name is "dotdotdot".
func (Site) Name() string { return "dotdotdot" }

// Answer is DOTDOTDOT's refusal table and {error, code, retry} body.
func (Site) Answer() door.Site { return codes.Dotdotdot }

// Mount puts the token-in-URL guard (walkin.Guard, §4.4) and then the one-value-per-parameter
// guard (door.UniqueQuery) in front of routing and mounts the doors Options names, in this
// order: desk, join, ops, the instance card, pages, chat seat, feedback.
func (s Site) Mount(e *echo.Echo) error {
	o := s.Options
	// A desk that can revoke an exposed token (*dotdotdot.Arena) has the guard hand its record
	// to a fresh token; otherwise the guard only refuses.
	ex, _ := o.Desk.(walkin.Exposer)
	e.Pre(mcpShaped(walkin.Guard(ex), o.Chat != nil), door.UniqueQuery())
	if o.Desk != nil {
		desk.Mount(e, o.Desk, o.DeskOptions)
	}
	if o.Join != nil {
		join.Mount(e, *o.Join)
	}
	if o.Ops != nil {
		ops.Mount(e, o.Ops, o.OpsOptions)
		if sc, ok := o.Desk.(Showcaser); ok {
			mountShowcase(e, sc, o.OpsOptions)
		}
		if sh, ok := o.Desk.(Shower); ok {
			mountShowings(e, sh, o.OpsOptions)
		}
	}
	meta.MountCard(e, o.Meta)
	if o.LentCard != nil {
		mountLentCards(e, o.LentCard)
	}
	if o.Pages != nil {
		if err := pages.Mount(e, *o.Pages); err != nil {
			return err
		}
	}
	if o.Chat != nil {
		if err := chatseat.Mount(e, *o.Chat); err != nil {
			return err
		}
	}
	if o.Feedback != nil {
		feedback.Mount(e, *o.Feedback)
	}
	return nil
}

// mountLentCards serves GET /.well-known/lent/{table}/{seat}.json: a lent seat's card byte for
// byte, or 404 not_found for a table or seat with none.
func mountLentCards(e *echo.Echo, card func(table string, seat int) ([]byte, bool)) {
	e.GET("/.well-known/lent/:table/:file", func(c echo.Context) error {
		n, ok := strings.CutSuffix(c.Param("file"), ".json")
		seat, err := strconv.Atoi(n)
		if ok && err == nil && seat > 0 && strconv.Itoa(seat) == n {
			if b, found := card(c.Param("table"), seat); found {
				c.Response().Header().Set("Cache-Control", "public, max-age=60")
				return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
			}
		}
		return door.Refuse(door.CodeNotFound, "no lent Badge card at this address")
	})
}

// mcpShaped has the token-in-URL refusal of a request to the chat seat (chatseat.Path) written
// as JSON-RPC (chatseat.WriteTokenInURL), the one body an MCP client reads, when the chat seat is
// mounted; every other refusal and route keeps the site's shape.
func mcpShaped(guard echo.MiddlewareFunc, chat bool) echo.MiddlewareFunc {
	if !chat {
		return guard
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := guard(next)
		return func(c echo.Context) error {
			err := h(c)
			if err == nil || c.Request().URL.Path != chatseat.Path || c.Response().Committed {
				return err
			}
			r, ok := door.AsRefusal(err)
			if !ok || r.Code != codes.TokenInURL {
				return err
			}
			fresh, _ := r.Extra["token"].(string)
			chatseat.WriteTokenInURL(c.Response(), fresh)
			return nil
		}
	}
}

// New returns the DOTDOTDOT site alone, its global routes served from o.Meta, o.Metrics and
// o.Logger: what a test or a single-site server needs.
func New(o Options) (*echo.Echo, error) {
	return httpapi.Build(Site{Options: o}, httpapi.Global{Meta: o.Meta, Metrics: o.Metrics, Logger: o.Logger})
}
