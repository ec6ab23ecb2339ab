package main

import (
	"reflect"
	"testing"

	brmcp "arena/transport/breakroom/mcp"
)

// TestMCPListGamesIsGetGames: list_games answers member for member what GET /v0/games answers
// (the one play.Door.Games): recommended (nobody waits: the hour's rotation), recommended_paid,
// the games and payments.
func TestMCPListGamesIsGetGames(t *testing.T) {
	r := newMCPRig(t)
	_, isErr, gl := r.call(t, brmcp.Path, "list_games", map[string]any{})
	st, gg := brHTTP(t, r.srv, "GET", "/v0/games", "", "")
	if isErr || st != 200 || !reflect.DeepEqual(gl, gg) {
		t.Fatalf("list_games %v\n/v0/games %d %v", gl, st, gg)
	}
	rec, _ := gl["recommended"].(map[string]any)
	if rec["game"] != "dilemma" || rec["reason"] != "rotation" || rec["waiting"] != float64(0) {
		t.Fatalf("recommended %v", gl["recommended"])
	}
	if _, ok := gl["recommended_paid"]; !ok || gl["payments"] == nil {
		t.Fatalf("list_games lacks recommended_paid or payments: %v", gl)
	}
}

// TestBreakroomGamesIsAWayIn: each GET /v0/games is counted in the day's ways_in (games, and in
// the total), as the start page and the protocol are.
func TestBreakroomGamesIsAWayIn(t *testing.T) {
	srv, _ := readsSite(t)
	for range 2 {
		if st, _ := brHTTP(t, srv, "GET", "/v0/games", "", ""); st != 200 {
			t.Fatalf("/v0/games: %d", st)
		}
	}
	getRaw(t, srv, "/protocol", "")
	_, sj := brHTTP(t, srv, "GET", "/v0/stats?days=1", "", "")
	w := sj["series"].([]any)[0].(map[string]any)["ways_in"].(map[string]any)
	if w["games"] != float64(2) || w["protocol"] != float64(1) || w["total"] != float64(3) {
		t.Fatalf("ways_in %v", w)
	}
}
