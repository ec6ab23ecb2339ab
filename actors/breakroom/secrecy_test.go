package breakroom

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// lineHead is what the secrecy checks read of a log line.
type lineHead struct {
	Type   string `json:"type"`
	Reveal string `json:"reveal"`
	Seat   *int   `json:"seat"`
	To     []int  `json:"to"`
}

// TestPublicLogKeepsSecrets: over several matches of random play, the public log holds no private
// line while the match runs, a seat's own copy holds only its own private lines, and once the
// match is over the public copy adds the lines revealed at the end and re-simulates.
func TestPublicLogKeepsSecrets(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	ctx := context.Background()
	for game := range 4 {
		rnd := rand.New(rand.NewPCG(uint64(game), 7))
		agents := []*agent{newAgent(h, "Ada"), newAgent(h, "Bea"), newAgent(h, "Cy")}
		tokens := make([]string, 3)
		seats := make([]int, 3)
		var match string
		for i, a := range agents {
			tokens[i] = a.join(ViaHTTP).Conn
		}
		for i := range agents {
			for {
				m, err := h.room.JoinStatus(ctx, tokens[i], time.Second)
				if err != nil {
					t.Fatal(err)
				}
				if s, ok := m.(wire.Seated); ok {
					match, seats[i] = s.MatchID, s.Seat
					break
				}
			}
		}
		checked, ended := 0, 0
		for ended < 3 {
			ended = 0
			for i := range agents {
				st, err := h.room.State(ctx, tokens[i], match, 0)
				if err != nil {
					t.Fatal(err)
				}
				switch st.Status {
				case wire.StatusEnded:
					ended++
				case wire.StatusYourTurn:
					// Look at the logs before each move.
					checkRunningLogs(t, h, match, seats)
					checked++
					action := []string{"cooperate", "defect"}[rnd.IntN(2)]
					body, _ := json.Marshal(map[string]any{"action": action, "message": "I chose " + action})
					_ = h.room.Move(ctx, tokens[i], &wire.Move{MatchID: match, Round: st.Round, Turn: st.Turn, Body: body})
				}
			}
			if ended < 3 {
				time.Sleep(2 * time.Millisecond)
			}
		}
		if checked == 0 {
			t.Fatal("no move was played")
		}
		lines, err := h.room.Log(ctx, match, PublicViewer)
		if err != nil {
			t.Fatal(err)
		}
		revealed := 0
		for _, l := range lines {
			var hd lineHead
			_ = json.Unmarshal(l, &hd)
			if strings.HasSuffix(hd.Type, "_private") {
				revealed++
				if hd.Reveal != "end" {
					t.Fatalf("a private line not marked reveal end in the public copy: %s", l)
				}
			}
		}
		if revealed == 0 {
			t.Fatal("the public copy after the end holds none of the lines revealed at the end")
		}
		if rep := dilemma.Verify(lines); !rep.OK {
			t.Fatalf("match %d does not re-simulate: %+v", game, rep)
		}
		// Once over, the record has the end line's ranking, every seat in it once.
		mi, err := h.room.Match(ctx, match)
		if err != nil || mi.Status != MatchFinished || len(mi.Ranking) != 3 || mi.Ended.IsZero() || len(mi.Players) != 3 || !mi.Ranked {
			t.Fatalf("the ended match's record: %+v %v", mi, err)
		}
		all, err := h.room.Matches(ctx)
		if err != nil || len(all) != game+1 || all[0].ID != match {
			t.Fatalf("Matches after %d games: %d, newest %q, want %q (%v)", game+1, len(all), all[0].ID, match, err)
		}
	}
	if _, err := h.room.Match(ctx, "m_nope"); err == nil {
		t.Fatal("an unknown match has a record")
	}
}

// checkRunningLogs: while the match runs, the public copy holds no private line, and each seat's
// copy only its own.
func checkRunningLogs(t *testing.T, h *harness, match string, seats []int) {
	t.Helper()
	pub, err := h.room.Log(context.Background(), match, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range pub {
		var hd lineHead
		_ = json.Unmarshal(l, &hd)
		if strings.HasSuffix(hd.Type, "_private") || hd.Reveal != "" {
			t.Fatalf("the public log of a running match holds %s", l)
		}
		if strings.Contains(string(l), `"seed":"`) {
			t.Fatalf("the seed is out before the end: %s", l)
		}
	}
	// The match's public record (the reads' Match) says it runs and holds no ranking yet.
	if mi, err := h.room.Match(context.Background(), match); err != nil || mi.Status != MatchRunning || mi.Ranking != nil || !mi.Ended.IsZero() {
		t.Fatalf("a running match's record: %+v %v", mi, err)
	}
	for _, seat := range seats {
		own, err := h.room.Log(context.Background(), match, seat+1)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range own {
			var hd lineHead
			_ = json.Unmarshal(l, &hd)
			if !strings.HasSuffix(hd.Type, "_private") {
				continue
			}
			mine := hd.Seat != nil && *hd.Seat == seat
			for _, to := range hd.To {
				mine = mine || to == seat
			}
			if !mine {
				t.Fatalf("seat %d's copy holds another seat's line %s", seat, l)
			}
		}
	}
}
