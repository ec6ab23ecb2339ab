package ws

import (
	"errors"
	"fmt"
)

// The reasons a connection ends (Conn.Err, Handler.Closed) and a frame is refused (*FrameError).
var (
	// ErrClosed: this side closed the connection (Close, CloseWith). Every other reason is a drop.
	ErrClosed = errors.New("ws: closed")
	// ErrPeerGone: the peer closed the connection (its close frame, wrapped as a
	// *websocket.CloseError) or the socket failed (EOF, reset, a protocol violation).
	ErrPeerGone = errors.New("ws: peer gone")
	// ErrPingTimeout: the peer had not answered the previous ping by the next ping tick.
	ErrPingTimeout = errors.New("ws: ping not answered")
	// ErrSlowReader: the send queue was full (the peer reads slower than it is sent to) or a
	// write did not finish within Options.WriteTimeout.
	ErrSlowReader = errors.New("ws: slow reader")
	// ErrTooLarge: a message over Options.MaxFrame (refused), or an inbound one over
	// Options.DrainLimit (the connection is closed).
	ErrTooLarge = errors.New("ws: frame too large")
	// ErrBinary: an inbound binary message (only text messages are taken).
	ErrBinary = errors.New("ws: binary frame")
	// ErrBadUTF8: an inbound text message that is not valid UTF-8 (RFC 6455 §5.6).
	ErrBadUTF8 = errors.New("ws: text frame not utf-8")
)

// FrameError is a refused message: Err is ErrTooLarge, ErrBinary or ErrBadUTF8; Size is the
// message's payload in bytes (for an inbound message over Options.DrainLimit, the bytes read
// before giving up: more than DrainLimit); Limit is Options.MaxFrame. Inbound says which way
// the message went.
type FrameError struct {
	Err     error
	Size    int
	Limit   int
	Inbound bool
}

func (e *FrameError) Error() string {
	dir := "outbound"
	if e.Inbound {
		dir = "inbound"
	}
	if errors.Is(e.Err, ErrTooLarge) {
		return fmt.Sprintf("%v: %s message of %d bytes, over the %d-byte limit", e.Err, dir, e.Size, e.Limit)
	}
	return fmt.Sprintf("%v: %s message of %d bytes", e.Err, dir, e.Size)
}

func (e *FrameError) Unwrap() error { return e.Err }
