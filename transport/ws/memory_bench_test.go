package ws

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

var benchConns = flag.Int("ws.conns", 2000, "idle connections held by BenchmarkIdleConnMemory")

// BenchmarkIdleConnMemory measures what an idle connection costs the server: N raw clients
// (a TCP socket and a hand-written handshake, no client library, so little of the figure is
// theirs) each hold one Conn, and the heap and goroutine stacks in use grow by heap-B/conn and
// stack-B/conn. The client sockets are in the figure (a few hundred bytes each). Run:
//
//	go test -run '^$' -bench IdleConnMemory -benchtime 1x ./transport/ws/ -ws.conns 5000
func BenchmarkIdleConnMemory(b *testing.B) {
	for _, rb := range []int{4096, DefaultReadBufferSize, 256} {
		b.Run(fmt.Sprintf("read=%d", rb), func(b *testing.B) {
			for b.Loop() {
				heap, stack := idleCost(b, *benchConns, Options{ReadBufferSize: rb, PingInterval: time.Hour})
				b.ReportMetric(heap, "heap-B/conn")
				b.ReportMetric(stack, "stack-B/conn")
				b.ReportMetric(heap+stack, "total-B/conn")
			}
		})
	}
}

// idleCost opens n idle connections and returns the heap and stack bytes in use per
// connection, measured once only each connection's reader and writer are left (the HTTP
// server's goroutines have returned) against before the first.
func idleCost(b *testing.B, n int, opts Options) (heap, stack float64) {
	srv, conns := echoServerWith(b, opts, func() Handler { return discard{} })
	addr := strings.TrimPrefix(srv.URL, "http://")
	base := runtime.NumGoroutine()
	before := inUse()
	clients := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for i := range n {
		c, err := rawHandshake(addr)
		if err != nil {
			b.Fatalf("connection %d: %v", i, err)
		}
		clients = append(clients, c)
	}
	held := make([]*Conn, 0, n)
	for range n {
		held = append(held, (<-conns).conn)
	}
	for runtime.NumGoroutine() > base+2*n { // the HTTP server's goroutines, done with their upgrade, exiting
		yield()
	}
	after := inUse()
	runtime.KeepAlive(held)
	return float64(after.heap-before.heap) / float64(n), float64(after.stack-before.stack) / float64(n)
}

type usage struct{ heap, stack int64 }

// inUse is the live heap and the goroutine stacks in use, after collecting twice.
func inUse() usage {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return usage{int64(m.HeapAlloc), int64(m.StackInuse)}
}

// rawHandshake opens a WebSocket to addr by hand: the request, the 101, nothing kept but the
// socket.
func rawHandshake(addr string) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	req := "GET /ws HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		c.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReaderSize(c, 512), nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	return c, nil
}
