package breakroom

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// TestMatchSurvivesRestart: the server stops mid-match (the runtime shut down, the store closed)
// and starts again on the same store; the agents join again and are re-seated at the same seats
// of the same match (seated, then state), play it out, and its log re-simulates. Before the end the
// public log holds no private line.
func TestMatchSurvivesRestart(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	as[1].spoilers = true
	var seats []wire.Seated
	// The first run's readers keep a copy of the harness as it is now: they may still be waiting
	// on the first room while the harness starts the second.
	first := *h
	for _, a := range as {
		a.rd = &reader{h: &first, conn: a.join(ViaWebSocket).Conn}
		seats = append(seats, wire.Seated{})
	}
	for i, a := range as {
		s, err := seatedOn(a.rd)
		if err != nil {
			t.Fatal(err)
		}
		seats[i] = s
	}
	id := seats[0].MatchID
	// Play the match's first move, whoever's it is, then stop the server.
	turns := make(chan func(), len(as))
	for _, a := range as {
		go func() {
			for {
				m, err := a.rd.next()
				if err != nil {
					return
				}
				if y, ok := m.(wire.YourTurn); ok {
					turns <- func() {
						if err := h.room.Move(context.Background(), a.rd.conn, &wire.Move{MatchID: id, Round: y.Round, Turn: y.Turn,
							Body: json.RawMessage(`{"action":"defect"}`)}); err != nil {
							t.Errorf("the first move: %v", err)
						}
					}
					return
				}
			}
		}()
	}
	(<-turns)()
	lines, err := h.room.Log(context.Background(), id, PublicViewer)
	if err != nil || len(lines) == 0 {
		t.Fatalf("public log %d lines, %v", len(lines), err)
	}
	for _, l := range lines {
		var head struct {
			Type   string `json:"type"`
			Reveal string `json:"reveal"`
		}
		if err := json.Unmarshal(l, &head); err != nil || strings.HasSuffix(head.Type, "_private") || head.Reveal != "" {
			t.Fatalf("a private line in the public log before the end: %s", l)
		}
	}
	h.stop()
	h.start(shortDilemma(3, 3))

	ends := make(chan error, len(as))
	for i, a := range as {
		a.h = h
		j := a.join(ViaWebSocket)
		s, ok := j.First.(wire.Seated)
		if !ok || s.MatchID != id || s.Seat != seats[i].Seat {
			t.Fatalf("after the restart %s's join answered %#v", a.name, j.First)
		}
		rd := &reader{h: h, conn: j.Conn}
		if m := rd.must(); m.Type() != "seated" {
			t.Fatalf("first %s", m.Type())
		}
		if m := rd.must(); m.Type() != "state" {
			t.Fatalf("then %s, want state", m.Type())
		}
		go func() { _, err := playOn(h, rd); ends <- err }()
	}
	for range as {
		if err := <-ends; err != nil {
			t.Fatal(err)
		}
	}
	lines, err = h.room.Log(context.Background(), id, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	if rep := dilemma.Verify(lines); !rep.OK {
		t.Fatalf("the log after a restart does not re-simulate: %+v", rep)
	}
	for _, a := range as {
		if r, _ := h.room.Reputation(a.key); r.Matches != 1 {
			t.Errorf("%s: %+v", a.name, r)
		}
	}
}
