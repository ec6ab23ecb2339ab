package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// DialContext dials network ("tcp", "tcp4", "tcp6") to addr ("host:port") under the policy:
// the host is resolved once (refused whole if any address is not admitted), and the
// connection is made to one of those addresses, tried in order, so nothing resolves the name
// again between the check and the connect (DNS pinned per dial). The socket's address is
// checked once more just before connect, as the last word. Errors wrap ErrBlocked or
// ErrResolve, or are the dial's own.
func (p *Policy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: dial %q: %v", ErrBadURL, addr, err)
	}
	addrs, err := p.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Control: p.control}
	var first error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// control runs on the raw socket before connect: the address the kernel is about to reach
// must be admitted, whatever path led here.
func (p *Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: dial %q: %v", ErrBlocked, address, err)
	}
	return p.CheckAddr(ap.Addr())
}

// Client is an http.Client bound to a Policy. Safe for concurrent use.
type Client struct {
	p  Policy
	hc *http.Client
}

// NewClient makes the policy's client: every dial through Policy.DialContext, no proxy (an
// environment proxy would dial on our behalf, unchecked), redirects checked (count, scheme, no
// https→http downgrade, host shape; the dial checks the address), the policy's timeout on the
// whole call, and every response body capped at MaxBytes (reading past it fails with
// ErrTooLarge).
func NewClient(p Policy) *Client {
	c := &Client{p: p}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            c.p.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    c.p.timeout(),
		ResponseHeaderTimeout:  c.p.timeout(),
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        30 * time.Second,
		MaxResponseHeaderBytes: 16 << 10,
	}
	c.hc = &http.Client{
		Transport:     CapTransport(tr, c.p.maxBytes(), ErrTooLarge),
		Timeout:       c.p.timeout(),
		CheckRedirect: c.checkRedirect,
	}
	return c
}

// Policy is the client's policy (a copy).
func (c *Client) Policy() Policy { return c.p }

// HTTP is the underlying *http.Client, for libraries that take one (an A2A client): it keeps
// every guarantee above. Do not change its fields.
func (c *Client) HTTP() *http.Client { return c.hc }

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if c.p.MaxRedirects < 0 {
		return http.ErrUseLastResponse // the 3xx itself is the answer (Get: ErrStatus)
	}
	if len(via) > c.p.maxRedirects() {
		return fmt.Errorf("%w: %d", ErrRedirects, len(via))
	}
	if len(via) > 0 && via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: redirect from https to %q", ErrScheme, req.URL.Redacted())
	}
	if err := c.p.CheckURLShape(req.URL.String()); err != nil {
		return err
	}
	return nil
}

// Get fetches url and returns its body: status 200 only (ErrStatus otherwise, a redirect past
// the policy's count included), at most MaxBytes bytes (ErrTooLarge, from the declared length
// or while reading), within the policy's timeout and ctx. The URL is shape-checked first and
// every dial is checked (ErrBadURL, ErrScheme, ErrBlocked, ErrResolve, wrapped in *url.Error
// for dials).
func (c *Client) Get(ctx context.Context, url, accept string) ([]byte, error) {
	if err := c.p.CheckURLShape(url); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: %s answered %d", ErrStatus, url, resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// CapTransport wraps rt so that every response body is capped at max bytes: a declared
// Content-Length over the cap fails at once, and reading past the cap fails on the first byte
// beyond it. Both errors wrap tooLarge (ErrTooLarge here; a caller gives its own). The egress
// client caps its bodies with it, and so does the A2A client (a2a-go reads bodies with no limit).
func CapTransport(rt http.RoundTripper, max int64, tooLarge error) http.RoundTripper {
	return capTransport{rt: rt, max: max, tooLarge: tooLarge}
}

type capTransport struct {
	rt       http.RoundTripper
	max      int64
	tooLarge error
}

func (t capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: declared %d bytes, cap %d", t.tooLarge, resp.ContentLength, t.max)
	}
	resp.Body = &capBody{rc: resp.Body, left: t.max, tooLarge: t.tooLarge}
	return resp, nil
}

// capBody reads at most left bytes and fails with tooLarge on the first byte beyond.
type capBody struct {
	rc       io.ReadCloser
	left     int64
	tooLarge error
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.over()
	}
	// Ask for one byte more than allowed, to tell "exactly at the cap" from "over it".
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) > b.left {
		keep := b.left
		b.left = -1
		return int(keep), b.over()
	}
	b.left -= int64(n)
	return n, err
}

func (b *capBody) over() error { return fmt.Errorf("%w: body over the cap", b.tooLarge) }

func (b *capBody) Close() error { return b.rc.Close() }

// IsRefusal reports whether err is the policy refusing a URL or address (as opposed to the
// far end failing): ErrBadURL, ErrScheme, ErrBlocked or ErrRedirects, however wrapped.
func IsRefusal(err error) bool {
	return errors.Is(err, ErrBadURL) || errors.Is(err, ErrScheme) || errors.Is(err, ErrBlocked) ||
		errors.Is(err, ErrRedirects)
}
