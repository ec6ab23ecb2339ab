// Package httpapi assembles the HTTP server of `arena serve` from sites it knows only by the
// Site interface (host names, an optional listen address, a refusal table and body, a mount
// function): each site is an echo instance with the shared middleware (panic recovery, access
// log, request counter), its own refusal shape and code → status table, the global routes
// /healthz and /metrics, and the routes its protocol's folder mounts; a Router picks the site
// by Host, an unmatched Host getting the fallback site (DOTDOTDOT, wired by cmd/arena). httpapi
// imports no protocol's package. No echo Timeout middleware is used anywhere: it would turn a
// long poll's late write into an HTML 503 and lose what the poll took.
package httpapi

import (
	"net/http"
	"time"
)

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
