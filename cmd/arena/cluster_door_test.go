package main

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"testing"
)

// echoHandler answers with the method, path, the X-Walkin header and the client address it
// saw, and the body, with status 202.
var echoHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Header().Set("X-Seen", r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Walkin")+" "+r.RemoteAddr)
	w.WriteHeader(http.StatusAccepted)
	w.Write(b)
})

// A request forwarded as bytes is served by the owner's handler with its method, URI, headers,
// body and the original client address, and its answer comes back whole (status, header, body).
func TestClusterServeRoundTrip(t *testing.T) {
	r := httptest.NewRequest("POST", "/v1/walkin/answer?x=1", bytes.NewReader([]byte(`{"turn":1}`)))
	r.Header.Set("X-Walkin", "w_abc")
	r.Header.Set(clientHeader, "192.0.2.7:5555")
	r.Header.Set("Content-Length", "10") // as the server keeps it for an incoming request
	dump, err := httputil.DumpRequest(r, true)
	if err != nil {
		t.Fatal(err)
	}
	out := newClusterDoors(nil, echoHandler, nil, nil, nil, slog.New(slog.DiscardHandler)).serve()(dump)
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
	if err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusAccepted || string(body) != `{"turn":1}` ||
		resp.Header.Get("X-Seen") != "POST /v1/walkin/answer?x=1 w_abc 192.0.2.7:5555" {
		t.Fatalf("answer %d %q %q", resp.StatusCode, resp.Header.Get("X-Seen"), body)
	}
}

// Whatever bytes arrive as a forwarded request, the owner answers a readable HTTP response
// (400 for unreadable bytes) and never panics.
func FuzzClusterServe(f *testing.F) {
	f.Add([]byte("GET /v1/walkin/next HTTP/1.1\r\nHost: a\r\nX-Walkin: w_x\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out := newClusterDoors(nil, echoHandler, nil, nil, nil, slog.New(slog.DiscardHandler)).serve()(in)
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(out)), nil)
		if err != nil {
			t.Fatalf("answer to %q is not HTTP: %v (%q)", in, err, out)
		}
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
}

// The members' own paths are not public: a client's request to /_cluster/… is answered 404 by
// the door, whatever it carries, and never reaches the router; a forwarded one with no desk to
// import into is 404 too.
func TestClusterPathsAreNotPublic(t *testing.T) {
	d := newClusterDoors(nil, echoHandler, nil, nil, nil, slog.New(slog.DiscardHandler))
	for _, p := range []string{adoptPath, "/_cluster/", "/_cluster/anything"} {
		r := httptest.NewRequest("POST", p, bytes.NewReader([]byte(`{"name":"x"}`)))
		r.Header.Set("X-Walkin", "w_"+strings.Repeat("A", 43))
		w := httptest.NewRecorder()
		d.door().ServeHTTP(w, r)
		if w.Code != http.StatusNotFound || w.Header().Get("X-Seen") != "" {
			t.Fatalf("POST %s at the door: %d %q", p, w.Code, w.Header().Get("X-Seen"))
		}
	}
	r := httptest.NewRequest("POST", adoptPath, bytes.NewReader([]byte(`{}`)))
	r.Header.Set("Content-Length", "2")
	dump, _ := httputil.DumpRequest(r, true)
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(d.serve()(dump))), nil)
	if err != nil || resp.StatusCode != http.StatusNotFound || resp.Header.Get("X-Seen") != "" {
		t.Fatalf("forwarded adopt with no desk: %v %v", resp, err)
	}
}
