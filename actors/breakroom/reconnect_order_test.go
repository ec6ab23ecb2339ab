package breakroom

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// TestReconnectHearsSeatedStateYourTurnOnce: the agent whose turn is open drops (its seat is away:
// the open turn's deadline is cut to the away deadline) and joins again on a new socket. The new
// socket hears exactly seated, state (your_turn status), your_turn, in that order; the your_turn
// carries the full deadline the seat's coming back restored (more than the away deadline's
// 5 s), and no second your_turn for that move follows before the seat moves.
func TestReconnectHearsSeatedStateYourTurnOnce(t *testing.T) {
	g := Game{ID: dilemma.GameID, Name: dilemma.Name, RulesVersion: dilemma.RulesVersion, TableSize: 3, Min: 3,
		Options: json.RawMessage(`{"max_iterations":2,"stop_one_in":2}`), Rules: dilemmaRules,
		Pace: games.Pace{Steps: map[string]time.Duration{"turn": 60 * time.Second, "away": 5 * time.Second}}}
	h := newHarness(t, g)
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	msgs := make([]chan wire.Outbound, len(as))
	for i, a := range as {
		a.rd = &reader{h: h, conn: a.join(ViaWebSocket).Conn}
		msgs[i] = make(chan wire.Outbound, 256)
		go func() {
			defer close(msgs[i])
			for {
				m, err := a.rd.next()
				if err != nil {
					return
				}
				msgs[i] <- m
				if m.Type() == "match_end" {
					return
				}
			}
		}()
	}
	who, first := -1, wire.YourTurn{}
	for who < 0 {
		for i := range as {
			select {
			case m := <-msgs[i]:
				if y, ok := m.(wire.YourTurn); ok && who < 0 {
					who, first = i, y
				}
			default:
			}
		}
	}
	a := as[who]
	h.room.Drop(a.rd.conn)
	seat := seatOfKey(t, h, first.MatchID, a.key)
	waitPresences(t, h, first.MatchID, string(rune('0'+seat))+":away")

	j := a.join(ViaWebSocket)
	rd := &reader{h: h, conn: j.Conn}
	if m := rd.must(); m.Type() != "seated" {
		t.Fatalf("first %s, want seated", m.Type())
	}
	m := rd.must()
	st, ok := m.(wire.State)
	if !ok || st.Status != wire.StatusYourTurn || st.Round != first.Round || st.Turn != first.Turn {
		t.Fatalf("then %#v, want state of the open turn %d/%d", m, first.Round, first.Turn)
	}
	m = rd.must()
	y, ok := m.(wire.YourTurn)
	if !ok || y.Round != first.Round || y.Turn != first.Turn {
		t.Fatalf("then %#v, want your_turn %d/%d", m, first.Round, first.Turn)
	}
	if y.DeadlineMs <= 5000 || st.DeadlineMs <= 5000 {
		t.Errorf("deadline_ms %d (state %d): the full deadline is not restored", y.DeadlineMs, st.DeadlineMs)
	}
	// The presence that brought the seat back is taken; move, and no second your_turn for the
	// move comes.
	waitPresences(t, h, first.MatchID, string(rune('0'+seat))+":away", string(rune('0'+seat))+":back")
	if err := h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: y.MatchID, Round: y.Round, Turn: y.Turn,
		Body: json.RawMessage(`{"action":"cooperate"}`)}); err != nil {
		t.Fatalf("the move: %v", err)
	}
	ends := make(chan error, len(as))
	for i, o := range as {
		if i == who {
			continue
		}
		go func() {
			for m := range msgs[i] {
				if y, ok := m.(wire.YourTurn); ok {
					_ = h.room.Move(context.Background(), o.rd.conn, &wire.Move{MatchID: y.MatchID, Round: y.Round, Turn: y.Turn,
						Body: json.RawMessage(`{"action":"cooperate"}`)})
				}
				if m.Type() == "match_end" {
					ends <- nil
					return
				}
			}
			ends <- errNoEnd
		}()
	}
	for {
		m := rd.must()
		if yy, ok := m.(wire.YourTurn); ok {
			if yy.Round == y.Round && yy.Turn == y.Turn {
				t.Fatalf("a second your_turn for %d/%d", y.Round, y.Turn)
			}
			_ = h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: yy.MatchID, Round: yy.Round, Turn: yy.Turn,
				Body: json.RawMessage(`{"action":"cooperate"}`)})
		}
		if m.Type() == "match_end" {
			break
		}
	}
	for range len(as) - 1 {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}
}

// seatOfKey is key's 1-based seat at match, from its log's match_start.
func seatOfKey(t *testing.T, h *harness, matchID, key string) int {
	t.Helper()
	lines, err := h.room.Log(context.Background(), matchID, PublicViewer)
	if err != nil || len(lines) == 0 {
		t.Fatalf("log: %v", err)
	}
	var ms struct {
		Players []struct {
			Seat   int    `json:"seat"`
			Pubkey string `json:"pubkey"`
		} `json:"players"`
	}
	if err := json.Unmarshal(lines[0], &ms); err != nil {
		t.Fatal(err)
	}
	for _, p := range ms.Players {
		if p.Pubkey == key {
			return p.Seat + 1
		}
	}
	t.Fatalf("no seat for %s", key)
	return 0
}
