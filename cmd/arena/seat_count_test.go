package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestSeatCountsOverHTTP: `arena serve` opens Blitz tables of the seats a walk-in asks for within
// the manifest's 6 to 8 (§5.6): an eight-seat Practice (its first envelope says so in
// state.format.seats), a seven-seat hosted table; nine seats are refused with 400.
func TestSeatCountsOverHTTP(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	reg := func(name string) string {
		r := s.call(ctx, "POST", "/v1/walkin", "", map[string]any{"name": name})
		tok, _ := r.body["token"].(string)
		if r.status != 201 || tok == "" {
			t.Fatalf("register %s: %d %s", name, r.status, r.raw)
		}
		return tok
	}
	ann, bo := reg("Seats Ann"), reg("Seats Bo")
	if r := s.call(ctx, "POST", "/v1/walkin/join", ann, map[string]any{"table": "practice", "seats": 9}); r.status != 400 {
		t.Fatalf("a Practice of 9: %d %s", r.status, r.raw)
	}
	if r := s.call(ctx, "POST", "/v1/walkin/host", bo, map[string]any{"format": "blitz", "seats": 9}); r.status != 400 {
		t.Fatalf("a hosted table of 9: %d %s", r.status, r.raw)
	}
	if r := s.call(ctx, "POST", "/v1/walkin/host", bo, map[string]any{"format": "blitz", "seats": 7}); r.status != 201 || r.body["seats"] != float64(7) {
		t.Fatalf("a hosted table of 7: %d %s", r.status, r.raw)
	}
	if r := s.call(ctx, "POST", "/v1/walkin/join", ann, map[string]any{"table": "practice", "seats": 8}); r.status != 200 {
		t.Fatalf("a Practice of 8: %d %s", r.status, r.raw)
	}
	for {
		r := s.call(ctx, "GET", "/v1/walkin/next?wait=30", ann, nil)
		if r.status != 200 {
			t.Fatalf("next %d %s", r.status, r.raw)
		}
		if r.body["waiting"] == true {
			continue
		}
		st, _ := r.body["state"].(map[string]any)
		f, _ := st["format"].(map[string]any)
		if f["seats"] != float64(8) {
			t.Fatalf("the first envelope's state.format %v", f)
		}
		return
	}
}
