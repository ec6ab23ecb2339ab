package ws

import (
	"encoding/binary"
	"io"
	"testing"

	"github.com/gorilla/websocket"
)

// discard is a Handler that keeps nothing (the fuzzer may send any number of messages).
type discard struct{}

func (discard) Text(*Conn, []byte)   {}
func (discard) Refused(*Conn, error) {}
func (discard) Closed(*Conn, error)  {}

// frames turns fuzz bytes into client frames, masked as a client's are: each frame is a
// header byte (FIN, RSV and opcode bits as given), a length byte (255: a 64-bit length from
// the next 8 bytes, which may promise more than follows) and that much payload from what is
// left. A first byte of 0 sends the bytes raw instead.
func frames(b []byte) []byte {
	if len(b) > 0 && b[0] == 0 {
		return b[1:]
	}
	var out []byte
	for len(b) >= 2 {
		head, n := b[0], int(b[1])
		b = b[2:]
		var length uint64 = uint64(n)
		if n == 255 && len(b) >= 8 {
			length = binary.BigEndian.Uint64(b)
			b = b[8:]
		}
		out = append(out, head)
		switch {
		case length < 126:
			out = append(out, 0x80|byte(length))
		case length <= 0xffff:
			out = append(out, 0x80|126, byte(length>>8), byte(length))
		default:
			out = append(out, 0x80|127)
			out = binary.BigEndian.AppendUint64(out, length)
		}
		mask := [4]byte{1, 2, 3, 4}
		out = append(out, mask[:]...)
		take := min(uint64(len(b)), length)
		for i, c := range b[:take] {
			out = append(out, c^mask[i%4])
		}
		b = b[take:]
	}
	return out
}

// FuzzInboundFrames: any bytes after the handshake (well-formed frames of any opcode, flags
// and length, or raw) never panic the connection, and it always ends once the client goes.
func FuzzInboundFrames(f *testing.F) {
	f.Add([]byte{0x81, 5, 'h', 'e', 'l', 'l', 'o'})                          // text
	f.Add([]byte{0x82, 2, 0, 1})                                             // binary
	f.Add([]byte{0x01, 2, 'a', 'b', 0x80, 2, 'c', 'd'})                      // fragmented text
	f.Add([]byte{0x89, 1, '1', 0x8a, 1, '1'})                                // ping, pong
	f.Add([]byte{0x88, 2, 0x03, 0xe8})                                       // close 1000
	f.Add([]byte{0x88, 1, 0x03})                                             // bad close payload
	f.Add([]byte{0x81, 255, 0, 0, 0, 0, 0, 1, 0, 0, 'x'})                    // a 64 KiB promise
	f.Add([]byte{0x81, 255, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) // huge length
	f.Add([]byte{0xc1, 1, 'x'})                                              // RSV1 without compression
	f.Add([]byte{0x83, 0})                                                   // reserved opcode
	f.Add([]byte{0, 'G', 'E', 'T', ' ', '/'})                                // raw garbage
	f.Fuzz(func(t *testing.T, b []byte) {
		c, cli := pipeWith(t, Options{MaxFrame: 64, DrainLimit: 256}, discard{})
		raw := cli.NetConn()
		go io.Copy(io.Discard, raw) // whatever the server writes (pongs, close frames)
		raw.Write(frames(b))
		raw.Close()
		<-c.Done()
		if c.Err() == nil {
			t.Fatal("ended without a reason")
		}
	})
}

// pipeWith is pipeConn with the caller's handler.
func pipeWith(t testing.TB, opts Options, h Handler) (*Conn, *websocket.Conn) {
	t.Helper()
	c, _, cli := pipeConnHandler(t, opts, h)
	return c, cli
}
