// Package ws is the arena's WebSocket connection plumbing (gorilla/websocket), protocol-free: a
// protocol's door upgrades a request with an Upgrader and speaks its own messages through the
// Conn it gets; nothing here reads a message's contents.
//
// What a Conn guarantees:
//
//   - Frames are bounded in both directions (Options.MaxFrame, bytes of one message's payload; a
//     fragmented message counts whole). Send refuses an outbound message over the limit with a
//     *FrameError (ErrTooLarge) and sends nothing; the connection is untouched. An inbound message
//     over the limit is read and discarded and handed to Handler.Refused as a *FrameError
//     (ErrTooLarge): the connection stays usable and the handler answers it in its protocol's
//     words. Only a message past Options.DrainLimit closes the connection, with close code 1009
//     (message too big), as gorilla's own read limit does; the rest of a flood is read and thrown
//     away only until the peer's close frame, Options.WriteTimeout at most.
//     Binary messages and text that is not UTF-8 are refused the same way (ErrBinary,
//     ErrBadUTF8).
//   - Liveness: a ping every Options.PingInterval carrying a sequence number; a connection whose
//     peer has not answered the previous ping with its pong (the same payload, RFC 6455 §5.5.3)
//     by the next tick is closed and reported with ErrPingTimeout. A peer that answers pings
//     stays, however long it is silent otherwise.
//   - Exactly one writer goroutine per connection: data, pings, pongs and close frames are all
//     written by it, from a bounded send queue (Options.QueueLen). Send never blocks: when the
//     queue is full the peer is a slow reader, the connection is dropped at once (the socket is
//     closed under a blocked write) and reported with ErrSlowReader, so one slow peer never stalls
//     its sender. (gorilla itself writes a close frame from the reading goroutine on a protocol
//     violation just before the read fails; that goes through its WriteControl, which it
//     serialises with every other write, so it never races the writer.)
//   - One reader goroutine delivers each inbound text message to Handler.Text, in order.
//   - Close and CloseWith are idempotent and safe from any goroutine; a graceful close flushes
//     what is queued, sends the close frame and waits (Options.WriteTimeout at most) for the
//     peer's. Handler.Closed is called exactly once, after both goroutines have stopped, with the
//     reason: ErrClosed when this side closed, anything else means the connection was dropped
//     (ErrPeerGone, ErrPingTimeout, ErrSlowReader, ErrTooLarge).
package ws
