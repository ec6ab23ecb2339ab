package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// opsServer answers /ops/* like a server whose operator token is "op_right_token_0123".
func opsServer(t *testing.T) (*httptest.Server, *[]string) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer op_right_token_0123" {
			w.WriteHeader(403)
			w.Write([]byte(`{"error":"wrong operator token","code":"forbidden","retry":false}`))
			return
		}
		switch r.Method + " " + r.URL.Path {
		case "GET /ops/tables":
			w.Write([]byte(`{"tables":[{"id":"p1","game":"blitz","round":"T-3","phase":"talk","status":"failed","seats":6,"last_error":"panic: boom"}]}`))
		case "GET /ops/checks/paid":
			w.Write([]byte(`{"check":"paid","ok":false,"findings":[{"kind":"refund","detail":"the escrow refused refund"},{"kind":"settle"}]}`))
		case "GET /ops/checks/quiet":
			w.Write([]byte(`{"check":"quiet","ok":true,"findings":[]}`))
		case "GET /ops/checks/nope":
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"no check \"nope\" on this server","code":"not_found","retry":false}`))
		case "POST /ops/tables/p1/restart", "POST /ops/tables/p1/stop":
			w.Write([]byte(`{"table":"p1","status":"ok"}`))
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"no such table","code":"unknown_table","retry":false}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func noEnv(string) string { return "" }

func TestOpsTables(t *testing.T) {
	srv, _ := opsServer(t)
	var out, errb bytes.Buffer
	code := opsMain(t.Context(), []string{"tables", "--server", srv.URL, "--token", "op_right_token_0123"}, noEnv, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "p1") ||
		!strings.Contains(lines[1], "failed") || !strings.Contains(lines[1], "panic: boom") {
		t.Fatalf("output:\n%s", out.String())
	}
}

func TestOpsRestartAndStopFlagsAfterVerb(t *testing.T) {
	srv, seen := opsServer(t)
	for _, verb := range []string{"restart", "stop"} {
		var out, errb bytes.Buffer
		if code := opsMain(t.Context(), []string{verb, "p1", "--server", srv.URL, "--token", "op_right_token_0123"}, noEnv, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", verb, code, errb.String())
		}
		if !strings.Contains(out.String(), "p1 ") {
			t.Errorf("%s output %q", verb, out.String())
		}
	}
	if got := strings.Join(*seen, ","); got != "POST /ops/tables/p1/restart,POST /ops/tables/p1/stop" {
		t.Fatalf("requests %s", got)
	}
}

func TestOpsTokenFromDataDir(t *testing.T) {
	srv, _ := opsServer(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "operator.token"), []byte("op_right_token_0123\n"), 0o600)
	var out, errb bytes.Buffer
	env := func(k string) string {
		return map[string]string{"ARENA_SERVER": srv.URL, "ARENA_DATA": dir}[k]
	}
	if code := opsMain(t.Context(), []string{"tables", "--json"}, env, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), `{"tables":`) {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
}

func TestOpsRefusals(t *testing.T) {
	srv, _ := opsServer(t)
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"wrong token", []string{"tables", "--server", srv.URL, "--token", "op_wrong_token_000000"}, 1, "forbidden"},
		{"unknown table", []string{"stop", "zz", "--server", srv.URL, "--token", "op_right_token_0123"}, 1, "unknown_table"},
		{"no verb", []string{"--server", srv.URL}, 2, "usage"},
		{"unknown verb", []string{"reboot", "p1"}, 2, "usage"},
		{"restart without id", []string{"restart"}, 2, "usage"},
		{"no token anywhere", []string{"tables", "--server", srv.URL, "--data", t.TempDir()}, 2, "no operator token"},
		{"unreachable server", []string{"tables", "--server", "http://127.0.0.1:1", "--token", "op_right_token_0123"}, 1, "arena ops"},
		{"unknown flag", []string{"tables", "--sever", srv.URL}, 2, "not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := opsMain(t.Context(), tt.args, noEnv, &out, &errb)
			if code != tt.code || !strings.Contains(errb.String(), tt.msg) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tt.code, errb.String(), tt.msg)
			}
		})
	}
}

// ops check NAME prints each finding as a JSON line and exits 1, or NAME: ok and exits 0.
func TestOpsCheck(t *testing.T) {
	srv, seen := opsServer(t)
	var out, errb bytes.Buffer
	if code := opsMain(t.Context(), []string{"check", "paid", "--server", srv.URL, "--token", "op_right_token_0123"}, noEnv, &out, &errb); code != 1 {
		t.Fatalf("findings: exit %d (%s)", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != `{"kind":"refund","detail":"the escrow refused refund"}` || lines[1] != `{"kind":"settle"}` {
		t.Fatalf("output:\n%s", out.String())
	}
	out.Reset()
	if code := opsMain(t.Context(), []string{"check", "quiet", "--server", srv.URL, "--token", "op_right_token_0123"}, noEnv, &out, &errb); code != 0 || out.String() != "quiet: ok\n" {
		t.Fatalf("no findings: exit %d, %q (%s)", code, out.String(), errb.String())
	}
	if code := opsMain(t.Context(), []string{"check", "--server", srv.URL}, noEnv, &out, &errb); code != 2 {
		t.Fatalf("check without a name: exit %d", code)
	}
	if got := (*seen)[len(*seen)-1]; got != "GET /ops/checks/quiet" {
		t.Fatalf("last request %q", got)
	}
	// A name the server has no check for is a usage error (2), never a finding (1): a script
	// alerting on findings is not paged for a typo.
	errb.Reset()
	if code := opsMain(t.Context(), []string{"check", "nope", "--server", srv.URL, "--token", "op_right_token_0123"}, noEnv, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), `no check "nope"`) {
		t.Fatalf("unknown check: exit %d (%s)", code, errb.String())
	}
}
