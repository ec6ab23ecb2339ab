package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

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
// doors dot names; Break Room, the Warden and the market with theirs), each at the hosts and
// listen address its config section gives, and the Router that picks one by Host, DOTDOTDOT
// for any Host no site claims. byName is each site's handler, for a listen address of its own.
func sitesOf(cfg config.Config, dot dotsite.Options, g httpapi.Global) (router http.Handler, byName map[string]http.Handler, err error) {
	var sites []httpapi.Site
	for _, s := range cfg.Sites() {
		at := httpapi.Place{HostNames: s.Hosts, ListenAddr: s.Addr}
		switch s.Name {
		case "dotdotdot":
			sites = append(sites, dotsite.Site{Place: at, Options: dot})
		case "breakroom":
			sites = append(sites, breakroom.Site{Place: at})
		case "warden":
			sites = append(sites, warden.Site{Place: at})
		case "market":
			sites = append(sites, market.Site{Place: at})
		default:
			return nil, nil, fmt.Errorf("serve: no site for the %s section", s.Name)
		}
	}
	return httpapi.Assemble(g, "dotdotdot", sites...)
}
