package ws

import (
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gorilla/websocket"
)

// client runs a gorilla client's read loop (pings are handled inside reads) with pong as its
// answer to a ping; it counts the pings heard. The loop ends when the connection does.
func client(cli *websocket.Conn, pong func(payload string) error) (pings *atomic.Int64, ended chan error) {
	pings = new(atomic.Int64)
	ended = make(chan error, 1)
	cli.SetPingHandler(func(s string) error {
		pings.Add(1)
		return pong(s)
	})
	go func() {
		for {
			if _, _, err := cli.ReadMessage(); err != nil {
				ended <- err
				return
			}
		}
	}()
	return pings, ended
}

// answer is a well-behaved client's answer: a pong with the ping's payload.
func answer(cli *websocket.Conn) func(string) error {
	return func(s string) error {
		return cli.WriteControl(websocket.PongMessage, []byte(s), time.Now().Add(time.Second))
	}
}

// TestPingAnsweredStays: a client that answers every ping hears one every 15 s and is never
// dropped, however long it says nothing else (fake time: a synctest bubble over net.Pipe).
func TestPingAnsweredStays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, rec, cli := pipeConn(t, Options{})
		pings, ended := client(cli, answer(cli))
		time.Sleep(DefaultPingInterval - time.Millisecond)
		synctest.Wait()
		if n := pings.Load(); n != 0 {
			t.Errorf("%d pings before the first interval", n)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if n := pings.Load(); n != 1 {
			t.Errorf("%d pings after one interval, want 1", n)
		}
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if n := pings.Load(); n != 41 {
			t.Errorf("%d pings after 10m15s, want 41", n)
		}
		if err := c.Err(); err != nil {
			t.Errorf("a client answering pings was dropped: %v", err)
		}
		c.Close()
		<-c.Done()
		if err := <-rec.closed; !errors.Is(err, ErrClosed) {
			t.Errorf("Closed(%v), want ErrClosed", err)
		}
		if err := <-ended; !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
			t.Errorf("client ended with %v, want close 1000", err)
		}
	})
}

// TestPingUnansweredDropped: a client that does not answer (its pong handler disabled), or
// answers with another payload, or stops answering, is dropped at the next tick after the
// ping it left unanswered, with ErrPingTimeout; the client sees its socket close.
func TestPingUnansweredDropped(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pong    func(cli *websocket.Conn) func(string) error
		dropped time.Duration // when the connection goes, after the upgrade
	}{
		{"pong disabled", func(*websocket.Conn) func(string) error {
			return func(string) error { return nil }
		}, 2 * DefaultPingInterval},
		{"wrong payload", func(cli *websocket.Conn) func(string) error {
			return func(s string) error {
				return cli.WriteControl(websocket.PongMessage, []byte(s+"0"), time.Now().Add(time.Second))
			}
		}, 2 * DefaultPingInterval},
		{"stops after three", func(cli *websocket.Conn) func(string) error {
			n := 0
			return func(s string) error {
				if n++; n > 3 {
					return nil
				}
				return answer(cli)(s)
			}
		}, 5 * DefaultPingInterval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, rec, cli := pipeConn(t, Options{})
				start := time.Now()
				_, ended := client(cli, tc.pong(cli))
				time.Sleep(tc.dropped - time.Millisecond)
				synctest.Wait()
				if err := c.Err(); err != nil {
					t.Fatalf("dropped before %v: %v", tc.dropped, err)
				}
				<-c.Done()
				if got := time.Since(start); got != tc.dropped {
					t.Errorf("dropped after %v, want %v", got, tc.dropped)
				}
				if err := <-rec.closed; !errors.Is(err, ErrPingTimeout) {
					t.Errorf("Closed(%v), want ErrPingTimeout", err)
				}
				if err := <-ended; err == nil {
					t.Error("the client's read loop did not end")
				}
			})
		})
	}
}

// TestPingIntervalConfigured: the interval is the option's.
func TestPingIntervalConfigured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, cli := pipeConn(t, Options{PingInterval: time.Second})
		pings, ended := client(cli, answer(cli))
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		if n := pings.Load(); n != 10 {
			t.Errorf("%d pings in 10 s at 1 s, want 10", n)
		}
		cli.Close()
		<-c.Done()
		<-ended
		if err := c.Err(); !errors.Is(err, ErrPeerGone) {
			t.Errorf("Err after the client closed its socket = %v, want ErrPeerGone", err)
		}
	})
}
