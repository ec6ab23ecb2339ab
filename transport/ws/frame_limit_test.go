package ws

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gorilla/websocket"
)

// wantFrameError checks err is a *FrameError of kind want, size and direction.
func wantFrameError(t *testing.T, err, want error, size int, inbound bool) {
	t.Helper()
	var fe *FrameError
	if !errors.As(err, &fe) || !errors.Is(err, want) || fe.Size != size || fe.Inbound != inbound || fe.Limit != DefaultMaxFrame {
		t.Errorf("got %#v (%v), want %v of %d bytes, inbound %v, limit %d", fe, err, want, size, inbound, DefaultMaxFrame)
	}
}

// TestInboundFrameRefused: a message over 8 KiB (whole or in fragments), a binary message and
// text that is not UTF-8 are each refused to the handler and discarded; the connection stays
// usable and the next message arrives. A message of exactly 8 KiB is taken.
func TestInboundFrameRefused(t *testing.T) {
	srv, conns := echoServer(t, Options{}, nil)
	d := websocket.Dialer{WriteBufferSize: 1024} // so a long NextWriter message leaves in fragments
	cli, resp, err := d.Dial(wsURL(srv), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	defer cli.Close()
	a := <-conns

	limit := bytes.Repeat([]byte("x"), DefaultMaxFrame)
	over := bytes.Repeat([]byte("y"), DefaultMaxFrame+1)
	send := func(typ int, b []byte) {
		t.Helper()
		if err := cli.WriteMessage(typ, b); err != nil {
			t.Fatal(err)
		}
	}
	send(websocket.TextMessage, limit)
	if got := <-a.rec.texts; got != string(limit) {
		t.Errorf("8 KiB message: handler heard %d bytes", len(got))
	}
	send(websocket.TextMessage, over)
	wantFrameError(t, <-a.rec.refused, ErrTooLarge, DefaultMaxFrame+1, true)

	w, err := cli.NextWriter(websocket.TextMessage)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 { // 10 × 1000 bytes, several frames
		w.Write(bytes.Repeat([]byte("z"), 1000))
	}
	w.Close()
	wantFrameError(t, <-a.rec.refused, ErrTooLarge, 10000, true)

	send(websocket.BinaryMessage, []byte("\x00\x01"))
	wantFrameError(t, <-a.rec.refused, ErrBinary, 2, true)
	send(websocket.TextMessage, []byte("bad \xff utf-8"))
	wantFrameError(t, <-a.rec.refused, ErrBadUTF8, 11, true)

	send(websocket.TextMessage, []byte("still here"))
	if got := <-a.rec.texts; got != "still here" {
		t.Errorf("after refusals: heard %q", got)
	}
	if err := a.conn.Err(); err != nil {
		t.Errorf("connection ended after refusals: %v", err)
	}
}

// TestInboundFloodCloses: a message past the drain limit closes the connection with 1009, as
// gorilla's read limit does; with a negative DrainLimit any oversized message does.
func TestInboundFloodCloses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		drain int
		size  int
	}{
		{"past the default drain limit", 0, 8*DefaultMaxFrame + 100},
		{"negative drain limit", -1, DefaultMaxFrame + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, conns := echoServer(t, Options{DrainLimit: tc.drain}, nil)
			cli, a := dial(t, srv, conns)
			if err := cli.WriteMessage(websocket.TextMessage, bytes.Repeat([]byte("f"), tc.size)); err != nil {
				t.Fatal(err)
			}
			if _, _, err := cli.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
				t.Errorf("client read = %v, want close 1009", err)
			}
			got := <-a.rec.closed
			var fe *FrameError
			if !errors.Is(got, ErrTooLarge) || !errors.As(got, &fe) || !fe.Inbound || fe.Size <= DefaultMaxFrame {
				t.Errorf("Closed(%v), want an inbound ErrTooLarge", got)
			}
			if len(a.rec.refused) != 0 {
				t.Errorf("a flood was also refused to the handler")
			}
		})
	}
}

// TestOutboundFrameRefused: Send refuses a message over 8 KiB and sends nothing of it; the
// connection goes on and the next message, of exactly 8 KiB, arrives.
func TestOutboundFrameRefused(t *testing.T) {
	srv, conns := echoServer(t, Options{}, nil)
	cli, a := dial(t, srv, conns)
	err := a.conn.Send(bytes.Repeat([]byte("o"), DefaultMaxFrame+1))
	wantFrameError(t, err, ErrTooLarge, DefaultMaxFrame+1, false)
	limit := bytes.Repeat([]byte("k"), DefaultMaxFrame)
	if err := a.conn.Send(limit); err != nil {
		t.Fatal(err)
	}
	_, got, err := cli.ReadMessage()
	if err != nil || !bytes.Equal(got, limit) {
		t.Errorf("client read %d bytes, %v; want the 8 KiB message", len(got), err)
	}
	if err := a.conn.Err(); err != nil {
		t.Errorf("connection ended: %v", err)
	}
}
