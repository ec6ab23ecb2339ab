package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"arena/chain/badge"
)

// TestInstanceCardRegistrationIsANumber: `arena serve` on its defaults (no --agent: the stand-in
// Badge derived from the instance key) serves an instance card whose registrations entry carries
// the Badge's token id as a JSON number (§4.2), the same token id as its agent id, on the
// registry its Badge is a token of; and the card reads back through chain/badge's strict reader.
func TestInstanceCardRegistrationIsANumber(t *testing.T) {
	bin := buildArena(t)
	s := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c := s.call(ctx, "GET", "/.well-known/agent.json", "", nil)
	var card struct {
		Agent         string `json:"agent"`
		Registrations []struct {
			AgentID       json.RawMessage `json:"agentId"`
			AgentRegistry string          `json:"agentRegistry"`
		} `json:"registrations"`
	}
	if err := json.Unmarshal(c.raw, &card); err != nil || c.status != 200 || len(card.Registrations) != 1 {
		t.Fatalf("instance card %d %s: %v", c.status, c.raw, err)
	}
	var n uint64
	if err := json.Unmarshal(card.Registrations[0].AgentID, &n); err != nil {
		t.Fatalf("registrations agentId %s is not a number: %v", card.Registrations[0].AgentID, err)
	}
	id, err := badge.ParseAgentID(card.Agent)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := id.BadgeTokenID()
	reg := badge.Contract{Chain: id.Chain, Index: id.Token.Index, Subindex: id.Token.Subindex}
	if n != tok || card.Registrations[0].AgentRegistry != reg.String() {
		t.Fatalf("registrations %s on %s, want token %d of %s", card.Registrations[0].AgentID, card.Registrations[0].AgentRegistry, tok, reg)
	}
	if _, err := badge.ParseCard(c.raw); err != nil {
		t.Fatalf("the instance card does not read back: %v", err)
	}
}
