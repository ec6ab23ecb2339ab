package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFeedbackLinkIsServed: the scouting notice's link (§5.2, /v1/feedback) is served by `arena
// serve`: GET says how to send a note, POST keeps one (201), and the operators read it with
// `arena ops feedback`, with its round and as one line, after the server restarted too.
func TestFeedbackLinkIsServed(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	if r := s.call(ctx, "GET", "/v1/feedback", "", nil); r.status != 200 || !bytes.Contains(r.raw, []byte(`"post":"/v1/feedback"`)) {
		t.Fatalf("GET /v1/feedback: %d %s", r.status, r.raw)
	}
	r := s.call(ctx, "POST", "/v1/feedback", "", map[string]any{"text": "the bell rang\ttwice\n\x1b[31m loud", "round": "T-3"})
	if r.status != 201 {
		t.Fatalf("POST /v1/feedback: %d %s", r.status, r.raw)
	}
	if r := s.call(ctx, "POST", "/v1/feedback", "", map[string]any{"text": "hi", "extra": true}); r.status != 400 {
		t.Fatalf("POST with an unknown member: %d %s", r.status, r.raw)
	}
	s.stop()
	s = startServer(t, bin, data)

	var out, errb bytes.Buffer
	code := opsMain(ctx, []string{"feedback", "--server", s.url, "--data", data}, func(string) string { return "" }, &out, &errb)
	if code != 0 {
		t.Fatalf("arena ops feedback: exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "SEQ") || !strings.HasPrefix(lines[1], "1 ") ||
		!strings.Contains(lines[1], "T-3") || !strings.Contains(lines[1], "the bell rang twice \ufffd[31m loud") {
		t.Fatalf("arena ops feedback:\n%s", out.String())
	}
}
