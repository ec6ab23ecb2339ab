package ws

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentSend: 16 goroutines send 200 messages each on one connection; the client
// reads all 3,200, each goroutine's in its order (gorilla panics on a concurrent write, and
// -race watches the rest).
func TestConcurrentSend(t *testing.T) {
	const senders, each = 16, 200
	srv, conns := echoServer(t, Options{QueueLen: senders * each}, nil)
	cli, a := dial(t, srv, conns)
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				if err := a.conn.Send(fmt.Appendf(nil, "%d:%d", g, i)); err != nil {
					t.Errorf("sender %d message %d: %v", g, i, err)
					return
				}
			}
		})
	}
	next := make([]int, senders)
	for range senders * each {
		_, msg, err := cli.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		gs, is, _ := strings.Cut(string(msg), ":")
		g, _ := strconv.Atoi(gs)
		i, _ := strconv.Atoi(is)
		if i != next[g] {
			t.Fatalf("sender %d: message %d arrived when %d was next", g, i, next[g])
		}
		next[g]++
	}
	wg.Wait()
	if err := a.conn.Err(); err != nil {
		t.Errorf("connection ended: %v", err)
	}
}

// TestConcurrentClose: Close and CloseWith from 16 goroutines while 16 others send: one
// ending (the reason ErrClosed), Closed called once, every Send nil or ErrClosed, and the
// connection done.
func TestConcurrentClose(t *testing.T) {
	srv, conns := echoServer(t, Options{QueueLen: 1 << 14}, nil)
	cli, a := dial(t, srv, conns)
	go func() { // the client reads until the close
		for {
			if _, _, err := cli.ReadMessage(); err != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for range 100 {
				if err := a.conn.Send([]byte("x")); err != nil && !errors.Is(err, ErrClosed) {
					t.Errorf("Send during Close = %v", err)
					return
				}
			}
		})
		wg.Go(func() {
			if g%2 == 0 {
				a.conn.Close()
			} else {
				a.conn.CloseWith(4000+g, "closer")
			}
		})
	}
	wg.Wait()
	<-a.conn.Done()
	if err := <-a.rec.closed; !errors.Is(err, ErrClosed) {
		t.Errorf("Closed(%v), want ErrClosed", err)
	}
	a.conn.Close() // after the end: nothing
	if n := a.rec.closedCalls(); n != 1 {
		t.Errorf("Closed called %d times, want 1", n)
	}
}
