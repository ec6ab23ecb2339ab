package ws

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

// Handler hears one connection. Text and Refused are called on the connection's reader
// goroutine, one at a time, in the order the peer sent, and never once the connection is ending
// (after Close, CloseWith or a drop); Closed comes last, once, from whichever of the
// connection's two goroutines stops last. A handler may call Send, Close and CloseWith; none of
// them blocks. The first call may come before Upgrade has returned. A handler that blocks
// holds up the reading of pongs too: past a ping interval its peer is dropped as not answering,
// so hand work off (to an actor) rather than doing it here.
type Handler interface {
	// Text is one inbound text message of at most Options.MaxFrame bytes, valid UTF-8. msg is
	// the handler's to keep.
	Text(c *Conn, msg []byte)
	// Refused is an inbound message refused by the transport: err is a *FrameError (ErrTooLarge,
	// ErrBinary, ErrBadUTF8). The message was discarded and the connection stays usable; the
	// handler answers in its protocol's words (Send) or closes it (CloseWith).
	Refused(c *Conn, err error)
	// Closed is called exactly once, after the reader and the writer have stopped: err is the
	// reason (Conn.Err). Nothing reaches the handler after it.
	Closed(c *Conn, err error)
}

// ending is how a connection ends, fixed by the first of Close, CloseWith or a drop.
type ending struct {
	reason error
	code   int    // close frame to send (0: none)
	text   string // its reason text
	flush  bool   // write what is queued first (a graceful close by this side)
}

// Conn is one WebSocket connection. Its methods are safe for concurrent use.
type Conn struct {
	ws    *websocket.Conn
	h     Handler
	opts  *Options // the Upgrader's
	drain int

	queue chan []byte   // outbound text messages, written by the writer
	pongs chan []byte   // pong payloads owed to the peer's pings (the newest kept)
	done  chan struct{} // closed once the connection is ending (end set)
	read  chan struct{} // closed when the reader has stopped
	gone  chan struct{} // closed after Handler.Closed returned

	once sync.Once
	end  ending // set once, before done is closed

	pinged   atomic.Uint64 // sequence number of the last ping sent (writer)
	answered atomic.Uint64 // sequence number of the last ping the peer answered (reader)
	exited   atomic.Int32  // goroutines (reader, writer) that have stopped
}

// start runs the connection: its reader and its writer.
func start(ws *websocket.Conn, opts *Options, drain int, h Handler) *Conn {
	c := &Conn{
		ws: ws, h: h, opts: opts, drain: drain,
		queue: make(chan []byte, opts.QueueLen),
		pongs: make(chan []byte, 1),
		done:  make(chan struct{}),
		read:  make(chan struct{}),
		gone:  make(chan struct{}),
	}
	ws.SetPingHandler(c.onPing)
	ws.SetPongHandler(c.onPong)
	ws.SetCloseHandler(func(int, string) error { return nil }) // the writer answers (closeFrom)
	go c.writer()
	go c.reader()
	return c
}

// Send queues msg, a text message, for the writer; msg must not be changed afterwards (several
// connections may share one slice). It never blocks. It returns nil once queued (not yet
// delivered); a *FrameError (ErrTooLarge) for a message over Options.MaxFrame, which is not sent
// while the connection goes on; or, once the connection is ending, its reason (Err). A full
// queue drops the connection (ErrSlowReader) and Send returns that.
func (c *Conn) Send(msg []byte) error {
	if len(msg) > c.opts.MaxFrame {
		return &FrameError{Err: ErrTooLarge, Size: len(msg), Limit: c.opts.MaxFrame}
	}
	select {
	case <-c.done:
		return c.end.reason
	default:
	}
	select {
	case c.queue <- msg:
		return nil
	default:
		c.drop(ErrSlowReader)
		<-c.done
		return c.end.reason
	}
}

// Close closes the connection gracefully with code 1000 (normal closure): see CloseWith.
func (c *Conn) Close() { c.CloseWith(websocket.CloseNormalClosure, "") }

