package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/wire"
)

// playOn plays a socket connection to its match_end, cooperating.
func playOn(h *harness, rd *reader) (wire.MatchEnd, error) {
	for {
		m, err := rd.next()
		if err != nil {
			return wire.MatchEnd{}, err
		}
		switch m := m.(type) {
		case wire.YourTurn:
			_ = h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn,
				Body: json.RawMessage(`{"action":"cooperate"}`)})
		case wire.MatchEnd:
			return m, nil
		}
	}
}

// seatedOn reads a socket connection up to its seated message.
func seatedOn(rd *reader) (wire.Seated, error) {
	for {
		m, err := rd.next()
		if err != nil {
			return wire.Seated{}, err
		}
		if s, ok := m.(wire.Seated); ok {
			return s, nil
		}
	}
}

// presences is the presence inputs the table of match took, in order: "seat:away".
func presences(t *testing.T, h *harness, matchID string) []string {
	t.Helper()
	table, err := h.store.RoundTable(matchID)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := h.store.Inputs(table)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range ins {
		var l games.Logged
		if json.Unmarshal(in.Data, &l) != nil || l.Input.Kind != KindPresence {
			continue
		}
		var b struct{ Away bool }
		_ = json.Unmarshal(l.Input.Body, &b)
		s := "back"
		if b.Away {
			s = "away"
		}
		out = append(out, string(rune('0'+l.Input.Seat))+":"+s)
	}
	return out
}

// TestSecondConnectionTakesTheSeat: at a ranked table of three agents, a second socket join of a
// seated key takes the seat (the first connection's Next ends with ErrReplaced) and hears seated
// then state; a second HTTP join gives a new token and the old one is unauthorized; a move for
// another match is unknown_match; the match is played out and counted once into each key's
// reputation (no house bot: ranked).
func TestSecondConnectionTakesTheSeat(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	jb := b.join(ViaHTTP)
	rc := &reader{h: h, conn: c.join(ViaWebSocket).Conn}
	sa, err := seatedOn(ra)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seatedOn(rc); err != nil {
		t.Fatal(err)
	}
	for _, p := range sa.Players {
		if p.House || p.Staff {
			t.Fatalf("a full table of agents has a house seat: %+v", sa.Players)
		}
	}
	if sa.Tier != "rookie" {
		t.Errorf("tier %q", sa.Tier)
	}

	// The socket: a second join takes over.
	j2 := a.join(ViaWebSocket)
	if s, ok := j2.First.(wire.Seated); !ok || s.MatchID != sa.MatchID || s.Seat != sa.Seat {
		t.Fatalf("second join answered %#v", j2.First)
	}
	if _, err := h.room.Next(context.Background(), ra.conn, ra.after); !errors.Is(err, ErrReplaced) {
		t.Fatalf("the first socket's Next: %v, want ErrReplaced", err)
	}
	ra2 := &reader{h: h, conn: j2.Conn}
	if m := ra2.must(); m.Type() != "seated" {
		t.Fatalf("the new socket began with %s", m.Type())
	}
	if m := ra2.must(); m.Type() != "state" {
		t.Fatalf("then %s, want state", m.Type())
	}

	// HTTP: a second join gives a new token; the old one is refused.
	jb2 := b.join(ViaHTTP)
	if s, ok := jb2.First.(wire.Seated); !ok || s.Token != jb2.Conn || s.Token == jb.Conn || s.MatchID != sa.MatchID {
		t.Fatalf("HTTP re-join answered %#v", jb2.First)
	}
	_, err = h.room.State(context.Background(), jb.Conn, sa.MatchID, 0)
	if ge := new(games.Error); !errors.As(err, &ge) || ge.Code != "unauthorized" {
		t.Fatalf("the replaced token: %v", err)
	}
	err = h.room.Move(context.Background(), jb2.Conn, &wire.Move{MatchID: "T-999", Round: 1, Turn: 0, Body: json.RawMessage(`{"action":"defect"}`)})
	if ge := new(games.Error); !errors.As(err, &ge) || ge.Code != "unknown_match" {
		t.Fatalf("a move for another match: %v", err)
	}
	if _, err := h.room.Leave(context.Background(), jb2.Conn); err == nil {
		t.Fatal("a seated key left its match")
	}

	ends := make(chan error, 3)
	go func() { _, err := playOn(h, ra2); ends <- err }()
	go func() { _, err := playOn(h, rc); ends <- err }()
	go func() {
		for {
			st, err := h.room.State(context.Background(), jb2.Conn, sa.MatchID, 2*time.Second)
			if err != nil {
				ends <- err
				return
			}
			if st.Status == wire.StatusEnded {
				ends <- nil
				return
			}
			if st.Status == wire.StatusYourTurn {
				_ = h.room.Move(context.Background(), jb2.Conn, &wire.Move{MatchID: st.MatchID, Round: st.Round, Turn: st.Turn,
					Body: json.RawMessage(`{"action":"defect"}`)})
			}
		}
	}()
	for range 3 {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}
	wins := 0
	for _, ag := range []*agent{a, b, c} {
		r, err := h.room.Reputation(ag.key)
		if err != nil || r.Matches != 1 || r.AvgRank < 1 || r.AvgRank > 3 {
			t.Fatalf("%s: reputation %+v %v", ag.name, r, err)
		}
		wins += r.Wins
	}
	if wins < 1 {
		t.Fatal("nobody won")
	}
	// The defector beats two cooperators.
	if r, _ := h.room.Reputation(b.key); r.Wins != 1 || r.AvgRank != 1 {
		t.Errorf("the defector: %+v", r)
	}
	// Feedback after the end: kept, and replaced by a second note.
	if _, err := h.room.Feedback(context.Background(), jb2.Conn, &wire.Feedback{MatchID: sa.MatchID, Text: "good", Rating: 5}); err != nil {
		t.Fatal(err)
	}
	if note, err := h.store.BreakroomFeedback(sa.MatchID, b.key); err != nil || len(note) == 0 {
		t.Fatalf("feedback note %s %v", note, err)
	}
}

