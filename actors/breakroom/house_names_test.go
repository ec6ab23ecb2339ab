package breakroom

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/dilemma"
)

// TestHouseBotsNamedAlikeEverywhere: a house bot is named by its display name (its table name)
// in seated.players, in the log's match_start players and in match_end's ranking, never "",
// and the narrator's names from the log are seated's display names; the log still re-simulates.
func TestHouseBotsNamedAlikeEverywhere(t *testing.T) {
	h := newHarness(t, shortDilemma(4, 4))
	ws, hp := newAgent(h, "Claude"), newAgent(h, "")
	wsc, hpc := make(chan wsResult, 1), make(chan httpResult, 1)
	joined := make(chan struct{}, 2)
	go func() { wsc <- wsPlay(ws, false, joined) }()
	go func() { hpc <- httpPlay(hp, joined) }()
	<-joined
	<-joined
	h.lobby.Advance(61 * time.Second)
	w, p := <-wsc, <-hpc
	if w.err != nil || p.err != nil {
		t.Fatalf("socket agent: %v; HTTP agent: %v", w.err, p.err)
	}
	s := w.seated
	display := map[int]string{}
	house := -1
	for _, pl := range s.Players {
		display[pl.Seat] = pl.DisplayName
		if pl.House {
			house = pl.Seat
			if pl.Name == "" || pl.Name != pl.DisplayName {
				t.Fatalf("seated names the house bot %q, display name %q", pl.Name, pl.DisplayName)
			}
		}
	}
	if house < 0 {
		t.Fatalf("no house bot in %+v", s.Players)
	}
	lines, err := h.room.Log(context.Background(), s.MatchID, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	if rep := dilemma.Verify(lines); !rep.OK {
		t.Fatalf("the public log does not re-simulate: %+v", rep)
	}
	var start struct {
		Players []struct {
			Seat  int    `json:"seat"`
			Name  string `json:"name"`
			House bool   `json:"house"`
		} `json:"players"`
	}
	if err := json.Unmarshal(lines[0], &start); err != nil || len(start.Players) != 4 {
		t.Fatalf("match_start %s: %v", lines[0], err)
	}
	for _, pl := range start.Players {
		if pl.Seat == house && (!pl.House || pl.Name != display[house]) {
			t.Fatalf("match_start names the house bot %q, seated %q: %s", pl.Name, display[house], lines[0])
		}
	}
	{
		e := lines[len(lines)-1]
		var end struct {
			Type    string `json:"type"`
			Ranking []struct {
				Seat int    `json:"seat"`
				Name string `json:"name"`
			} `json:"ranking"`
		}
		if err := json.Unmarshal(e, &end); err != nil || end.Type != "match_end" || len(end.Ranking) != 4 {
			t.Fatalf("the last line %s: %v", e, err)
		}
		for _, r := range end.Ranking {
			if r.Seat == house && r.Name != display[house] {
				t.Fatalf("the log's ranking names the house bot %q, seated %q", r.Name, display[house])
			}
		}
	}
	for _, r := range w.end.Ranking {
		if r.Seat == house && r.Name != display[house] {
			t.Fatalf("match_end names the house bot %q, seated %q", r.Name, display[house])
		}
	}
	names := dilemma.Engine{}.Names([]games.Event{{Type: "match_start", Payload: lines[0]}})
	for seat, n := range display {
		if names[seat+1] != n {
			t.Fatalf("the narrator names seat %d %q, seated %q", seat, names[seat+1], n)
		}
	}
}
