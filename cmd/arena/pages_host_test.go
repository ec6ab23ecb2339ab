package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The table page /t/{code} tells people and assistants where to send their walk-in token (the
// connector URL, the `claude mcp add` line, the curl lines), and the host's 201 names the link
// to hand out. Both are built from the operator's public URL (ARENA_PUBLIC_URL), never from the
// request's Host header: a request with a forged Host (or a shared cache in front of the arena)
// must not make the arena itself print "send your token to https://evil.example/mcp".
func TestTablePageDoesNotTrustAForgedHost(t *testing.T) {
	t.Setenv("ARENA_PUBLIC_URL", "https://arena.example")
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

	do := func(method, path, token string, body []byte) (int, []byte) {
		req, _ := http.NewRequestWithContext(ctx, method, s.url+path, bytes.NewReader(body))
		req.Host = "evil.example"
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("x-walkin", token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, raw
	}
	reg := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": "Host Hostile"})
	tok, _ := reg.body["token"].(string)
	if tok == "" {
		t.Fatalf("register: %d %s", reg.status, reg.raw)
	}
	code, raw := do("POST", "/v1/walkin/host", tok, []byte(`{"format":"short"}`))
	var hosted map[string]any
	_ = json.Unmarshal(raw, &hosted)
	link, _ := hosted["link"].(string)
	if code != 201 || hosted["code"] == nil {
		t.Fatalf("host: %d %s", code, raw)
	}
	if !strings.HasPrefix(link, "https://arena.example/") {
		t.Errorf("host link %q: want it on the configured public URL https://arena.example, not the request's Host", link)
	}
	code, page := do("GET", "/t/"+hosted["code"].(string), "", nil)
	if code != 200 {
		t.Fatalf("/t/%s: %d", hosted["code"], code)
	}
	if bytes.Contains(page, []byte("evil.example")) {
		t.Errorf("/t/%s names the forged Host in its join lines:\n%s", hosted["code"], page)
	}
	if !bytes.Contains(page, []byte("https://arena.example/mcp")) {
		t.Errorf("/t/%s does not name the configured connector URL https://arena.example/mcp", hosted["code"])
	}
}
