package breakroom

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
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
// every living wolf, the seer's results only the seer), each numbered by its seq over the seat's
// own lines (0, 1, 2, …) so that no gap counts the lines it may not read; a seat the night killed
// or the village exiled gets no your_turn after its elimination and keeps receiving the public
// lines until its match_end. The public log read while the match runs is numbered over itself
// the same way.
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
		lines  [][]byte
		seqs   []int64
		turnAt []int64  // how many lines came before each your_turn
		public [][]byte // the public log as read on the first dawn, the match running
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
					g.lines = append(g.lines, m.Event)
					if g.public == nil && strings.Contains(string(m.Event), `"type":"dawn"`) {
						g.public, _ = h.room.Log(context.Background(), m.MatchID, PublicViewer)
					}
				case wire.YourTurn:
					g.turnAt = append(g.turnAt, int64(len(g.seqs)))
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
	elimSeq := map[int]int64{} // wire seat → Seq of its eliminated line
	types := map[string]bool{}
	for _, e := range evs {
		types[e.Type] = true
		if e.Type == "kill_private" && len(e.Visibility.To()) == 2 {
			types["kill_private to the pack of two"] = true
		}
		if e.Type == "eliminated" {
			var l struct{ Seat int }
			_ = json.Unmarshal(e.Payload, &l)
			elimSeq[l.Seat] = e.Seq
		}
	}
	for _, typ := range []string{"role_private", "kill_private", "message_private", "inspect_result_private", "dawn", "vote_result", "game_over", "kill_private to the pack of two"} {
		if !types[typ] {
			t.Fatalf("the match wrote no %s line: the test does not reach it", typ)
		}
	}
	for _, g := range results {
		// The lines its visibility gives, numbered over themselves (0, 1, 2, …): the log's seq
		// would count the lines the seat may not read between two it reads.
		var want [][]byte
		var wantSeqs []int64
		at, dead := int64(0), false
		for _, e := range evs {
			if e.Visibility.Shows(g.seat+1, false) {
				if e.Seq == elimSeq[g.seat] {
					at, dead = int64(len(want)), true
				}
				own := e
				own.Seq = int64(len(want)) + 1
				l, err := breakroom.Line(own)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, l)
				wantSeqs = append(wantSeqs, int64(len(wantSeqs)))
			}
			if e.Type == "match_end" {
				break // the end line comes as an event too, then match_end
			}
		}
		if !slices.Equal(g.seqs, wantSeqs) {
			t.Fatalf("seat %d received seqs %v, want its own lines numbered %v", g.seat, g.seqs, wantSeqs)
		}
		if len(g.lines) != len(want) {
			t.Fatalf("seat %d received %d lines, its visibility gives %d", g.seat, len(g.lines), len(want))
		}
		for k := range want {
			if string(g.lines[k]) != string(want[k]) {
				t.Fatalf("seat %d's line %d is %s, its visibility gives %s", g.seat, k, g.lines[k], want[k])
			}
		}
		if dead {
			for _, before := range g.turnAt {
				if before > at {
					t.Fatalf("seat %d got a your_turn after its elimination (line %d)", g.seat, at)
				}
			}
		}
		if g.end.MatchID != match || g.end.YourRank < 1 {
			t.Fatalf("seat %d: match_end %+v", g.seat, g.end)
		}
	}
	// The public copy of the running match numbers its own lines too: its seq cannot count the
	// private lines of the night.
	pub := results[0].public
	if len(pub) == 0 {
		t.Fatal("no public log read while the match ran")
	}
	k := 0
	for _, e := range evs {
		if k == len(pub) {
			break
		}
		if e.Visibility != games.Public {
			continue
		}
		own := e
		own.Seq = int64(k) + 1
		l, _ := breakroom.Line(own)
		if string(pub[k]) != string(l) {
			t.Fatalf("the running match's public line %d is %s, want %s", k, pub[k], l)
		}
		k++
	}
	if k != len(pub) {
		t.Fatalf("the running match's public log has %d lines, %d of them are the log's", len(pub), k)
	}
	if !strings.HasPrefix(match, MatchIDPrefix) || len(elimSeq) == 0 {
		t.Fatalf("match %s, eliminations %v", match, elimSeq)
	}
}
