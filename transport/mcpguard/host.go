package mcpguard

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// LocalHost refuses, with 403, a request that arrives on a loopback connection with a Host
// that does not name this machine: a browser page whose domain was rebound to 127.0.0.1 (DNS
// rebinding) gets no answer from the MCP server. It stands in for mcp-go's own guard, which knows
// only "localhost" and loopback IPs: a Host under .localhost (dotdotdot.localhost, the
// DOTDOTDOT site's default name, breakroom.localhost) is loopback too, always (RFC 6761 §6.3), so it is local here.
// A request on any other connection is let through; trust (TrustProxyHost) turns the check off.
func LocalHost(next http.Handler, trust bool) http.Handler {
	if trust {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil &&
			IsLoopback(la.String()) && !IsLoopback(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// IsLoopback reports whether addr (a host or host:port, an IPv6 literal with or without
// brackets) names a loopback interface: localhost or a name under .localhost (RFC 6761), in
// any case and with or without a trailing dot, or a loopback IP.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "localhost" || (strings.HasSuffix(name, ".localhost") && len(name) > len(".localhost")) {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
