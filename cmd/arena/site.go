package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"arena/config"
	"arena/transport/breakroom"
	dotsite "arena/transport/dotdotdot/site"
	"arena/transport/httpapi"
	"arena/transport/market"
	"arena/transport/warden"
)

// publicSite is the origin `arena serve` names in every link and page it writes (the /t/{code}
// join lines, the connector URL, hosted tables' link and watch, the MCP chat seat's links,
// the instance card's base): never the request's Host header, which a client or a shared
// cache in front of the arena can forge.
//
//   - pub (config dotdotdot.public_url, ARENA_PUBLIC_URL) when set: an absolute http or https URL with a host, no user
//     info, query or fragment; a path is kept (a site served under a prefix), without its
//     trailing slash. Anything else is an error: serve does not start on a malformed one.
//   - else "http://" + the listen address; an unspecified listen host (0.0.0.0, ::) becomes
//     localhost, and warn reports that links then only work on this machine.
func publicSite(pub string, listen net.Addr) (site string, warn bool, err error) {
	if pub != "" {
		u, err := url.Parse(pub)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
			return "", false, fmt.Errorf("serve: public URL (ARENA_PUBLIC_URL) %q is not an http(s) URL like https://arena.example", pub)
		}
		return u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), false, nil
	}
	host, port, err := net.SplitHostPort(listen.String())
	if err != nil {
		return "", false, fmt.Errorf("serve: listen address %q: %w", listen, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return "http://" + net.JoinHostPort("localhost", port), true, nil
	}
	return "http://" + net.JoinHostPort(host, port), false, nil
}

// siteListener is a listen address of a site's own: every request on it is that site's.
type siteListener struct {
	name string
	ln   net.Listener
}

// listenSites opens the listen address of every site that has one of its own (config:
// <protocol>.site.addr); on an error it closes what it opened.
func listenSites(cfg config.Config) ([]siteListener, error) {
	var out []siteListener
	for _, s := range cfg.Sites() {
		if s.Addr == "" {
			continue
		}
		ln, err := net.Listen("tcp", s.Addr)
		if err != nil {
			for _, o := range out {
				o.ln.Close()
			}
			return nil, fmt.Errorf("serve: listen %s for the %s site: %w", s.Addr, s.Name, err)
		}
		out = append(out, siteListener{name: s.Name, ln: ln})
	}
	return out, nil
}

// sitesOf builds the HTTP face of `arena serve`: the four protocols' sites (DOTDOTDOT with the
// doors dot makes; Break Room with br, its doors: breakroom.go; the market with mk, its doors:
// market.go; the Warden with wd, its doors and reads: warden.go, warden_reads.go), each at the hosts and listen address its config section gives, and the Router that
// picks one by Host, DOTDOTDOT for any Host no site claims. byName is each site's handler, for a
// listen address of its own.
func sitesOf(cfg config.Config, dot dotsite.Deps, br mounter, mk *market.Doors, wd warden.Site, g httpapi.Global) (router http.Handler, byName map[string]http.Handler, err error) {
	var sites []httpapi.Site
	for _, s := range cfg.Sites() {
		at := httpapi.Place{HostNames: s.Hosts, ListenAddr: s.Addr}
		switch s.Name {
		case "dotdotdot":
			sites = append(sites, dot.Site(at))
		case "breakroom":
			sites = append(sites, breakroom.Site{Place: at, Doors: br})
		case "warden":
			wd.Place = at
			sites = append(sites, wd)
		case "market":
			sites = append(sites, market.Site{Place: at, Doors: mk})
		default:
			return nil, nil, fmt.Errorf("serve: no site for the %s section", s.Name)
		}
	}
	return httpapi.Assemble(g, "dotdotdot", sites...)
}

// runSites serves until ctx ends or a listener fails: one server on the main listener ln (every
// site by Host, DOTDOTDOT for the rest: router) and one per site with a listen address of its
// own (own, each on its site's handler in byName). When any of them starts shutting down, drain
// closes, so long polls answer at once; then every server drains within the configured grace
// (http.shutdown_grace) and is closed if it does not. A listener that failed is the error.
func runSites(ctx context.Context, cfg config.Config, log *slog.Logger, drain chan struct{}, ln net.Listener,
	router http.Handler, own []siteListener, byName map[string]http.Handler) error {
	var drainOnce sync.Once
	closeDrain := func() { drainOnce.Do(func() { close(drain) }) }
	type served struct {
		name string
		srv  *http.Server
		ln   net.Listener
	}
	servers := []served{{"", httpapi.Server(cfg.Addr, router), ln}}
	for _, o := range own {
		servers = append(servers, served{o.name, httpapi.Server(o.ln.Addr().String(), byName[o.name]), o.ln})
	}
	for _, s := range servers {
		s.srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
		s.srv.RegisterOnShutdown(closeDrain)
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errc <- s.srv.Serve(s.ln) }()
	}
	// A listener that fails ends serve; the other servers shut down as on SIGTERM.
	var failed error
	select {
	case failed = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", cfg.HTTP.ShutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.HTTP.ShutdownGrace))
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() {
			if err := s.srv.Shutdown(sctx); err != nil {
				log.Warn("http shutdown", "site", s.name, "err", err)
				s.srv.Close()
			}
		})
	}
	wg.Wait()
	left := len(servers)
	if failed != nil {
		left--
	}
	for range left {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("http serve", "err", err)
		}
	}
	if failed != nil {
		return fmt.Errorf("serve: http: %w", failed)
	}
	return nil
}
