package egress

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Resolver looks up a host's addresses; *net.Resolver satisfies it. Tests hand in their own
// to make a public-looking name answer with a private address.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Defaults of a zero Policy.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBytes     = 64 << 10 // 64 KiB: an agent card is a few KiB
	DefaultMaxRedirects = 3
)

// Policy is what outbound calls may reach. The zero value is the production policy: https
// only, public unicast addresses only, DefaultTimeout, DefaultMaxBytes, DefaultMaxRedirects,
// the system resolver. A Policy is read-only once in use and safe for concurrent use.
type Policy struct {
	// AllowLoopback admits 127.0.0.0/8 and ::1 (development: agents on this machine). No
	// other inside address is ever admitted.
	AllowLoopback bool
	// AllowHTTP admits plain http URLs (development); otherwise only https.
	AllowHTTP bool
	// Timeout bounds one whole call: dial, TLS, redirects, headers and body. Zero or
	// negative means DefaultTimeout; there is no "no timeout".
	Timeout time.Duration
	// MaxBytes caps a response body in bytes; a longer one is ErrTooLarge. Zero or negative
	// means DefaultMaxBytes.
	MaxBytes int64
	// MaxRedirects is how many redirects a call follows; zero means DefaultMaxRedirects,
	// negative means none (the first 3xx is returned as ErrStatus).
	MaxRedirects int
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver Resolver

	// pretendPublic, set by this package's tests only, admits addresses that would
	// otherwise be refused, so a loopback test server can stand for a public host.
	pretendPublic func(netip.Addr) bool
}

// Dev is the development policy: Policy with AllowLoopback and AllowHTTP.
func Dev() Policy { return Policy{AllowLoopback: true, AllowHTTP: true} }

func (p *Policy) timeout() time.Duration {
	if p.Timeout <= 0 {
		return DefaultTimeout
	}
	return p.Timeout
}

// BodyCap is the response size cap in effect, in bytes (MaxBytes or DefaultMaxBytes).
func (p *Policy) BodyCap() int64 { return p.maxBytes() }

func (p *Policy) maxBytes() int64 {
	if p.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return p.MaxBytes
}

func (p *Policy) maxRedirects() int {
	switch {
	case p.MaxRedirects == 0:
		return DefaultMaxRedirects
	case p.MaxRedirects < 0:
		return 0
	}
	return p.MaxRedirects
}

func (p *Policy) resolver() Resolver {
	if p.Resolver == nil {
		return net.DefaultResolver
	}
	return p.Resolver
}

// CheckAddr refuses an address the policy does not admit (ErrBlocked, naming the reason).
func (p *Policy) CheckAddr(a netip.Addr) error {
	if p.pretendPublic != nil && p.pretendPublic(a) {
		return nil
	}
	switch r := Classify(a); {
	case r == "":
		return nil
	case r == "loopback" && p.AllowLoopback:
		return nil
	default:
		return fmt.Errorf("%w: %s is %s", ErrBlocked, a, r)
	}
}

// parse checks a URL's shape: absolute, http(s) as the policy admits, a host, no user info.
func (p *Policy) parse(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrBadURL, raw, err)
	}
	if err := p.checkScheme(u); err != nil {
		return nil, err
	}
	if u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return nil, fmt.Errorf("%w: %q has no host", ErrBadURL, raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: %q carries user info", ErrBadURL, raw)
	}
	if port := u.Port(); port != "" {
		if n, err := parsePort(port); err != nil || n == 0 {
			return nil, fmt.Errorf("%w: %q: bad port", ErrBadURL, raw)
		}
	}
	return u, nil
}

func parsePort(s string) (int, error) {
	n := 0
	if len(s) > 5 {
		return 0, fmt.Errorf("port too long")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("port not a number")
		}
		n = n*10 + int(c-'0')
	}
	if n > 65535 {
		return 0, fmt.Errorf("port out of range")
	}
	return n, nil
}

func (p *Policy) checkScheme(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if p.AllowHTTP {
			return nil
		}
	}
	return fmt.Errorf("%w: %q", ErrScheme, u.Redacted())
}

// resolve returns the addresses host stands for, refusing the whole name when any one of them
// is not admitted: a name answering with a mix of public and inside addresses is hostile
// (the dial could land on either), not half good. An IP literal is its own answer.
func (p *Policy) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if isMetadataHost(host) {
		return nil, fmt.Errorf("%w: %s is a metadata host", ErrBlocked, host)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if err := p.CheckAddr(a); err != nil {
			return nil, err
		}
		return []netip.Addr{a.WithZone("")}, nil
	}
	addrs, err := p.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrResolve, host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: %s: no addresses", ErrResolve, host)
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return nil, fmt.Errorf("%s resolves to a refused address: %w", host, err)
		}
	}
	return addrs, nil
}

// CheckURL is the registration-time check of a card or endpoint URL: its shape (absolute,
// https or, under AllowHTTP, http, a host, no user info), and every address its host resolves
// to now. Passing it does not make a later call safe (DNS may change): the Client checks again
// at every dial. ctx bounds the lookup. Errors wrap ErrBadURL, ErrScheme, ErrBlocked or
// ErrResolve.
func (p *Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := p.parse(raw)
	if err != nil {
		return err
	}
	_, err = p.resolve(ctx, u.Hostname())
	return err
}

// CheckURLShape is CheckURL without the lookup: the shape, and the host when it is an IP
// literal or a metadata name. For paths that must not wait on DNS.
func (p *Policy) CheckURLShape(raw string) error {
	u, err := p.parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if isMetadataHost(host) {
		return fmt.Errorf("%w: %s is a metadata host", ErrBlocked, host)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return p.CheckAddr(a)
	}
	return nil
}
