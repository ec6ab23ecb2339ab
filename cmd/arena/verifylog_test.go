package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workedExample is the Dilemma's worked example log (breakroom-games.md §5.11), kept beside the
// engine.
const workedExample = "../../games/breakroom/dilemma/testdata/worked_example.jsonl"

func runVerifyLog(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := verifyLogMain(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestVerifyLog: the worked example's log re-simulates (exit 0), from a file and from a URL; a
// log with one choice altered fails at the first line that differs (exit 1, naming it); a log
// cut short before its end fails; what is not a log, or names a game the command does not
// re-simulate, is exit 2.
func TestVerifyLog(t *testing.T) {
	raw, err := os.ReadFile(workedExample)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if code, out, errOut := runVerifyLog(t, workedExample); code != 0 || !strings.HasPrefix(out, "ok: dilemma match, 37 of 37 lines") || errOut != "" {
		t.Fatalf("worked example: exit %d, %q, %q", code, out, errOut)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(raw) }))
	defer srv.Close()
	if code, out, _ := runVerifyLog(t, srv.URL+"/r/m_test.jsonl"); code != 0 || !strings.HasPrefix(out, "ok:") {
		t.Fatalf("URL: exit %d, %q", code, out)
	}

	dir := t.TempDir()
	write := func(name string, ls []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(ls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	altered := append([]string(nil), lines...)
	at := -1
	for i, l := range altered {
		if strings.Contains(l, `"type":"action_private"`) && strings.Contains(l, `"action":"cooperate"`) {
			altered[i], at = strings.Replace(l, `"action":"cooperate"`, `"action":"defect"`, 1), i
			break
		}
	}
	if at < 0 {
		t.Fatal("the worked example has no cooperate to alter")
	}
	code, out, _ := runVerifyLog(t, write("altered.jsonl", altered))
	if code != 1 || !strings.HasPrefix(out, "FAIL line ") || !strings.Contains(out, "log:") || !strings.Contains(out, "re-simulated:") {
		t.Fatalf("altered choice: exit %d, %q", code, out)
	}
	if code, out, _ := runVerifyLog(t, write("cut.jsonl", lines[:len(lines)-1])); code != 1 || !strings.HasPrefix(out, "FAIL") {
		t.Fatalf("log without its end: exit %d, %q", code, out)
	}
	other := strings.Replace(lines[0], `"game":"dilemma"`, `"game":"chess"`, 1)
	for name, args := range map[string][]string{
		"missing file": {filepath.Join(dir, "none.jsonl")},
		"not a log":    {write("text.jsonl", []string{"hello"})},
		"no start":     {write("nostart.jsonl", lines[1:])},
		"other game":   {write("chess.jsonl", append([]string{other}, lines[1:]...))},
		"no argument":  {},
	} {
		if code, _, errOut := runVerifyLog(t, args...); code != 2 || errOut == "" {
			t.Errorf("%s: exit %d, stderr %q; want 2 and a reason", name, code, errOut)
		}
	}
}

// TestVerifyLogLocalhostName: a log URL naming a .localhost host (the log_url a Break Room
// server hands out by default, http://breakroom.localhost:<port>/r/{id}.jsonl) is read from the
// loopback address with its Host kept, whether or not the system resolver knows the name.
func TestVerifyLogLocalhostName(t *testing.T) {
	raw, err := os.ReadFile(workedExample)
	if err != nil {
		t.Fatal(err)
	}
	var host string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host = r.Host
		_, _ = w.Write(raw)
	}))
	defer srv.Close()
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	url := "http://breakroom.localhost:" + port + "/r/m_test.jsonl"
	if code, out, errOut := runVerifyLog(t, url); code != 0 || !strings.HasPrefix(out, "ok: dilemma match, 37 of 37 lines") {
		t.Fatalf("%s: exit %d, %q, %q", url, code, out, errOut)
	}
	if host != "breakroom.localhost:"+port {
		t.Errorf("the request's Host is %q, want breakroom.localhost:%s", host, port)
	}
	for addr, want := range map[string]string{
		"breakroom.localhost:80": "127.0.0.1:80", "A.B.LOCALHOST.:1": "127.0.0.1:1",
		"localhost:8080": "localhost:8080", "example.com:443": "example.com:443",
		"notlocalhost:1": "notlocalhost:1", "[::1]:2": "[::1]:2",
	} {
		if got := loopbackFor(addr); got != want {
			t.Errorf("loopbackFor(%q) = %q, want %q", addr, got, want)
		}
	}
}