// CloseWith closes the connection gracefully: the writer sends what is queued, then a close
// frame with code and text (RFC 6455 §7.4; a code an endpoint may not send, such as 1005,
// 1006 or one below 1000, is sent as 1000; text is cut to fit the 123 bytes a close frame
// allows), waits up to Options.WriteTimeout for the peer's close frame and closes the socket.
// The reason is ErrClosed. It returns at once; Done says when it is over. Calls after the
// first, and calls on a dropped connection, do nothing.
func (c *Conn) CloseWith(code int, text string) {
	if !sendable(code) {
		code = websocket.CloseNormalClosure
	}
	if len(text) > 123 {
		text = text[:123]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	c.finish(ending{reason: ErrClosed, code: code, text: text, flush: true})
}

// sendable reports whether code may be sent in a close frame (RFC 6455 §7.4.1, §7.4.2: the
// defined codes an endpoint sends, and 3000–4999 for libraries and applications).
func sendable(code int) bool {
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014:
		return true
	}
	return code >= 3000 && code <= 4999
}

// Done is closed once the connection has ended and Handler.Closed has returned.
func (c *Conn) Done() <-chan struct{} { return c.gone }

// Err is why the connection ended (ErrClosed, or the drop's reason), nil while it runs.
func (c *Conn) Err() error {
	select {
	case <-c.done:
		return c.end.reason
	default:
		return nil
	}
}

// finish fixes how the connection ends; the first call wins.
func (c *Conn) finish(e ending) {
	c.once.Do(func() {
		c.end = e
		close(c.done)
	})
}

// drop ends the connection at once: the socket is closed under any write in progress, so the
// writer never stays blocked on a peer that does not read.
func (c *Conn) drop(reason error) {
	c.finish(ending{reason: reason})
	_ = c.ws.NetConn().Close()
}

// exit is called by the reader and the writer as each stops; the last one tells the handler.
func (c *Conn) exit() {
	if c.exited.Add(1) == 2 {
		c.h.Closed(c, c.end.reason)
		close(c.gone)
	}
}

// onPing owes the peer a pong with the ping's payload; the writer sends it. A newer ping
// replaces an unanswered one (a pong answers the most recent ping, RFC 6455 §5.5.3).
func (c *Conn) onPing(payload string) error {
	p := []byte(payload)
	for {
		select {
		case c.pongs <- p:
			return nil
		default:
		}
		select {
		case <-c.pongs:
		default:
		}
	}
}

// onPong records the peer's answer to our ping numbered by its payload.
func (c *Conn) onPong(payload string) error {
	if n, err := strconv.ParseUint(payload, 10, 64); err == nil && n == c.pinged.Load() {
		c.answered.Store(n)
	}
	return nil
}

// reader reads messages until the socket fails or the peer closes. Once the connection is
// ending it reads on without delivering, so the peer's close frame is read (and the socket is
// not closed on unread data, which would reset it before the peer reads our close frame).
func (c *Conn) reader() {
	defer c.exit()
	defer close(c.read)
	for {
		typ, r, err := c.ws.NextReader()
		if err != nil {
			c.readFailed(err)
			return
		}
		msg, size, err := c.readMessage(r)
		if err != nil {
			c.readFailed(err)
			return
		}
		select {
		case <-c.done: // ending: read on until the peer's close frame (or the socket's close), deliver nothing
			continue
		default:
		}
		switch {
		case size > c.drain:
			// a flood: refuse it as gorilla's read limit does, by closing (1009)
			c.finish(ending{reason: &FrameError{Err: ErrTooLarge, Size: size, Limit: c.opts.MaxFrame, Inbound: true},
				code: websocket.CloseMessageTooBig, text: "message too big"})
		case size > c.opts.MaxFrame:
			c.h.Refused(c, &FrameError{Err: ErrTooLarge, Size: size, Limit: c.opts.MaxFrame, Inbound: true})
		case typ == websocket.BinaryMessage:
			c.h.Refused(c, &FrameError{Err: ErrBinary, Size: size, Limit: c.opts.MaxFrame, Inbound: true})
		case !utf8.Valid(msg):
			c.h.Refused(c, &FrameError{Err: ErrBadUTF8, Size: size, Limit: c.opts.MaxFrame, Inbound: true})
		default:
			c.h.Text(c, msg)
		}
	}
}

