// Package httpapi assembles the HTTP server of `arena serve`: one site per protocol (DOTDOTDOT,
// Break Room, the Warden, the Game Master market), each an echo instance with the shared
// middleware (panic recovery, access log, request counter), its own refusal shape and code →
// status table, the global routes /healthz and /metrics, and its protocol's doors; a Router
// picks the site by Host, an unmatched Host getting DOTDOTDOT. The DOTDOTDOT site (New) puts
// the token-in-URL guard in front and mounts the desk, join, ops, meta and pages doors. No echo
// Timeout middleware is used anywhere: it would turn a long poll's late write into an HTML 503
// and lose what the poll took.
package httpapi

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"arena/transport/door"
	"arena/transport/dotdotdot/desk"
	"arena/transport/dotdotdot/join"
	"arena/transport/dotdotdot/pages"
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
	// Metrics, when set, receives arena_http_requests_total{route,code}.
	Metrics prometheus.Registerer
	// Logger receives access lines (debug) and internal errors; nil discards.
	Logger *slog.Logger
}

// New returns the DOTDOTDOT site: every DOTDOTDOT door behind the token-in-URL guard, refusals
// as {error, code, retry} with DOTDOTDOT's status table (door.Dotdotdot), the instance card and
// the global routes.
func New(o Options) (*echo.Echo, error) {
	e, err := newSite(door.Dotdotdot, Global{Meta: o.Meta, Metrics: o.Metrics, Logger: o.Logger}, true)
	if err != nil {
		return nil, err
	}
	if o.Desk != nil {
		desk.Mount(e, o.Desk, o.DeskOptions)
	}
	if o.Join != nil {
		join.Mount(e, *o.Join)
	}
	if o.Ops != nil {
		ops.Mount(e, o.Ops, o.OpsOptions)
	}
	meta.MountCard(e, o.Meta)
	if o.Pages != nil {
		if err := pages.Mount(e, *o.Pages); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Server wraps h in an http.Server with the timeouts a long poll allows: headers within 10 s,
// no write timeout shorter than the longest poll (30 s) plus margin, idle keep-alives 2 min.
func Server(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      75 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
	}
}
