package a2a

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkRoundTrip is one A2A call on loopback: message/send with a signed-envelope-sized data
// part to a hand-written JSON-RPC agent answering a Message at once, echo checked.
func BenchmarkRoundTrip(b *testing.B) {
	f := &fakeAgent{answer: func(env map[string]any) any { return message(echoOf(env, nil)) }}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := New(Options{})
	env := []byte(testEnvelope)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Call(context.Background(), srv.URL, env, time.Now().Add(5*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
}
