package breakroom

import (
	"testing"
	"time"

	"arena/storage"
)

// A key's live handle (kept in the store by the identity door) is its seated.players handle,
// name@ the site's host; a key with none, or whose handle was revoked, has none.
func TestSeatedPlayersCarryHandles(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	at := time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)
	if err := h.store.ClaimBreakroomHandle(storage.BreakroomHandle{Name: "ada", Pubkey: a.key, ClaimedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.ClaimBreakroomHandle(storage.BreakroomHandle{Name: "cy-old", Pubkey: c.key, ClaimedAt: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.RevokeBreakroomHandle("cy-old", at, "test"); err != nil {
		t.Fatal(err)
	}
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	b.join(ViaHTTP)
	c.join(ViaHTTP) // the third opens the table (size 3)
	s, err := seatedOn(ra)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{a.key: "ada@breakroom.test", b.key: "", c.key: ""}
	if len(s.Players) != 3 {
		t.Fatalf("players %+v", s.Players)
	}
	for _, p := range s.Players {
		if h, ok := want[p.Pubkey]; !ok || p.Handle != h {
			t.Fatalf("player %+v: handle %q, want %q", p, p.Handle, h)
		}
	}
}
