package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeKindsAndRatings: the served arena lists every table kind and the (empty) ratings,
// and `arena ops check ratings` finds the ratings to be the rated rounds' (none, on a fresh
// arena) and exits 0.
func TestServeKindsAndRatings(t *testing.T) {
	bin := buildArena(t)
	data := filepath.Join(t.TempDir(), "data")
	s := startServer(t, bin, data)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	k := s.call(ctx, "GET", "/v1/tables/kinds", "", nil)
	kinds, _ := k.body["kinds"].([]any)
	if k.status != 200 || len(kinds) != 9 {
		t.Fatalf("kinds %d %s", k.status, k.raw)
	}
	scouting := map[string]float64{}
	for _, x := range kinds {
		m := x.(map[string]any)
		scouting[m["kind"].(string)] = m["scouting_s"].(float64)
	}
	if scouting["rated"] != 60 || scouting["gated"] != 30 || scouting["practice"] != 90 {
		t.Fatalf("scouting %v", scouting)
	}
	r := s.call(ctx, "GET", "/v1/ratings", "", nil)
	if rs, ok := r.body["ratings"].([]any); r.status != 200 || !ok || len(rs) != 0 || !strings.HasPrefix(r.body["method"].(string), "Glicko-2") {
		t.Fatalf("ratings %d %s", r.status, r.raw)
	}
	var out, errb bytes.Buffer
	if code := opsMain(ctx, []string{"check", "ratings", "--server", s.url, "--data", data}, noEnv, &out, &errb); code != 0 {
		t.Fatalf("arena ops check ratings: exit %d: %s %s", code, out.String(), errb.String())
	}
	// The house opens a Showcase: in-house seats only; the ops list shows its kind.
	out.Reset()
	if code := opsMain(ctx, []string{"showcase", "short", "--server", s.url, "--data", data}, noEnv, &out, &errb); code != 0 {
		t.Fatalf("arena ops showcase: exit %d: %s %s", code, out.String(), errb.String())
	}
	f := strings.Fields(out.String())
	if len(f) != 3 || f[0] != "showcase" || !strings.HasPrefix(f[2], "T-") {
		t.Fatalf("ops showcase printed %q", out.String())
	}
	out.Reset()
	if code := opsMain(ctx, []string{"tables", "--server", s.url, "--data", data}, noEnv, &out, &errb); code != 0 || !strings.Contains(out.String(), f[1]) || !strings.Contains(out.String(), "showcase") {
		t.Fatalf("ops tables: exit %d:\n%s", code, out.String())
	}
	errb.Reset()
	if code := opsMain(ctx, []string{"showcase", "marathon", "--server", s.url, "--data", data}, noEnv, &out, &errb); code != 1 || !strings.Contains(errb.String(), "bad_request") {
		t.Fatalf("ops showcase marathon: exit %d: %s", code, errb.String())
	}
	if r := s.call(ctx, "POST", "/ops/showcase", "", map[string]any{}); r.status != 401 && r.status != 403 {
		t.Fatalf("a Showcase without the operator token: %d %s", r.status, r.raw)
	}
	s.stop()
}