// TestDroppedSeatIsAwayUntilItRejoins: a seated socket that drops is away (the match takes a
// presence away for its seat, so its turns get the away deadline) until a re-join brings it back
// (presence back), and the HTTP agent's match goes on meanwhile.
func TestDroppedSeatIsAwayUntilItRejoins(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	rb := &reader{h: h, conn: b.join(ViaWebSocket).Conn}
	rc := &reader{h: h, conn: c.join(ViaWebSocket).Conn}
	sa, err := seatedOn(ra)
	if err != nil {
		t.Fatal(err)
	}
	h.room.Drop(ra.conn)
	want := string(rune('0'+sa.Seat+1)) + ":away"
	for deadline := time.Now().Add(10 * time.Second); ; {
		if ps := presences(t, h, sa.MatchID); len(ps) == 1 && ps[0] == want {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("presences %v, want [%s]", ps, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ra2 := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	// The re-join brings the seat back before anyone plays on (else the match could end first).
	waitPresences(t, h, sa.MatchID, want, string(rune('0'+sa.Seat+1))+":back")
	ends := make(chan error, 3)
	for _, rd := range []*reader{ra2, rb, rc} {
		go func() { _, err := playOn(h, rd); ends <- err }()
	}
	for range 3 {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}
	ps := presences(t, h, sa.MatchID)
	if len(ps) != 2 || ps[0] != want || ps[1] != string(rune('0'+sa.Seat+1))+":back" {
		t.Fatalf("presences %v", ps)
	}
}

// waitPresences waits until the table of match has taken want's presences.
func waitPresences(t *testing.T, h *harness, matchID string, want ...string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		ps := presences(t, h, matchID)
		if len(ps) == len(want) {
			for i := range ps {
				if ps[i] != want[i] {
					t.Fatalf("presences %v, want %v", ps, want)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("presences %v, want %v", ps, want)
		}
	}
}

// TestSilentHTTPAgentIsAway: a seated HTTP agent that makes no request for 90 s (on the room's
// clock) is away, and its next request brings it back; the live counts show the table and its
// three agents, and list that table (its match id, three agents' seats).
func TestSilentHTTPAgentIsAway(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	a, b, c := newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")
	ra := &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	rb := &reader{h: h, conn: b.join(ViaWebSocket).Conn}
	jc := c.join(ViaHTTP)
	var sc wire.Seated
	for sc.MatchID == "" {
		m, err := h.room.JoinStatus(context.Background(), jc.Conn, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		sc, _ = m.(wire.Seated)
	}
	if _, err := seatedOn(ra); err != nil {
		t.Fatal(err)
	}
	_ = rb
	live, err := h.room.Live(context.Background())
	if err != nil || len(live) != 1 || live[0].Tables != 1 || live[0].Playing != 3 || live[0].House != 0 || live[0].Waiting != 0 ||
		len(live[0].Running) != 1 || live[0].Running[0].MatchID != sc.MatchID || live[0].Running[0].Agents != 3 || live[0].Running[0].House != 0 {
		t.Fatalf("live %+v %v", live, err)
	}
	seat := string(rune('0' + sc.Seat + 1))
	h.lobby.Advance(HTTPSilence - time.Second)
	time.Sleep(20 * time.Millisecond) // a presence, were one wrongly sent, would reach the table
	if ps := presences(t, h, sc.MatchID); len(ps) != 0 {
		t.Fatalf("away before 90 s of silence: %v", ps)
	}
	h.lobby.Advance(2 * time.Second)
	waitPresences(t, h, sc.MatchID, seat+":away")
	if _, err := h.room.State(context.Background(), jc.Conn, sc.MatchID, 0); err != nil {
		t.Fatal(err)
	}
	waitPresences(t, h, sc.MatchID, seat+":away", seat+":back")
}
