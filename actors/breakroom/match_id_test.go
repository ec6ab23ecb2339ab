package breakroom

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"arena/actors"
	"arena/games"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

var matchIDForm = regexp.MustCompile(`^m_[0-9a-f]{16}$`)

// TestMatchIDsAreTheProtocols: a match the room opens is named "m_" and 16 hex digits in seated,
// in its log's match_start and end lines, and its log is read by that id; the house's round of
// the table is that id.
func TestMatchIDsAreTheProtocols(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	ends := make(chan wire.MatchEnd, len(as))
	var seated wire.Seated
	rds := make([]*reader, len(as))
	for i, a := range as {
		rds[i] = &reader{h: h, conn: a.join(ViaWebSocket).Conn}
	}
	for i, rd := range rds {
		s, err := seatedOn(rd)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			seated = s
		}
		go func() { me, _ := playOn(h, rd); ends <- me }()
	}
	if !matchIDForm.MatchString(seated.MatchID) {
		t.Fatalf("match id %q", seated.MatchID)
	}
	for range as {
		if me := <-ends; me.MatchID != seated.MatchID {
			t.Fatalf("match_end names %q", me.MatchID)
		}
	}
	lines, err := h.room.Log(context.Background(), seated.MatchID, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, len(lines) - 1} {
		var l struct {
			MatchID string `json:"match_id"`
		}
		if json.Unmarshal(lines[i], &l) != nil || l.MatchID != seated.MatchID {
			t.Fatalf("line %d: %s", i, lines[i])
		}
	}
	if rep := dilemma.Verify(lines); !rep.OK {
		t.Fatalf("%+v", rep)
	}
}

// TestHouseRoundIDsStillLoad: a match stored with the house's "T-<n>" round id (as matches were
// named before) is recovered under it at boot: its agent re-joins and is seated at "T-<n>", and its
// log is read by it.
func TestHouseRoundIDsStillLoad(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	as := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
	table := "br-dilemma-0123456789abcdef"
	se := seating{Table: table, Game: dilemma.GameID, Tier: "rookie", Ranked: true}
	spec := actors.TableSpec{ID: table, Game: dilemma.GameID, Kind: "rookie", Pace: shortDilemma(3, 3).Pace,
		Options: shortDilemma(3, 3).Options}
	for i, a := range as {
		se.Seats = append(se.Seats, seatRec{Seat: i + 1, Key: a.key, Name: a.name})
		spec.Seats = append(spec.Seats, actors.SeatSpec{Seat: games.Seat{Seat: i + 1, Agent: a.key, Name: a.name}, Kind: "agent",
			Channel: ChannelSeat, Actor: ActorName})
	}
	raw, _ := json.Marshal(se)
	if err := h.store.PutBreakroomTable(table, raw); err != nil {
		t.Fatal(err)
	}
	round, err := h.arena.OpenTable(context.Background(), spec)
	if err != nil || round != "T-1" {
		t.Fatalf("round %q, %v", round, err)
	}
	h.stop()
	h.start(shortDilemma(3, 3))
	j := as[0].join(ViaWebSocket)
	if s, ok := j.First.(wire.Seated); !ok || s.MatchID != "T-1" {
		t.Fatalf("the re-join answered %#v", j.First)
	}
	if lines, err := h.room.Log(context.Background(), "T-1", PublicViewer); err != nil || len(lines) == 0 {
		t.Fatalf("log of T-1: %d lines, %v", len(lines), err)
	}
}
