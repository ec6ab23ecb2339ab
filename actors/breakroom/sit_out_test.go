package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// sitOutDilemma is a Dilemma of long pairings (eight iterations each: stop_one_in is so large
// that every horizon is the cap) and quick deadlines, so a seat can time out three times and
// still have iterations left to come back to.
func sitOutDilemma() Game {
	return Game{ID: dilemma.GameID, Name: dilemma.Name, RulesVersion: dilemma.RulesVersion, TableSize: 3, Min: 3,
		Options: json.RawMessage(`{"max_iterations":8,"stop_one_in":1000000}`), Rules: dilemmaRules,
		Pace: games.Pace{Steps: map[string]time.Duration{"turn": 400 * time.Millisecond, "away": 400 * time.Millisecond}}}
}

// lineOf is an event message's log line: its type and seat (-1 for none).
func lineOf(m wire.Outbound) (string, int) {
	ev, ok := m.(wire.Event)
	if !ok {
		return "", -1
	}
	var l struct {
		Type string `json:"type"`
		Seat *int   `json:"seat"`
	}
	if json.Unmarshal(ev.Event, &l) != nil || l.Seat == nil {
		return l.Type, -1
	}
	return l.Type, *l.Seat
}

// TestSatOutSeatComesBackOnAMoveAttempt: a seat whose agent stays connected but lets three turns
// time out sits out (sit_out); its agent's next move attempt (refused: the seat is not prompted
// while it sits out) brings it back: sit_in at the next iteration, a your_turn, and its move is
// taken. The table logs the seat's presence {"away":false} once, though the seat never was away.
func TestSatOutSeatComesBackOnAMoveAttempt(t *testing.T) {
	h := newHarness(t, sitOutDilemma())
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	rb := &reader{h: h, conn: b.join(ViaWebSocket).Conn}
	rc := &reader{h: h, conn: c.join(ViaWebSocket).Conn}
	ends := make(chan error, 2)
	for _, rd := range []*reader{rb, rc} {
		go func() { _, err := playOn(h, rd); ends <- err }()
	}
	sa, err := seatedOn(ra)
	if err != nil {
		t.Fatal(err)
	}
	var (
		ignored, moves    int
		last              wire.YourTurn
		satOut, attempted bool
		satIn, movedAfter bool
		refusedWhileOut   error
	)
	for {
		m, err := ra.next()
		if err != nil {
			t.Fatalf("Ada's connection: %v", err)
		}
		if typ, seat := lineOf(m); seat == sa.Seat {
			switch typ {
			case "sit_out":
				if ignored != 3 {
					t.Fatalf("sit_out after %d timeouts", ignored)
				}
				satOut = true
				// A move attempt while sitting out: refused, and it brings the seat back.
				refusedWhileOut = h.room.Move(context.Background(), ra.conn, &wire.Move{MatchID: sa.MatchID,
					Round: last.Round, Turn: last.Turn, Body: json.RawMessage(`{"action":"cooperate"}`)})
				attempted = true
			case "sit_in":
				if !attempted {
					t.Fatal("sit_in before the agent asked for anything")
				}
				satIn = true
			}
		}
		switch m := m.(type) {
		case wire.YourTurn:
			if !satOut {
				if ignored++; ignored > 3 {
					t.Fatalf("a fourth your_turn (%d/%d) before sit_out", m.Round, m.Turn)
				}
				last = m
				continue
			}
			if !satIn {
				t.Fatalf("your_turn %d/%d while sitting out", m.Round, m.Turn)
			}
			if err := h.room.Move(context.Background(), ra.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn,
				Body: json.RawMessage(`{"action":"defect"}`)}); err != nil {
				t.Fatalf("the move after sit_in: %v", err)
			}
			moves++
			movedAfter = true
		case wire.MatchEnd:
			if !satOut || !satIn || !movedAfter {
				t.Fatalf("match_end with sit_out %v, sit_in %v, a move after it %v", satOut, satIn, movedAfter)
			}
			var ge *games.Error
			if refusedWhileOut == nil || !errors.As(refusedWhileOut, &ge) {
				t.Errorf("the move attempt while sitting out was %v, want a refusal", refusedWhileOut)
			}
			for range 2 {
				if err := <-ends; err != nil {
					t.Fatal(err)
				}
			}
			if ps := presences(t, h, sa.MatchID); len(ps) != 1 || ps[0] != string(rune('0'+sa.Seat+1))+":back" {
				t.Errorf("presences %v, want the one that brought the seat back", ps)
			}
			if moves < 1 {
				t.Errorf("%d moves after sit_in", moves)
			}
			return
		}
	}
}
