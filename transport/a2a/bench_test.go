package a2a

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"net/http/httptest"
	"testing"
	"time"

	"arena/actors/dotdotdot/envelope"
	"arena/chain/egress"
	"arena/games"
	"arena/games/canon"
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

// BenchmarkRoundTripEgress is BenchmarkRoundTrip through the egress client `arena serve` uses
// (dev policy: loopback http admitted; the address check pinned per dial).
func BenchmarkRoundTripEgress(b *testing.B) {
	f := &fakeAgent{answer: func(env map[string]any) any { return message(echoOf(env, nil)) }}
	srv := httptest.NewServer(f)
	defer srv.Close()
	pol := egress.Dev()
	pol.Timeout = 25 * time.Second
	c := New(Options{HTTP: egress.NewClient(pol).HTTP()})
	env := []byte(testEnvelope)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.Call(context.Background(), srv.URL, env, time.Now().Add(5*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripJSAgent is one call to the A2A JS SDK agent (testagent/) under node on
// loopback: a real signed envelope of a commit move, the agent verifying the envelope's
// signature with the instance key, signing one commitment, and answering through the SDK.
func BenchmarkRoundTripJSAgent(b *testing.B) {
	instance := ed25519.NewKeyFromSeed(make([]byte, 32))
	js := startJSAgent(b, testAgentID, 7, canon.FormatKey(instance.Public().(ed25519.PublicKey)))
	c := New(Options{})
	p := games.Prompt{Seat: 1, Move: games.Move{Turn: 2, Phase: "commit"}, Deadline: time.Now().Add(time.Hour),
		State: games.RawDoc([]byte(`{"agents":[{"seat":1,"agent":"` + testAgentID + `","alive":true},{"seat":2,"agent":"ccd:4221332d34e1694168c2a0c0b3fd0f27/cis-2:Other","alive":true}],"me":{"unlocked":60000000,"next_seq":1}}`))}
	env, err := envelope.Sign(instance, "T-1", p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		body, err := c.Call(context.Background(), js.Endpoint, env, p.Deadline)
		if err != nil || !bytes.Contains(body, []byte(`"commitments"`)) {
			b.Fatalf("%s %v", body, err)
		}
	}
}
