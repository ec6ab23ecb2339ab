package breakroom

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/werewolf"
	"arena/games/breakroom/wire"
)

// shortWerewolf is Werewolf at 7 seats (two wolves) with one discussion pass and 3 s turns.
func shortWerewolf() Game {
	return Game{ID: werewolf.GameID, Name: werewolf.Name, RulesVersion: werewolf.RulesVersion, TableSize: 7, Min: 7,
		Options: json.RawMessage(`{"discussion_rounds":1}`), Rules: werewolf.RulesText,
		Pace: games.Pace{Steps: map[string]time.Duration{"turn": 3 * time.Second, "away": 300 * time.Millisecond}}}
}

// TestWerewolfRoomDeliversByVisibility: seven agents play a Werewolf table through the room's
// sockets, each answering with the first legal action (its first target; wolves talk to the
// pack). Every seat receives exactly the log lines its seat may read before the end, in order:
// the public ones and the private ones it is among the recipients of, through the end line (a wolf's pack lines reach
// every living wolf, the seer's results only the seer); a seat the night killed or the village
// exiled gets no your_turn after its elimination and keeps receiving the public lines until its
// match_end.
func TestWerewolfRoomDeliversByVisibility(t *testing.T) {
	h := newHarness(t, shortWerewolf())
	agents := make([]*agent, 7)
	readers := make([]*reader, 7)
	for i := range agents {
		agents[i] = newAgent(h, []string{"Ada", "Bea", "Cy", "Dee", "Eve", "Flo", "Gus"}[i])
		agents[i].game = werewolf.GameID
		readers[i] = &reader{h: h, conn: agents[i].join(ViaWebSocket).Conn}
	}
	type got struct {
		seat   int
		seqs   []int64
		turnAt []int64 // the seq of the last line received before each your_turn
		end    wire.MatchEnd
		err    error
	}
	out := make(chan got, 7)
	for _, rd := range readers {
		go func() {
			var g got
			g.seat = -1
			for {
				m, err := rd.next()
				if err != nil {
					g.err = err
					out <- g
					return
				}
				switch m := m.(type) {
				case wire.Seated:
					g.seat = int(m.Seat)
				case wire.Event:
					var l struct{ Seq int64 }
					_ = json.Unmarshal(m.Event, &l)
					g.seqs = append(g.seqs, l.Seq)
				case wire.YourTurn:
					last := int64(-1)
					if n := len(g.seqs); n > 0 {
						last = g.seqs[n-1]
					}
					g.turnAt = append(g.turnAt, last)
					var legal []struct {
						Action  string `json:"action"`
						Targets []int  `json:"targets"`
						Max     *int   `json:"max_message_chars"`
					}
					_ = json.Unmarshal(m.LegalActions, &legal)
					body := map[string]any{"action": legal[0].Action}
					if len(legal[0].Targets) > 0 {
						body["target"] = legal[0].Targets[0]
					}
					if legal[0].Max != nil {
						body["message"] = "psst"
					}
					b, _ := json.Marshal(body)
					_ = h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn, Body: b})
				case wire.MatchEnd:
					g.end = m
					out <- g
					return
				}
			}
		}()
	}
	var results []got
	for range 7 {
		g := <-out
		if g.err != nil {
			t.Fatal(g.err)
		}
		results = append(results, g)
	}
	match := results[0].end.MatchID
	evs, err := h.store.Events(match)
	if err != nil {
		t.Fatal(err)
	}
	elimAt := map[int]int64{} // wire seat → seq of its eliminated line
	types := map[string]bool{}
	for _, e := range evs {
		types[e.Type] = true
		if e.Type == "kill_private" && len(e.Visibility.To()) == 2 {
			types["kill_private to the pack of two"] = true
		}
		if e.Type == "eliminated" {
			var l struct{ Seat int }
			_ = json.Unmarshal(e.Payload, &l)
			elimAt[l.Seat] = e.Seq - 1
		}
	}
	for _, typ := range []string{"role_private", "kill_private", "message_private", "inspect_result_private", "dawn", "vote_result", "game_over", "kill_private to the pack of two"} {
		if !types[typ] {
			t.Fatalf("the match wrote no %s line: the test does not reach it", typ)
		}
	}
	for _, g := range results {
		var want []int64
		for _, e := range evs {
			if e.Visibility.Shows(g.seat+1, false) {
				want = append(want, e.Seq-1)
			}
			if e.Type == "match_end" {
				break // the end line comes as an event too, then match_end
			}
		}
		if !slices.Equal(g.seqs, want) {
			t.Fatalf("seat %d received lines %v, its visibility gives %v", g.seat, g.seqs, want)
		}
		if at, dead := elimAt[g.seat]; dead {
			for _, last := range g.turnAt {
				if last >= at {
					t.Fatalf("seat %d got a your_turn after its elimination (line %d)", g.seat, at)
				}
			}
		}
		if g.end.MatchID != match || g.end.YourRank < 1 {
			t.Fatalf("seat %d: match_end %+v", g.seat, g.end)
		}
	}
	if !strings.HasPrefix(match, MatchIDPrefix) || len(elimAt) == 0 {
		t.Fatalf("match %s, eliminations %v", match, elimAt)
	}
}
