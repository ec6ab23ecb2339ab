package egress

import "errors"

// Sentinel errors. Every error of this package wraps one of them (errors.Is) with the URL or
// address at fault.
var (
	// ErrBadURL: not an absolute http(s) URL with a host, or it carries user info or a
	// fragment-only target.
	ErrBadURL = errors.New("egress: bad URL")
	// ErrScheme: the scheme is not https (or http under Policy.AllowHTTP), including a
	// redirect from https down to http.
	ErrScheme = errors.New("egress: scheme not allowed")
	// ErrBlocked: the host is, or resolves to, an address the policy refuses (loopback,
	// private, link-local, CGNAT, multicast, unspecified, reserved, documentation, metadata),
	// or is a metadata host name.
	ErrBlocked = errors.New("egress: address not allowed")
	// ErrResolve: the host name did not resolve to any address.
	ErrResolve = errors.New("egress: host did not resolve")
	// ErrTooLarge: the response body is longer than the cap.
	ErrTooLarge = errors.New("egress: response too large")
	// ErrStatus: the response status is not 200.
	ErrStatus = errors.New("egress: unexpected response status")
	// ErrRedirects: more redirects than Policy.MaxRedirects.
	ErrRedirects = errors.New("egress: too many redirects")
)
