package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// `arena ops members` reads /healthz without a token: a cluster member's membership prints one
// line a member with its own marked *, a server run alone says so (exit 0), and a server that
// cannot be reached exits 1.
func TestOpsMembersReadsHealthz(t *testing.T) {
	body := `{"status":"ok"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	noEnv := func(string) string { return "" }

	var out, errb bytes.Buffer
	if code := opsMain(t.Context(), []string{"members", "--server", srv.URL}, noEnv, &out, &errb); code != 0 || out.String() != "this server runs alone (no --cluster)\n" {
		t.Fatalf("alone: exit %d, out %q, err %q", code, out.String(), errb.String())
	}

	body = `{"status":"ok","cluster":{"self":{"id":"arena@B","address":"127.0.0.1:7002"},"members":[` +
		`{"id":"arena@A","address":"127.0.0.1:7001"},{"id":"arena@B","address":"127.0.0.1:7002"}]}}`
	out.Reset()
	if code := opsMain(t.Context(), []string{"members", "--server", srv.URL}, noEnv, &out, &errb); code != 0 {
		t.Fatalf("members: exit %d, err %q", code, errb.String())
	}
	var got [][]string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		got = append(got, strings.Fields(l))
	}
	want := [][]string{{"ID", "ADDRESS", "SELF"}, {"arena@A", "127.0.0.1:7001"}, {"arena@B", "127.0.0.1:7002", "*"}}
	if len(got) != len(want) {
		t.Fatalf("members printed %q", out.String())
	}
	for i := range want {
		if strings.Join(got[i], " ") != strings.Join(want[i], " ") {
			t.Fatalf("line %d is %q, want %q (all: %q)", i, got[i], want[i], out.String())
		}
	}

	srv.Close()
	out.Reset()
	if code := opsMain(t.Context(), []string{"members", "--server", srv.URL}, noEnv, &out, &errb); code != 1 {
		t.Fatalf("server gone: exit %d, want 1", code)
	}
}
