package main

import (
	"fmt"
	"slices"
	"testing"

	"arena/games/blitz"
	"arena/games/warden/claims"
	"arena/games/warden/dilemma"
)

// TestBracketHostsBlitzAndDilemma: the bracket serve builds hosts every game of the manifest
// (engines) under its manifest's id, the manifest's own engine, and nothing else; DOTDOTDOT Blitz
// and the Warden's Game II are among them.
func TestBracketHostsBlitzAndDilemma(t *testing.T) {
	b, err := newBracket()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range engines() {
		id := e.Manifest().ID
		want = append(want, id)
		got, ok := b.Engine(id)
		if !ok || got.Manifest().Name != e.Manifest().Name || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", e) {
			t.Errorf("manifest game %q: bracket holds %T (%v), want %T", id, got, ok, e)
		}
	}
	var ids []string
	for _, m := range b.Manifests() {
		ids = append(ids, m.ID)
	}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("bracket %v, manifest %v", ids, want)
	}
	for _, id := range []string{blitz.ID, claims.GameID, dilemma.GameID} {
		if !slices.Contains(ids, id) {
			t.Errorf("bracket %v does not host %q", ids, id)
		}
	}
}
