package ws

import (
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/gorilla/websocket"
)

// TestRoundTrip: a real gorilla client over httptest sends text and hears the server's
// answers in order; closing the client reports ErrPeerGone with its close code, once.
func TestRoundTrip(t *testing.T) {
	srv, conns := echoServer(t, Options{}, func(r *recorder) {
		r.onText = func(c *Conn, msg []byte) {
			if err := c.Send(append([]byte("echo:"), msg...)); err != nil {
				t.Errorf("send: %v", err)
			}
		}
	})
	cli, a := dial(t, srv, conns)
	for _, m := range []string{"one", "two", `{"type":"join","v":0}`} {
		if err := cli.WriteMessage(websocket.TextMessage, []byte(m)); err != nil {
			t.Fatal(err)
		}
		typ, got, err := cli.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if typ != websocket.TextMessage || string(got) != "echo:"+m {
			t.Errorf("got %d %q, want text %q", typ, got, "echo:"+m)
		}
		if s := <-a.rec.texts; s != m {
			t.Errorf("handler heard %q, want %q", s, m)
		}
	}
	if err := a.conn.Err(); err != nil {
		t.Errorf("Err while running = %v", err)
	}
	if err := cli.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4001, "bye")); err != nil {
		t.Fatal(err)
	}
	// the server echoes the close code (RFC 6455 §5.5.1)
	_, _, err := cli.ReadMessage()
	if !websocket.IsCloseError(err, 4001) {
		t.Errorf("client read after its close = %v, want the echoed close 4001", err)
	}
	got := <-a.rec.closed
	var ce *websocket.CloseError
	if !errors.Is(got, ErrPeerGone) || !errors.As(got, &ce) || ce.Code != 4001 || ce.Text != "bye" {
		t.Errorf("Closed(%v), want ErrPeerGone with close 4001 bye", got)
	}
	<-a.conn.Done()
	if n := a.rec.closedCalls(); n != 1 {
		t.Errorf("Closed called %d times, want 1", n)
	}
	if err := a.conn.Send([]byte("late")); !errors.Is(err, ErrPeerGone) {
		t.Errorf("Send after the peer left = %v, want ErrPeerGone", err)
	}
}

// TestServerClose: CloseWith flushes what is queued, then sends its close frame; the client
// reads every message and the close; the reason is ErrClosed, and what the client sent after
// the close reaches no handler.
func TestServerClose(t *testing.T) {
	srv, conns := echoServer(t, Options{}, nil)
	cli, a := dial(t, srv, conns)
	for _, m := range []string{"a", "b", "c"} {
		if err := a.conn.Send([]byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	a.conn.CloseWith(4002, "replaced by another connection")
	if err := cli.WriteMessage(websocket.TextMessage, []byte("after the close")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a", "b", "c"} {
		_, got, err := cli.ReadMessage()
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	_, _, err := cli.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4002 || ce.Text != "replaced by another connection" {
		t.Errorf("client read = %v, want close 4002 with its text", err)
	}
	if got := <-a.rec.closed; !errors.Is(got, ErrClosed) {
		t.Errorf("Closed(%v), want ErrClosed", got)
	}
	if err := a.conn.Send([]byte("late")); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close = %v, want ErrClosed", err)
	}
	if len(a.rec.texts) != 0 {
		t.Errorf("the handler heard %q, sent after the close", <-a.rec.texts)
	}
}

// TestUpgradeRefusals: a request that is no handshake, or from an origin not allowed, is
// refused with the door's codes and no socket; an allowed origin and a request without one
// (a non-browser client) open.
func TestUpgradeRefusals(t *testing.T) {
	srv, conns := echoServer(t, Options{Origins: []string{"https://breakroom.example"}}, nil)
	resp, err := http.Get(srv.URL + "/ws")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || string(body) != `{"code":"bad_request"}`+"\n" {
		t.Errorf("plain GET: %d %s, want 400 bad_request", resp.StatusCode, body)
	}
	post, _ := http.NewRequest(http.MethodPost, srv.URL+"/ws", nil)
	for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} {
		post.Header.Set(k, v)
	}
	resp, err = http.DefaultClient.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || string(body) != `{"code":"method_not_allowed"}`+"\n" {
		t.Errorf("POST handshake: %d %s, want 405 method_not_allowed", resp.StatusCode, body)
	}
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"https://evil.example", http.StatusForbidden},
		{"https://BreakRoom.example", http.StatusSwitchingProtocols},
		{"", http.StatusSwitchingProtocols},
	} {
		h := http.Header{}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		cli, resp, err := websocket.DefaultDialer.Dial(wsURL(srv), h)
		if resp == nil {
			t.Fatalf("origin %q: no response: %v", tc.origin, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("origin %q: status %d, want %d", tc.origin, resp.StatusCode, tc.want)
		}
		if cli != nil {
			cli.Close()
			<-conns
		}
	}
	for _, bad := range [][]string{{"evil.example"}, {"https://a.example/path"}} {
		if _, err := NewUpgrader(Options{Origins: bad}); err == nil {
			t.Errorf("NewUpgrader took origins %q", bad)
		}
	}
	if _, err := NewUpgrader(Options{QueueLen: -1}); err == nil {
		t.Error("NewUpgrader took a negative queue")
	}
}