// readMessage reads one message: its bytes when it is within MaxFrame, else only its size
// (the rest read and discarded, up to one byte past the drain limit).
func (c *Conn) readMessage(r io.Reader) (msg []byte, size int, err error) {
	msg, err = io.ReadAll(io.LimitReader(r, int64(c.opts.MaxFrame)+1))
	if err != nil || len(msg) <= c.opts.MaxFrame {
		return msg, len(msg), err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, int64(c.drain-len(msg))+1))
	return nil, len(msg) + int(n), err
}

// readFailed ends the connection after a failed read: the peer's close frame is answered with
// its code; any other failure closes the socket at once. When the connection was already
// ending, the failure is its consequence and changes nothing.
func (c *Conn) readFailed(err error) {
	var ce *websocket.CloseError
	if errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure { // 1006: gorilla's word for EOF
		c.finish(ending{reason: fmt.Errorf("%w: %w", ErrPeerGone, err), code: ce.Code})
		return
	}
	select {
	case <-c.done:
		return
	default:
	}
	c.drop(fmt.Errorf("%w: %w", ErrPeerGone, err))
}

// writer is the connection's only writer: queued messages, pongs, pings, the close frame.
func (c *Conn) writer() {
	defer c.exit()
	defer c.ws.Close()
	tick := time.NewTicker(c.opts.PingInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			c.closeOut()
			return
		case msg := <-c.queue:
			if err := c.write(websocket.TextMessage, msg); err != nil {
				return
			}
		case p := <-c.pongs:
			if err := c.write(websocket.PongMessage, p); err != nil {
				return
			}
		case <-tick.C:
			sent := c.pinged.Load()
			if sent != 0 && c.answered.Load() != sent {
				c.drop(ErrPingTimeout)
				return
			}
			c.pinged.Store(sent + 1)
			if err := c.write(websocket.PingMessage, strconv.AppendUint(nil, sent+1, 10)); err != nil {
				return
			}
		}
	}
}

// write writes one frame within WriteTimeout; a failure drops the connection (a timeout as a
// slow reader, anything else as the peer gone) unless it was already ending.
func (c *Conn) write(typ int, data []byte) error {
	_ = c.ws.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout))
	var err error
	if typ == websocket.TextMessage {
		err = c.ws.WriteMessage(typ, data)
	} else {
		err = c.ws.WriteControl(typ, data, time.Now().Add(c.opts.WriteTimeout))
	}
	if err == nil {
		return nil
	}
	select {
	case <-c.done:
		return err
	default:
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		c.drop(ErrSlowReader)
	} else {
		c.drop(fmt.Errorf("%w: %w", ErrPeerGone, err))
	}
	return err
}

// closeOut ends the writer's side: on a graceful close by this side, what is queued goes
// first; then the close frame if one is owed, and the wait for the peer's (a graceful close
// of either side), bounded by WriteTimeout. The deferred ws.Close closes the socket.
func (c *Conn) closeOut() {
	e := c.end
	deadline := time.Now().Add(c.opts.WriteTimeout)
	if e.flush {
		_ = c.ws.SetWriteDeadline(deadline)
	flush:
		for {
			select {
			case msg := <-c.queue:
				if c.ws.WriteMessage(websocket.TextMessage, msg) != nil {
					return
				}
			default:
				break flush
			}
		}
	}
	if e.code == 0 {
		return
	}
	if c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(e.code, e.text), deadline) != nil {
		return
	}
	wait := time.NewTimer(time.Until(deadline))
	defer wait.Stop()
	select {
	case <-c.read:
	case <-wait.C:
	}
}
