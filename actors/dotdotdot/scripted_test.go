package dotdotdot

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/games"
)

// TestHouseSeatsAnswerScripted: at a walk-in's Practice the house seats are played from the
// house's fallback policy, and the transcript says so in public (§15 agent.scripted {seat, turn,
// phase}) for each of them in each phase they answer; the walk-in's own seat never.
func TestHouseSeatsAnswerScripted(t *testing.T) {
	h, _ := blitzHarness(t)
	ctx := context.Background()
	token, err := h.arena.RegisterWalkin(ctx, "Ivo", "test-model")
	if err != nil {
		t.Fatal(err)
	}
	j, err := h.arena.JoinWalkin(ctx, token, JoinRequest{Format: "short"})
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Second)
	scripted := func(seat int, phase string) func(games.Event) bool {
		return func(e games.Event) bool {
			if e.Round != j.Round || e.Type != "agent.scripted" {
				return false
			}
			var p struct {
				Seat  int    `json:"seat"`
				Turn  int    `json:"turn"`
				Phase string `json:"phase"`
			}
			return json.Unmarshal(e.Payload, &p) == nil && p.Seat == seat && p.Turn == 0 && p.Phase == phase && e.Visibility == games.Public
		}
	}
	for _, seat := range []int{2, 3} {
		h.waitEvent("house seat's scouting answer", scripted(seat, "scouting"))
	}
	for _, e := range h.log {
		if e.Type == "agent.scripted" && scripted(1, "scouting")(e) {
			t.Fatalf("the walk-in's seat was announced scripted: %s", e.Payload)
		}
	}
	evs, _, err := h.arena.Transcript(ctx, j.Round)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Type == "agent.scripted" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d agent.scripted in the transcript at scouting, want 2 (one per house seat)", n)
	}
}
