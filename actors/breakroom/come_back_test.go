package breakroom

import (
	"context"
	"encoding/json"
	"testing"

	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// TestRequestsOfAPlayingSeatChangeNothing: the room asks the engine whether a seat comes back
// (its sit-out rule) on its key's requests; a seat that never timed out asks state after every
// line it hears while others play, and the match logs no presence at all (the engine answers
// unchanged, and nothing of it is logged), and its log re-simulates.
func TestRequestsOfAPlayingSeatChangeNothing(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	ends := make(chan error, len(as))
	ids := make(chan string, len(as))
	for _, a := range as {
		rd := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
		go func() {
			asked := 0
			for {
				m, err := rd.next()
				if err != nil {
					ends <- err
					return
				}
				switch m := m.(type) {
				case wire.YourTurn:
					_ = h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn,
						Body: json.RawMessage(`{"action":"cooperate"}`)})
				case wire.Event:
					if _, err := h.room.State(context.Background(), rd.conn, m.MatchID, 0); err == nil {
						asked++
					}
				case wire.MatchEnd:
					if asked == 0 {
						ends <- errNoEnd
						return
					}
					ids <- m.MatchID
					ends <- nil
					return
				}
			}
		}()
	}
	for range as {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}
	id := <-ids
	if ps := presences(t, h, id); len(ps) != 0 {
		t.Errorf("presences %v, want none", ps)
	}
	lines, err := h.room.Log(context.Background(), id, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	if rep := dilemma.Verify(lines); !rep.OK {
		t.Fatalf("the log does not re-simulate: %+v", rep)
	}
}
