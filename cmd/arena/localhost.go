package main

import (
	"context"
	"net"
	"net/http"
	"strings"
)

// linkClient is the HTTP client the commands that read a URL a server handed out use
// (verify-log's log_url, anchor-check's transcript): a name under .localhost is dialled at the
// loopback address (RFC 6761 §6.3), as curl and browsers do, since the system resolver need not
// know it and a Break Room server's links name http://breakroom.localhost:<port> by default.
// The request keeps its Host, so the server still picks the site by name.
var linkClient = &http.Client{Transport: localhostTransport()}

func localhostTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	var d net.Dialer
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, loopbackFor(addr))
	}
	return t
}

// loopbackFor is addr (HOST:PORT) with a HOST under .localhost (breakroom.localhost) replaced
// by 127.0.0.1; any other address (localhost itself, which the resolver knows) unchanged.
func loopbackFor(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if strings.HasSuffix(h, ".localhost") {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}
