package ws

import (
	"bytes"
	"context"
	"errors"
	"net"
	"testing"

	"github.com/gorilla/websocket"
)

// TestSlowReaderDropped: one sender sends to two connections, one of whose clients never
// reads. Send never blocks: once the slow one's queue is full, that Send drops it
// (ErrSlowReader, reported once) while the other connection gets every message and goes on.
func TestSlowReaderDropped(t *testing.T) {
	const queue = 8
	srv, conns := echoServer(t, Options{QueueLen: queue}, nil)
	small := websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			c.(*net.TCPConn).SetReadBuffer(4096) // the kernel holds little for the client that never reads
		}
		return c, err
	}}
	slowCli, resp, err := small.Dial(wsURL(srv), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	defer slowCli.Close()
	slow := <-conns
	slow.conn.ws.NetConn().(*net.TCPConn).SetWriteBuffer(4096)
	fastCli, fast := dial(t, srv, conns)

	received := make(chan int)
	go func() {
		n := 0
		for {
			_, _, err := fastCli.ReadMessage()
			if err != nil {
				received <- n
				return
			}
			n++
		}
	}()

	msg := bytes.Repeat([]byte("m"), 4096)
	sentFast, dropped := 0, false
	// The slow client's socket buffers hold a few hundred KiB at most: 10,000 messages of
	// 4 KiB (40 MB) are far past them, so the bound is never what ends the loop.
	for i := 0; i < 10000 && !dropped; i++ {
		if err := slow.conn.Send(msg); err != nil {
			if !errors.Is(err, ErrSlowReader) {
				t.Fatalf("slow Send %d = %v, want ErrSlowReader", i, err)
			}
			dropped = true
		}
		if err := fast.conn.Send(msg); err != nil {
			t.Fatalf("fast Send %d = %v", i, err)
		}
		sentFast++
		if sentFast%(queue/2) == 0 { // the fast client keeps up: let its writer drain before the queue fills
			if err := fast.conn.Send([]byte("sync")); err != nil {
				t.Fatal(err)
			}
			sentFast++
			fastSync(t, fast)
		}
	}
	if !dropped {
		t.Fatal("the client that never reads was not dropped")
	}
	if got := <-slow.rec.closed; !errors.Is(got, ErrSlowReader) {
		t.Errorf("slow Closed(%v), want ErrSlowReader", got)
	}
	if err := slow.conn.Send([]byte("after")); !errors.Is(err, ErrSlowReader) {
		t.Errorf("Send after the drop = %v, want ErrSlowReader", err)
	}
	// the other connection goes on: a round trip after the drop, then a graceful close
	if err := fast.conn.Send([]byte("last")); err != nil {
		t.Fatal(err)
	}
	sentFast++
	fast.conn.Close()
	if n := <-received; n != sentFast {
		t.Errorf("fast client read %d messages, want %d", n, sentFast)
	}
	if got := <-fast.rec.closed; !errors.Is(got, ErrClosed) {
		t.Errorf("fast Closed(%v), want ErrClosed", got)
	}
}

// fastSync waits until the fast connection's queue is empty (its writer took every message),
// a wait on the other goroutine's progress, never on time.
func fastSync(t *testing.T, a accepted) {
	t.Helper()
	for len(a.conn.queue) > 0 {
		if a.conn.Err() != nil {
			t.Fatalf("fast connection ended: %v", a.conn.Err())
		}
		yield()
	}
}
