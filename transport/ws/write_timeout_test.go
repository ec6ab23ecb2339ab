package ws

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestWriteTimeoutDropsSlowReader: a client that never reads blocks the writer on its first
// message (net.Pipe holds nothing); at WriteTimeout, and not before, the connection is dropped
// as a slow reader although its queue never filled.
func TestWriteTimeoutDropsSlowReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, rec, cli := pipeConn(t, Options{})
		defer cli.Close()
		start := time.Now()
		if err := c.Send([]byte("never read")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(DefaultWriteTimeout - time.Millisecond)
		synctest.Wait()
		if err := c.Err(); err != nil {
			t.Fatalf("dropped before the write timeout: %v", err)
		}
		<-c.Done()
		if got := time.Since(start); got != DefaultWriteTimeout {
			t.Errorf("dropped after %v, want %v", got, DefaultWriteTimeout)
		}
		if err := <-rec.closed; !errors.Is(err, ErrSlowReader) {
			t.Errorf("Closed(%v), want ErrSlowReader", err)
		}
	})
}

// TestCloseBoundedByWriteTimeout: a graceful close to a client that never reads gives up on
// the flush and the close frame at WriteTimeout and closes the socket; the reason stays
// ErrClosed.
func TestCloseBoundedByWriteTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, rec, cli := pipeConn(t, Options{WriteTimeout: 3 * time.Second})
		defer cli.Close()
		start := time.Now()
		c.Send([]byte("queued"))
		c.Close()
		<-c.Done()
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("closed after %v, want the 3 s write timeout", got)
		}
		if err := <-rec.closed; !errors.Is(err, ErrClosed) {
			t.Errorf("Closed(%v), want ErrClosed", err)
		}
	})
}
