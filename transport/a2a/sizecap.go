package a2a

import (
	"io"
	"net/http"
)

// capTransport wraps every response body so that reading past max bytes fails with ErrTooLarge
// (a2a-go decodes bodies with no limit of its own). A Content-Length over the cap fails at once.
type capTransport struct {
	next http.RoundTripper
	max  int64
}

func (t capTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, ErrTooLarge
	}
	resp.Body = &capBody{rc: resp.Body, left: t.max}
	return resp, nil
}

// capBody reads at most left bytes, then ErrTooLarge.
type capBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more means the body is over the cap; exactly at the cap is fine.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *capBody) Close() error { return b.rc.Close() }
