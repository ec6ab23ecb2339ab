package ws

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

// Defaults for the zero Options.
const (
	DefaultMaxFrame     = 8 << 10 // bytes
	DefaultPingInterval = 15 * time.Second
	DefaultWriteTimeout = 10 * time.Second
	DefaultQueueLen     = 64
	// DefaultReadBufferSize is the per-connection read buffer, held for the connection's life:
	// small, since past its first few hundred bytes a message is read straight into its own
	// bytes (docs/performance.md, "WebSocket connection cost").
	DefaultReadBufferSize = 1 << 10
	// DefaultWriteBufferSize is the size of the pooled write buffers, taken only while a
	// message is written (an idle connection holds none).
	DefaultWriteBufferSize = 4 << 10
)

// Options configure an Upgrader. The zero value works.
type Options struct {
	// MaxFrame is the largest message payload, in bytes, taken or sent (both directions). Zero
	// means DefaultMaxFrame (8 KiB).
	MaxFrame int
	// DrainLimit is the largest inbound message that is read and discarded (and refused to the
	// handler) while the connection stays usable; a larger one closes the connection with 1009.
	// Zero means 8 × MaxFrame; negative means MaxFrame (any oversized message closes, as
	// gorilla's read limit does).
	DrainLimit int
	// PingInterval is the time between pings; a ping not answered by the next one drops the
	// connection. Zero means DefaultPingInterval (15 s).
	PingInterval time.Duration
	// WriteTimeout bounds each write (a message, a ping, a close frame), and the wait for the
	// peer's close frame on a graceful close. A write past it drops the connection as a slow
	// reader. Zero means DefaultWriteTimeout (10 s).
	WriteTimeout time.Duration
	// HandshakeTimeout bounds the upgrade's response write. Zero means WriteTimeout.
	HandshakeTimeout time.Duration
	// QueueLen is the send queue's length in messages; a Send that finds it full drops the
	// connection. Zero means DefaultQueueLen (64).
	QueueLen int
	// ReadBufferSize and WriteBufferSize are gorilla's buffer sizes in bytes; zero means
	// DefaultReadBufferSize (1 KiB) and DefaultWriteBufferSize (4 KiB, pooled).
	ReadBufferSize, WriteBufferSize int
	// Origins, when not empty, are the only browser origins allowed ("https://example.org",
	// compared without regard to case); a request with no Origin header (any non-browser
	// client) is always allowed. Empty allows every origin: right for a door whose clients
	// authenticate inside the socket (a signed challenge) and carry no cookie, where a page on
	// another site gains nothing a client of its own would not have.
	Origins []string
}

// Upgrader turns HTTP requests into Conns. It is safe for concurrent use; one Upgrader serves
// every connection of a door (they share its write buffer pool).
type Upgrader struct {
	opts    Options
	drain   int
	origins map[string]bool
	up      websocket.Upgrader
}

// NewUpgrader checks opts and fills in the defaults. It refuses negative sizes and durations
// and a malformed origin.
func NewUpgrader(opts Options) (*Upgrader, error) {
	if opts.MaxFrame < 0 || opts.QueueLen < 0 || opts.PingInterval < 0 || opts.WriteTimeout < 0 ||
		opts.HandshakeTimeout < 0 || opts.ReadBufferSize < 0 || opts.WriteBufferSize < 0 {
		return nil, errors.New("ws: negative option")
	}
	if opts.MaxFrame == 0 {
		opts.MaxFrame = DefaultMaxFrame
	}
	if opts.PingInterval == 0 {
		opts.PingInterval = DefaultPingInterval
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	if opts.HandshakeTimeout == 0 {
		opts.HandshakeTimeout = opts.WriteTimeout
	}
	if opts.QueueLen == 0 {
		opts.QueueLen = DefaultQueueLen
	}
	if opts.ReadBufferSize == 0 {
		opts.ReadBufferSize = DefaultReadBufferSize
	}
	if opts.WriteBufferSize == 0 {
		opts.WriteBufferSize = DefaultWriteBufferSize
	}
	u := &Upgrader{opts: opts, drain: opts.DrainLimit}
	switch {
	case u.drain == 0:
		u.drain = 8 * opts.MaxFrame
	case u.drain < opts.MaxFrame:
		u.drain = opts.MaxFrame
	}
	if len(opts.Origins) > 0 {
		u.origins = make(map[string]bool, len(opts.Origins))
		for _, o := range opts.Origins {
			p, err := url.Parse(o)
			if err != nil || p.Scheme == "" || p.Host == "" || (p.Path != "" && p.Path != "/") || p.RawQuery != "" {
				return nil, fmt.Errorf("ws: origin %q is not scheme://host[:port]", o)
			}
			u.origins[strings.ToLower(p.Scheme+"://"+p.Host)] = true
		}
	}
	u.up = websocket.Upgrader{
		HandshakeTimeout: opts.HandshakeTimeout,
		ReadBufferSize:   opts.ReadBufferSize,
		WriteBufferSize:  opts.WriteBufferSize,
		WriteBufferPool:  &sync.Pool{},
		CheckOrigin:      func(*http.Request) bool { return true }, // checked before, in allowed
	}
	return u, nil
}

// allowed reports whether r's Origin may open a socket (Options.Origins).
func (u *Upgrader) allowed(r *http.Request) bool {
	if u.origins == nil {
		return true
	}
	o := r.Header.Values("Origin")
	switch len(o) {
	case 0:
		return true
	case 1:
		return u.origins[strings.ToLower(o[0])]
	}
	return false
}

// Upgrade answers c's request with the WebSocket handshake and starts the connection's reader
// and writer: h hears its messages from then on. A request that is not a WebSocket handshake
// (wrong method, missing Upgrade headers, unsupported version) or comes from an origin not
// allowed is refused with a *door.Refusal (bad_request, method_not_allowed, forbidden) and
// nothing written: the site's error handler writes it in its protocol's shape. After a
// successful upgrade the echo handler returns nil at once; the Conn lives on its own
// goroutines.
func (u *Upgrader) Upgrade(c echo.Context, h Handler) (*Conn, error) {
	return u.upgrade(c.Response(), c.Request(), h)
}

// upgrade is Upgrade on plain net/http values.
func (u *Upgrader) upgrade(w http.ResponseWriter, r *http.Request, h Handler) (*Conn, error) {
	if h == nil {
		return nil, errors.New("ws: nil handler")
	}
	if !u.allowed(r) {
		return nil, door.Refuse(door.CodeForbidden, "origin not allowed")
	}
	var refusal *door.Refusal
	up := u.up
	up.Error = func(_ http.ResponseWriter, _ *http.Request, status int, reason error) {
		switch status {
		case http.StatusMethodNotAllowed:
			refusal = door.Refuse(door.CodeMethod, "a WebSocket handshake is a GET")
		case http.StatusForbidden:
			refusal = door.Refuse(door.CodeForbidden, "origin not allowed")
		case http.StatusBadRequest:
			refusal = door.Refuse(door.CodeBadRequest, strings.TrimPrefix(reason.Error(), "websocket: "))
		default:
			refusal = nil // internal (not hijackable): the error below is logged, not sent
		}
	}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		if refusal != nil {
			return nil, refusal
		}
		return nil, fmt.Errorf("ws: upgrade: %w", err)
	}
	return start(ws, &u.opts, u.drain, h), nil
}
