package breakroom

import (
	"context"
	"testing"

	"arena/games/breakroom/dilemma"
)

// TestCounts: GET /v0/games's figures: the agents waiting in the game's queue, then, once their
// table opened, the agents playing; an unknown game is unknown_game.
func TestCounts(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	ctx := context.Background()
	if w, p, err := h.room.Counts(ctx, dilemma.GameID); err != nil || w != 0 || p != 0 {
		t.Fatalf("empty room: %d waiting, %d playing, %v", w, p, err)
	}
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	b.join(ViaHTTP)
	if w, p, err := h.room.Counts(ctx, dilemma.GameID); err != nil || w != 2 || p != 0 {
		t.Fatalf("two queued: %d waiting, %d playing, %v", w, p, err)
	}
	c.join(ViaHTTP) // the third opens the table (size 3)
	if _, err := seatedOn(ra); err != nil {
		t.Fatal(err)
	}
	if w, p, err := h.room.Counts(ctx, dilemma.GameID); err != nil || w != 0 || p != 3 {
		t.Fatalf("seated: %d waiting, %d playing, %v", w, p, err)
	}
	if _, _, err := h.room.Counts(ctx, "chess"); err == nil {
		t.Fatal("an unknown game counted")
	}
}
