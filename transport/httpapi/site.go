package httpapi

import (
	"errors"
	"log/slog"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"arena/transport/door"
	"arena/transport/meta"
)

// Global is what every site serves beside its own routes, and what it shares with the others.
type Global struct {
	// Meta serves the global routes /healthz and /metrics (meta.MountGlobal); the DOTDOTDOT
	// site also serves its instance card from it.
	Meta meta.Options
	// Metrics, when set, receives arena_http_requests_total{route,code}, one counter for every
	// site (registered once, whichever site is built first).
	Metrics prometheus.Registerer
	// Logger receives access lines (debug) and internal errors; nil discards.
	Logger *slog.Logger
}

// newSite returns a site's echo instance: refusals (echo's own 404 and 405 included) answered
// by answer, the access log, the request counter, panic recovery and the global routes.
// guard puts DOTDOTDOT's token-in-URL guard (§4.4) in front of routing.
func newSite(answer door.Site, g Global, guard bool) (*echo.Echo, error) {
	log := g.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = answer.ErrorHandler(log)
	if guard {
		e.Pre(door.TokenGuard())
	}
	e.Use(door.AccessLog(log))
	if g.Metrics != nil {
		reqs, err := requestCounter(g.Metrics)
		if err != nil {
			return nil, err
		}
		e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
			return func(c echo.Context) error {
				err := next(c)
				if err != nil {
					c.Error(err)
				}
				reqs.WithLabelValues(c.Path(), strconv.Itoa(c.Response().Status)).Inc()
				return nil
			}
		})
	}
	e.Use(door.Recover(log))
	meta.MountGlobal(e, g.Meta)
	return e, nil
}

// requestCounter registers arena_http_requests_total on reg, or returns the one a site built
// before registered there.
func requestCounter(reg prometheus.Registerer) (*prometheus.CounterVec, error) {
	reqs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "arena_http_requests_total",
		Help: "HTTP requests answered, by route pattern and status code.",
	}, []string{"route", "code"})
	if err := reg.Register(reqs); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if have, ok := are.ExistingCollector.(*prometheus.CounterVec); ok {
				return have, nil
			}
		}
		return nil, err
	}
	return reqs, nil
}
