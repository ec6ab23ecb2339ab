package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// publicSite is the origin `arena serve` names in every link and page it writes (the /t/{code}
// join lines, the connector URL, hosted tables' link and watch, the MCP chat seat's links,
// the instance card's base): never the request's Host header, which a client or a shared
// cache in front of the arena can forge.
//
//   - pub (ARENA_PUBLIC_URL) when set: an absolute http or https URL with a host, no user
//     info, query or fragment; a path is kept (a site served under a prefix), without its
//     trailing slash. Anything else is an error: serve does not start on a malformed one.
//   - else "http://" + the listen address; an unspecified listen host (0.0.0.0, ::) becomes
//     localhost, and warn reports that links then only work on this machine.
func publicSite(pub string, listen net.Addr) (site string, warn bool, err error) {
	if pub != "" {
		u, err := url.Parse(pub)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
			u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
			return "", false, fmt.Errorf("serve: ARENA_PUBLIC_URL %q is not an http(s) URL like https://arena.example", pub)
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
