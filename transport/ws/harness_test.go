package ws

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"arena/transport/door"
)

// recorder is a Handler that hands what it hears to channels.
type recorder struct {
	texts   chan string
	refused chan error
	closed  chan error
	onText  func(c *Conn, msg []byte) // optional, before the text is recorded
	calls   struct {
		sync.Mutex
		closed int
	}
}

func newRecorder() *recorder {
	return &recorder{texts: make(chan string, 1024), refused: make(chan error, 64), closed: make(chan error, 4)}
}

func (r *recorder) Text(c *Conn, msg []byte) {
	if r.onText != nil {
		r.onText(c, msg)
	}
	r.texts <- string(msg)
}

func (r *recorder) Refused(_ *Conn, err error) { r.refused <- err }

func (r *recorder) Closed(_ *Conn, err error) {
	r.calls.Lock()
	r.calls.closed++
	r.calls.Unlock()
	r.closed <- err
}

func (r *recorder) closedCalls() int {
	r.calls.Lock()
	defer r.calls.Unlock()
	return r.calls.closed
}

// testSite writes a refusal as {"code": …} with the door's statuses, as a protocol's site does.
var testSite = door.Site{
	Statuses: door.Statuses{Else: http.StatusBadRequest, Codes: map[string]int{
		door.CodeForbidden: http.StatusForbidden, door.CodeMethod: http.StatusMethodNotAllowed,
		door.CodeInternal: http.StatusInternalServerError}},
	Shape: func(c echo.Context, status int, r *door.Refusal) error {
		return c.JSON(status, map[string]string{"code": r.Code})
	},
}

// echoServer is an httptest server with the upgrade at /ws; each accepted Conn is sent on the
// returned channel with its recorder.
type accepted struct {
	conn *Conn
	rec  *recorder
}

func echoServer(t testing.TB, opts Options, setup func(*recorder)) (*httptest.Server, chan accepted) {
	t.Helper()
	return echoServerWith(t, opts, func() Handler {
		rec := newRecorder()
		if setup != nil {
			setup(rec)
		}
		return rec
	})
}

// echoServerWith is echoServer with each connection's handler from newHandler (a *recorder is
// sent in accepted.rec, any other handler leaves it nil).
func echoServerWith(t testing.TB, opts Options, newHandler func() Handler) (*httptest.Server, chan accepted) {
	t.Helper()
	u, err := NewUpgrader(opts)
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan accepted, 1<<15) // never full: a handler returns as soon as it upgraded
	e := echo.New()
	e.HTTPErrorHandler = testSite.ErrorHandler(slog.New(slog.DiscardHandler))
	// POST too, so a handshake by another method reaches the upgrade (which refuses it)
	e.Match([]string{http.MethodGet, http.MethodPost}, "/ws", func(c echo.Context) error {
		h := newHandler()
		conn, err := u.Upgrade(c, h)
		if err != nil {
			return err
		}
		rec, _ := h.(*recorder)
		conns <- accepted{conn, rec}
		return nil
	})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, conns
}

func wsURL(srv *httptest.Server) string { return "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws" }

// dial opens a gorilla client to srv and waits for the server's Conn.
func dial(t testing.TB, srv *httptest.Server, conns chan accepted) (*websocket.Conn, accepted) {
	t.Helper()
	cli, resp, err := websocket.DefaultDialer.Dial(wsURL(srv), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	resp.Body.Close()
	t.Cleanup(func() { cli.Close() })
	return cli, <-conns
}

// hijacker is an http.ResponseWriter over one end of a net.Pipe, so a handshake runs without
// the network (inside a synctest bubble, whose clock a socket would stop).
type hijacker struct {
	conn   net.Conn
	br     *bufio.Reader
	header http.Header
}

func (h *hijacker) Header() http.Header { return h.header }
func (h *hijacker) Write(p []byte) (int, error) {
	return h.conn.Write(p)
}
func (h *hijacker) WriteHeader(int) {}
func (h *hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return h.conn, bufio.NewReadWriter(h.br, bufio.NewWriter(h.conn)), nil
}

// pipeConn upgrades one connection over net.Pipe: the server's Conn with its recorder and the
// gorilla client at the other end.
func pipeConn(t testing.TB, opts Options) (*Conn, *recorder, *websocket.Conn) {
	t.Helper()
	rec := newRecorder()
	c, _, cli := pipeConnHandler(t, opts, rec)
	return c, rec, cli
}

// pipeConnHandler is pipeConn with the caller's handler.
func pipeConnHandler(t testing.TB, opts Options, rec Handler) (*Conn, Handler, *websocket.Conn) {
	t.Helper()
	u, err := NewUpgrader(opts)
	if err != nil {
		t.Fatal(err)
	}
	srvEnd, cliEnd := net.Pipe()
	type result struct {
		c   *Conn
		err error
	}
	res := make(chan result, 1)
	go func() {
		br := bufio.NewReader(srvEnd)
		req, err := http.ReadRequest(br)
		if err != nil {
			res <- result{nil, err}
			return
		}
		c, err := u.upgrade(&hijacker{conn: srvEnd, br: br, header: http.Header{}}, req, rec)
		res <- result{c, err}
	}()
	d := websocket.Dialer{NetDialContext: func(context.Context, string, string) (net.Conn, error) { return cliEnd, nil }}
	cli, resp, err := d.Dial("ws://pipe/ws", nil)
	if err != nil {
		t.Fatalf("dial over pipe: %v", err)
	}
	resp.Body.Close()
	r := <-res
	if r.err != nil {
		t.Fatalf("upgrade over pipe: %v", r.err)
	}
	return r.c, rec, cli
}

// yield lets other goroutines run while a test polls their progress.
func yield() { runtime.Gosched() }
