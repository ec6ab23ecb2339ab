package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// TestSeatTakenOwnerIsTheHouseAccount: on `arena serve` (the embedded devchain), a walk-in's
// Practice publishes in each seat.taken (§15) the owner of the seat's Badge: every seat there
// is lent a house Badge, so every owner is the house identity account, the one the instance
// card names as its own Badge's owner (§3); the walk-in's seat is its own (byo), the house
// seats the roster (arena).
func TestSeatTakenOwnerIsTheHouseAccount(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	var card struct {
		Capabilities struct {
			Extensions []struct {
				Params struct {
					Owner struct {
						Account string `json:"account"`
					} `json:"owner"`
				} `json:"params"`
			} `json:"extensions"`
		} `json:"capabilities"`
	}
	c := s.call(ctx, "GET", "/.well-known/agent.json", "", nil)
	if err := json.Unmarshal(c.raw, &card); err != nil || len(card.Capabilities.Extensions) != 1 || card.Capabilities.Extensions[0].Params.Owner.Account == "" {
		t.Fatalf("instance card %d %s: %v", c.status, c.raw, err)
	}
	house := card.Capabilities.Extensions[0].Params.Owner.Account

	round, _ := playPractice(t, ctx, s, "short")
	tr := s.call(ctx, "GET", "/v1/rounds/"+round+"/transcript", "", nil)
	var body struct {
		Events []struct {
			Type    string `json:"type"`
			Payload struct {
				Seat  int     `json:"seat"`
				Kind  string  `json:"kind"`
				Owner *string `json:"owner"`
			} `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(tr.raw, &body); err != nil || tr.status != 200 {
		t.Fatalf("transcript %d: %v", tr.status, err)
	}
	n := 0
	for _, e := range body.Events {
		if e.Type != "seat.taken" {
			continue
		}
		n++
		p := e.Payload
		want := "arena"
		if p.Seat == 1 {
			want = "byo"
		}
		if p.Kind != want || p.Owner == nil || *p.Owner != house {
			t.Errorf("seat %d: kind %q owner %v, want %q owned by %s", p.Seat, p.Kind, p.Owner, want, house)
		}
	}
	if n != 3 {
		t.Fatalf("%d seat.taken events, want 3", n)
	}
}
