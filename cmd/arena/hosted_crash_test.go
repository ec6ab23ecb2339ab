package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestServeKilledKeepsHostedTable kills the real server with SIGKILL right after a hosted table
// was answered (201: its code was saved first) and restarts it on the same data dir: the code
// still names the table, gathering with its host, the host still waits at it, and a walk-in
// joins it by the code.
func TestServeKilledKeepsHostedTable(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	register := func(s *server, name string) string {
		r := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": name})
		tok, _ := r.body["token"].(string)
		if r.status != 201 || tok == "" {
			t.Fatalf("register %s: %d %s", name, r.status, r.raw)
		}
		return tok
	}
	host, guest := register(s, "Hosting Hana"), register(s, "Guest Gus")
	h := s.call(ctx, "POST", "/v1/walkin/host", host, map[string]any{"format": "short"})
	code, _ := h.body["code"].(string)
	if h.status != 201 || len(code) != 4 {
		t.Fatalf("host: %d %s", h.status, h.raw)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()

	s2 := startServer(t, bin, data)
	got := s2.call(ctx, "GET", "/v1/tables/hosted/"+code, "", nil)
	if got.status != 200 || got.body["status"] != "gathering" || got.body["host"] != "Hosting Hana" {
		t.Fatalf("the code after SIGKILL and a restart: %d %s", got.status, got.raw)
	}
	again := s2.call(ctx, "POST", "/v1/walkin/host", host, map[string]any{"format": "short"})
	if again.status != 409 || again.body["code"] != "at_a_hosted_table" {
		t.Fatalf("the host hosting again after the restart: %d %s", again.status, again.raw)
	}
	j := s2.call(ctx, "POST", "/v1/walkin/join", guest, map[string]any{"code": code})
	if j.status != 200 || j.body["kind"] != "hosted" || j.body["status"] != "gathering" {
		t.Fatalf("join by the code after the restart: %d %s", j.status, j.raw)
	}
	got = s2.call(ctx, "GET", "/v1/tables/hosted/"+code, "", nil)
	if players, _ := got.body["players"].([]any); len(players) != 2 || players[0] != "Hosting Hana" || players[1] != "Guest Gus" {
		t.Fatalf("players after the join: %s", got.raw)
	}
}
