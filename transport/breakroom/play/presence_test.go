package play

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"arena/transport/ws"
)

// TestUnansweredPingIsADrop: a joined socket that stops answering pings (its client stops
// reading, so its library answers none) is closed by the ping rule and the product hears Drop:
// the seat is away. The ping interval is shortened here; the rule is transport/ws's.
func TestUnansweredPingIsADrop(t *testing.T) {
	r := newRig(t, func(o *Options) { o.Socket = ws.Options{PingInterval: 50 * time.Millisecond} })
	k := newKey(t, 1)
	s := r.dial()
	s.joinAs(k, "coin")
	s.expect("queued")
	// From here the client reads nothing: pings pile up unanswered.
	waitFor(t, func() bool { return slices.Contains(r.f.log(), "drop "+k.pub[:8]) })
	if len(r.f.queue) != 0 {
		t.Fatalf("a dropped queued socket still waits: %v", r.f.queue)
	}
}

// TestHTTPJoinTakesTheSocketsSeat: the key is the identity whichever door it comes through: a
// signed HTTP join of a key whose socket holds its seat re-seats it over HTTP (seated with a
// token) and closes the socket with CloseReplaced.
func TestHTTPJoinTakesTheSocketsSeat(t *testing.T) {
	r := newRig(t, nil)
	ka, kb := newKey(t, 1), newKey(t, 2)
	a := r.dial()
	a.joinAs(ka, "coin")
	a.expect("queued")
	r.httpJoin(kb, "coin")
	a.expect("seated")
	a.expect("your_turn")
	st, s := r.httpJoin(ka, "coin")
	if st != 200 || s["type"] != "seated" || num(s, "seat") != 0 || s["token"] == nil {
		t.Fatalf("HTTP join over the socket's seat: %d %v", st, s)
	}
	_ = a.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := a.c.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) && ce.Code == CloseReplaced {
			break
		}
		if err != nil {
			t.Fatalf("the socket ended with %v, want close %d", err, CloseReplaced)
		}
	}
	if st, s := r.httpDo("GET", "/v0/matches/m_1/state", s["token"].(string), nil); st != 200 || s["status"] != "your_turn" {
		t.Fatalf("state over HTTP: %d %v", st, s)
	}
}
