package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// Routed is one site as the Router sees it: its name, hosts and built handler.
type Routed struct {
	// Name names the site in errors and logs ("dotdotdot", "breakroom", "warden", "market").
	Name string
	// Hosts are the Host names that select the site: compared without the port, in lower
	// case, a trailing dot dropped. None is allowed: the site is then reached only on a listen
	// address of its own (`arena serve` serves Handler alone there).
	Hosts []string
	// Handler serves the site's routes (Build).
	Handler http.Handler
}

// Router serves each request with the site its Host names, and any other Host (an IP address,
// localhost, a name no site claims, none at all) with the fallback site: DOTDOTDOT, so every URL
// that worked before sites existed still works. It is safe for concurrent use.
type Router struct {
	fallback http.Handler
	byHost   map[string]http.Handler
}

// NewRouter returns the Router over sites with fallback for unmatched hosts. A host claimed
// twice, by one site or by two, is an error, as is a nil handler.
func NewRouter(fallback http.Handler, sites ...Routed) (*Router, error) {
	if fallback == nil {
		return nil, fmt.Errorf("httpapi: router without a fallback site")
	}
	r := &Router{fallback: fallback, byHost: map[string]http.Handler{}}
	owner := map[string]string{}
	for _, s := range sites {
		if s.Handler == nil {
			return nil, fmt.Errorf("httpapi: site %s has no handler", s.Name)
		}
		for _, h := range s.Hosts {
			k := HostKey(h)
			if k == "" {
				return nil, fmt.Errorf("httpapi: site %s: empty host name", s.Name)
			}
			if o, dup := owner[k]; dup {
				return nil, fmt.Errorf("httpapi: host %s claimed by sites %s and %s", k, o, s.Name)
			}
			owner[k] = s.Name
			r.byHost[k] = s.Handler
		}
	}
	return r, nil
}

// ServeHTTP hands req to its site.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if h, ok := r.byHost[HostKey(req.Host)]; ok {
		h.ServeHTTP(w, req)
		return
	}
	r.fallback.ServeHTTP(w, req)
}

// HostKey is the form a Host header is matched in: the host without its port (an IPv6 literal
// without its brackets), lower case, without a trailing dot.
func HostKey(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if inner, ok := strings.CutPrefix(host, "["); ok {
		// Brackets come off a proper IPv6 literal only ("[::1]"); "[breakroom.localhost" or
		// "[breakroom.localhost]" stays as it is and matches no configured name.
		if ip, ok := strings.CutSuffix(inner, "]"); ok && strings.Contains(ip, ":") && net.ParseIP(ip) != nil {
			host = ip
		}
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}
