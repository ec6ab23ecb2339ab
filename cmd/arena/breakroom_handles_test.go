package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"arena/storage"
	"arena/transport/breakroom/openapi/openapitest"
)

// brGet is a GET on the Break Room site of s (Host breakroom.localhost): status, headers, body.
func brGet(t *testing.T, ctx context.Context, s *server, path string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+path, nil)
	req.Host = "breakroom.localhost"
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer r.Body.Close()
	raw, _ := io.ReadAll(r.Body)
	openapitest.Check(t, req, r.StatusCode, r.Header, raw)
	return r.StatusCode, r.Header, raw
}

// names is nostr.json's names for name on s.
func brNames(t *testing.T, ctx context.Context, s *server, name string) map[string]string {
	t.Helper()
	st, h, raw := brGet(t, ctx, s, "/.well-known/nostr.json?name="+name)
	var doc struct {
		Names map[string]string `json:"names"`
	}
	if st != 200 || h.Get("Access-Control-Allow-Origin") != "*" || json.Unmarshal(raw, &doc) != nil {
		t.Fatalf("nostr.json?name=%s: %d %v %s", name, st, h, raw)
	}
	return doc.Names
}

// `arena serve` makes Break Room's own Nostr key on first start and keeps it (what "_" names in
// nostr.json, the same after a restart); a handle in the store is served, listed by `arena ops
// handles` and revoked by `arena ops revoke-handle`, after which it no longer resolves, and the
// badge still reads the key's record.
func TestBreakroomHandlesServedAndRevokedThroughOps(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	s := startServer(t, bin, data)
	raw, err := os.ReadFile(filepath.Join(data, breakroomKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(data, breakroomKeyFile))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", fi.Mode())
	}
	skb, _ := hex.DecodeString(strings.TrimSpace(string(raw)))
	sk, _ := btcec.PrivKeyFromBytes(skb)
	self := hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey()))
	if n := brNames(t, ctx, s, "_"); n["_"] != self {
		t.Fatalf("_ names %v, want %s", n, self)
	}
	// The OpenAPI document is served on the Break Room site, naming the site's origin, and the
	// server's own answers fit it.
	st, _, raw := brGet(t, ctx, s, "/openapi.json")
	var doc struct {
		OpenAPI string              `json:"openapi"`
		Servers []map[string]string `json:"servers"`
	}
	if st != 200 || json.Unmarshal(raw, &doc) != nil || doc.OpenAPI != "3.1.0" || len(doc.Servers) != 1 ||
		doc.Servers[0]["url"] != "http://breakroom.localhost:"+s.url[strings.LastIndexByte(s.url, ':')+1:] {
		t.Fatalf("/openapi.json: %d %v %.200s", st, doc, raw)
	}
	for _, p := range []string{"/healthz", "/v0/games", "/v0/challenge", "/v0/agents/" + strings.Repeat("ab", 32), "/", "/llms.txt",
		"/protocol", "/rules/dilemma", "/v0/matches", "/v0/leaderboard/dilemma", "/v0/stats?days=3", "/robots.txt", "/sitemap.xml",
		"/.well-known/mcp/server-card.json"} {
		if st, _, raw := brGet(t, ctx, s, p); st != 200 {
			t.Fatalf("%s: %d %s", p, st, raw)
		}
	}
	s.stop()

	// A handle written into the stopped server's store, as a claim writes it.
	ada := strings.Repeat("ab", 32)
	store, err := storage.Open(filepath.Join(data, "arena.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.ClaimBreakroomHandle(storage.BreakroomHandle{Name: "ada", Pubkey: ada, ClaimedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	s = startServer(t, bin, data)
	if n := brNames(t, ctx, s, "_"); n["_"] != self {
		t.Fatalf("after a restart _ names %v, want %s", n, self)
	}
	if n := brNames(t, ctx, s, "ada"); n["ada"] != ada {
		t.Fatalf("ada: %v", n)
	}
	env := func(string) string { return "" }
	var out, errb bytes.Buffer
	if code := opsMain(ctx, []string{"handles", "--server", s.url, "--data", data}, env, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "ada") || !strings.Contains(out.String(), ada) {
		t.Fatalf("arena ops handles: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := opsMain(ctx, []string{"revoke-handle", "ada", "--reason", "impersonation", "--server", s.url, "--data", data}, env, &out, &errb); code != 0 ||
		out.String() != "ada revoked\n" {
		t.Fatalf("arena ops revoke-handle: exit %d\n%s%s", code, out.String(), errb.String())
	}
	errb.Reset()
	if code := opsMain(ctx, []string{"revoke-handle", "ada", "--server", s.url, "--data", data}, env, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "404 not_found") {
		t.Fatalf("second revoke: exit %d %s", code, errb.String())
	}
	if n := brNames(t, ctx, s, "ada"); len(n) != 0 {
		t.Fatalf("revoked ada still resolves: %v", n)
	}
	out.Reset()
	if code := opsMain(ctx, []string{"handles", "--json", "--server", s.url, "--data", data}, env, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), `"reason":"impersonation"`) {
		t.Fatalf("arena ops handles --json: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if st, h, raw := brGet(t, ctx, s, "/badge/"+ada+".svg"); st != 200 || !strings.HasPrefix(h.Get("Content-Type"), "image/svg+xml") ||
		!bytes.Contains(raw, []byte("no ranked matches yet")) || !bytes.Contains(raw, []byte("/agents/"+ada)) {
		t.Fatalf("badge: %d %s", st, raw)
	}
}
