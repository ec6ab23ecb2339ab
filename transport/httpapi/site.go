package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
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

// Site is one protocol's HTTP face as httpapi knows it. Each protocol's folder implements it
// (transport/dotdotdot/site, transport/breakroom, transport/warden, transport/market); httpapi
// never imports them.
type Site interface {
	// Name names the site in errors and logs ("dotdotdot", "breakroom", "warden", "market").
	Name() string
	// Hosts are the Host names that select the site (Router); none is allowed.
	Hosts() []string
	// Addr is a listen address of the site's own ("" for none); `arena serve` serves the site
	// alone there.
	Addr() string
	// Answer is the site's refusal table and error body: every refusal on the site, echo's own
	// 404 and 405 included, is written with it.
	Answer() door.Site
	// Mount adds the site's routes (and any Pre middleware of its own) to e, which already has
	// the shared middleware and the global routes.
	Mount(e *echo.Echo) error
}

// Place is where a site is reached, from config: a Site implementation embeds it.
type Place struct {
	HostNames  []string
	ListenAddr string
}

// Hosts is p.HostNames.
func (p Place) Hosts() []string { return p.HostNames }

// Addr is p.ListenAddr.
func (p Place) Addr() string { return p.ListenAddr }

// Build returns site s's echo instance: refusals answered by s.Answer(), the shared middleware
// and the global routes (newSite), then s's own routes.
func Build(s Site, g Global) (*echo.Echo, error) {
	e, err := newSite(s.Answer(), g)
	if err != nil {
		return nil, err
	}
	if err := s.Mount(e); err != nil {
		return nil, fmt.Errorf("httpapi: site %s: %w", s.Name(), err)
	}
	return e, nil
}

// Assemble builds every site and the Router over them: a request goes to the site its Host
// names, any other to the site named fallback. byName is each site's handler by name, for the
// listen address of its own (Addr). A fallback no site has, or two sites of one name, is an error.
func Assemble(g Global, fallback string, sites ...Site) (router http.Handler, byName map[string]http.Handler, err error) {
	byName = map[string]http.Handler{}
	var routed []Routed
	for _, s := range sites {
		if _, dup := byName[s.Name()]; dup {
			return nil, nil, fmt.Errorf("httpapi: two sites named %s", s.Name())
		}
		e, err := Build(s, g)
		if err != nil {
			return nil, nil, err
		}
		byName[s.Name()] = e
		routed = append(routed, Routed{Name: s.Name(), Hosts: s.Hosts(), Handler: e})
	}
	fb, ok := byName[fallback]
	if !ok {
		return nil, nil, fmt.Errorf("httpapi: no site %s to fall back on", fallback)
	}
	r, err := NewRouter(fb, routed...)
	if err != nil {
		return nil, nil, err
	}
	return r, byName, nil
}

// GlobalPaths are the routes every site serves alike (meta.MountGlobal): newSite answers them
// before the site's own Pre middleware (DOTDOTDOT's token and one-value guards, §4.4), so
// `/healthz?x=1&x=2` or `/healthz?token=abc` gets the same answer on every Host.
var GlobalPaths = []string{"/healthz", "/metrics"}

// newSite returns a site's echo instance: refusals (echo's own 404 and 405 included) answered
// by answer, the access log, the request counter, panic recovery and, ahead of anything the
// site adds, the global routes (GlobalPaths), served by an echo instance of their own that the
// site's Pre middleware never sees.
func newSite(answer door.Site, g Global) (*echo.Echo, error) {
	log := g.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var reqs *prometheus.CounterVec
	if g.Metrics != nil {
		var err error
		if reqs, err = requestCounter(g.Metrics); err != nil {
			return nil, err
		}
	}
	global := baseEcho(answer, log, reqs)
	meta.MountGlobal(global, g.Meta)
	e := baseEcho(answer, log, reqs)
	e.Pre(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			p := c.Request().URL.Path
			for _, gp := range GlobalPaths {
				if p == gp {
					global.ServeHTTP(c.Response(), c.Request())
					return nil
				}
			}
			return next(c)
		}
	})
	return e, nil
}

// baseEcho is an echo instance with a site's refusals and the shared middleware: access log,
// request counter (reqs nil: none), panic recovery.
func baseEcho(answer door.Site, log *slog.Logger, reqs *prometheus.CounterVec) *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = answer.ErrorHandler(log)
	e.Use(door.AccessLog(log))
	if reqs != nil {
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
	return e
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
