package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/dilemma"
	"arena/games/breakroom/wire"
)

// wsPlay plays a socket agent's match from its mailbox: every your_turn answered with cooperate,
// a reconnect (drop, then a fresh join) after its second move when reconnect is set. It returns
// its seated and match_end messages and, for a reconnect, the messages the new connection began
// with.
type wsResult struct {
	seated  wire.Seated
	end     wire.MatchEnd
	moves   int
	rejoin  []string // the types of the reconnected socket's first messages
	refused []string // codes of refused moves
	private int      // private lines heard (its own)
	order   []string // the types of its first messages, up to its first move
	err     error
}

func wsPlay(a *agent, reconnect bool, joined chan<- struct{}) wsResult {
	var res wsResult
	j := a.join(ViaWebSocket)
	joined <- struct{}{}
	if q, ok := j.First.(wire.Queued); !ok || q.Position < 1 || q.Token != "" {
		res.err = errors.New("the first answer is not a queued message without a token")
		return res
	}
	rd := &reader{h: a.h, conn: j.Conn}
	for {
		m, err := rd.next()
		if err != nil {
			res.err = err
			return res
		}
		if res.moves == 0 && len(res.order) < 8 {
			res.order = append(res.order, m.Type())
		}
		switch m := m.(type) {
		case wire.Seated:
			if res.seated.MatchID == "" {
				res.seated = m
			}
		case wire.YourTurn:
			move := map[string]any{"action": "cooperate"}
			if res.moves == 0 {
				move["message"] = "Bartender, how many points when both cooperate?"
			}
			body, _ := json.Marshal(move)
			err := a.h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn, Body: body})
			if err != nil {
				res.refused = append(res.refused, err.Error())
				continue
			}
			res.moves++
			// A second move for the same turn is refused and uses nothing up.
			if res.moves == 1 {
				if err := a.h.room.Move(context.Background(), rd.conn, &wire.Move{MatchID: m.MatchID, Round: m.Round, Turn: m.Turn, Body: body}); err == nil {
					res.err = errors.New("a second move for the same turn was taken")
					return res
				}
			}
			if reconnect && res.moves == 2 && res.rejoin == nil {
				a.h.room.Drop(rd.conn)
				if _, err := a.h.room.Next(context.Background(), rd.conn, rd.after); !errors.Is(err, ErrGone) {
					res.err = fmt.Errorf("a dropped connection's Next did not end: %v", err)
					return res
				}
				j := a.join(ViaWebSocket)
				if _, ok := j.First.(wire.Seated); !ok {
					res.err = errors.New("a re-join of a seated key did not answer seated")
					return res
				}
				rd = &reader{h: a.h, conn: j.Conn}
				for len(res.rejoin) < 2 {
					res.rejoin = append(res.rejoin, rd.must().Type())
				}
			}
		case wire.Event:
			// A seat hears public lines and its own private ones: never another seat's.
			var l struct {
				Type string `json:"type"`
				Seat *int   `json:"seat"`
				To   []int  `json:"to"`
			}
			if err := json.Unmarshal(m.Event, &l); err != nil || l.Type == "" {
				res.err = fmt.Errorf("event %s: %v", m.Event, err)
				return res
			}
			if strings.HasSuffix(l.Type, "_private") {
				mine := l.Seat != nil && *l.Seat == res.seated.Seat
				for _, to := range l.To {
					mine = mine || to == res.seated.Seat
				}
				if !mine {
					res.err = fmt.Errorf("seat %d heard another seat's line %s", res.seated.Seat, m.Event)
					return res
				}
				res.private++
			}
		case wire.MatchEnd:
			res.end = m
			return res
		}
	}
}

// httpPlay plays an HTTP agent's match with join and state long polls.
type httpResult struct {
	conn   string // the HTTP token
	seated wire.Seated
	end    wire.MatchEnd
	moves  int
	err    error
}

func httpPlay(a *agent, joined chan<- struct{}) httpResult {
	var res httpResult
	ctx := context.Background()
	j := a.join(ViaHTTP)
	res.conn = j.Conn
	joined <- struct{}{}
	q, ok := j.First.(wire.Queued)
	if !ok || q.Token != j.Conn {
		res.err = errors.New("the HTTP join did not answer queued with its token")
		return res
	}
	for res.seated.MatchID == "" {
		m, err := a.h.room.JoinStatus(ctx, j.Conn, 2*time.Second)
		if err != nil {
			res.err = err
			return res
		}
		if s, ok := m.(wire.Seated); ok {
			res.seated = s
		}
	}
	for {
		st, err := a.h.room.State(ctx, j.Conn, res.seated.MatchID, 2*time.Second)
		if err != nil {
			res.err = err
			return res
		}
		switch st.Status {
		case wire.StatusEnded:
			res.end = *st.MatchEnd
			return res
		case wire.StatusYourTurn:
			if err := a.h.room.Move(ctx, j.Conn, &wire.Move{MatchID: st.MatchID, Round: st.Round, Turn: st.Turn,
				Body: json.RawMessage(`{"action":"defect","message":"nothing personal"}`)}); err != nil {
				res.err = err
				return res
			}
			res.moves++
		}
	}
}

// TestDilemmaMatchEndToEnd: a socket agent and an HTTP agent with real keys join a Dilemma
// table the lobby fills with the bartender and a house bot; they play it to match_end, the
// socket agent reconnecting mid-match on a fresh connection; each gets its match_end, the post
// states the rank only for the agent that asked for spoilers; the stored public log re-simulates;
// the unranked table changes nobody's reputation; feedback is taken after the end.
func TestDilemmaMatchEndToEnd(t *testing.T) {
	h := newHarness(t, shortDilemma(4, 4))
	ws, hp := newAgent(h, "Claude"), newAgent(h, "Claude")
	hp.spoilers = true
	wsc, hpc := make(chan wsResult, 1), make(chan httpResult, 1)
	joined := make(chan struct{}, 2)
	go func() { wsc <- wsPlay(ws, true, joined) }()
	go func() { hpc <- httpPlay(hp, joined) }()
	<-joined
	<-joined
	// Both wait alone (two of a minimum of four): after 60 s the bartender and a house bot sit down.
	h.lobby.Advance(61 * time.Second)
	w, p := <-wsc, <-hpc
	if w.err != nil || p.err != nil {
		t.Fatalf("socket agent: %v; HTTP agent: %v", w.err, p.err)
	}
	if w.seated.MatchID == "" || w.seated.MatchID != p.seated.MatchID {
		t.Fatalf("seated at %q and %q", w.seated.MatchID, p.seated.MatchID)
	}
	if len(w.rejoin) != 2 || w.rejoin[0] != "seated" || w.rejoin[1] != "state" {
		t.Fatalf("the reconnected socket began with %v, want seated then state", w.rejoin)
	}
	s := w.seated
	if s.TableSize != 4 || len(s.Players) != 4 || s.RulesVersion != dilemma.RulesVersion || s.RulesURL != "https://breakroom.test/rules/dilemma" {
		t.Fatalf("seated %+v", s)
	}
	var house, staff, agents int
	names := map[string]bool{}
	for i, pl := range s.Players {
		switch {
		case pl.Seat != i || names[pl.DisplayName] || pl.DisplayName == "":
			t.Fatalf("player %d: %+v (names so far %v)", i, pl, names)
		case pl.House:
			house++
			if !strings.HasPrefix(pl.Pubkey, "house:") {
				t.Errorf("house bot's key %q", pl.Pubkey)
			}
		case pl.Staff:
			staff++
		default:
			agents++
			if pl.Name != "Claude" || !strings.HasPrefix(pl.DisplayName, "Claude (") {
				t.Errorf("two Claudes: display name %q", pl.DisplayName)
			}
		}
		names[pl.DisplayName] = true
	}
	if house != 1 || staff != 1 || agents != 2 {
		t.Fatalf("house %d staff %d agents %d", house, staff, agents)
	}
	for _, e := range []wire.MatchEnd{w.end, p.end} {
		if e.MatchID != s.MatchID || len(e.Ranking) != 4 || e.ReplayURL != "https://breakroom.test/r/"+s.MatchID || e.NostrPost.Kind != 1 {
			t.Fatalf("match_end %+v", e)
		}
	}
	rankOf := func(e wire.MatchEnd, seat int) int {
		for _, r := range e.Ranking {
			if r.Seat == seat {
				return r.Rank
			}
		}
		return 0
	}
	if w.end.YourRank != rankOf(w.end, w.seated.Seat) || p.end.YourRank != rankOf(p.end, p.seated.Seat) || w.end.YourRank == 0 {
		t.Fatalf("your_rank %d and %d against the ranking %+v", w.end.YourRank, p.end.YourRank, w.end.Ranking)
	}
	if strings.Contains(w.end.NostrPost.Content, "Finished") || !strings.Contains(w.end.NostrPost.Content, "Who won?") {
		t.Errorf("the post without spoilers: %q", w.end.NostrPost.Content)
	}
	if !strings.Contains(p.end.NostrPost.Content, "Finished "+games.Ordinal(p.end.YourRank)+" of 4") {
		t.Errorf("the post with spoilers: %q", p.end.NostrPost.Content)
	}
	// queued, seated, the match's opening lines, then the first move.
	if len(w.order) < 4 || w.order[0] != "queued" || w.order[1] != "seated" || w.order[2] != "event" ||
		slices.Index(w.order, "your_turn") < 3 {
		t.Errorf("the socket's first messages: %v", w.order)
	}
	if w.private == 0 {
		t.Error("the socket agent heard none of its own private lines")
	}
	if w.moves < 2 || p.moves < 2 {
		t.Fatalf("moves: socket %d, HTTP %d", w.moves, p.moves)
	}

	lines, err := h.room.Log(context.Background(), s.MatchID, PublicViewer)
	if err != nil {
		t.Fatal(err)
	}
	if rep := dilemma.Verify(lines); !rep.OK {
		t.Fatalf("the public log does not re-simulate: %+v", rep)
	}
	if !strings.Contains(string(lines[0]), `"type":"match_start"`) || !strings.Contains(string(lines[len(lines)-1]), `"type":"match_end"`) {
		t.Fatalf("log from %s to %s", lines[0], lines[len(lines)-1])
	}
	// The bartender greeted the table and answered the question from the rules text.
	staffSeat := -1
	for _, pl := range s.Players {
		if pl.Staff {
			staffSeat = pl.Seat
		}
	}
	var said []string
	for _, l := range lines {
		var m struct {
			Type string `json:"type"`
			Seat int    `json:"seat"`
			Text string `json:"text"`
		}
		if json.Unmarshal(l, &m) == nil && m.Type == "message" && m.Seat == staffSeat {
			said = append(said, m.Text)
		}
	}
	if len(said) < 2 || said[0] != staffGreeting || !strings.Contains(said[1], "Both cooperate: 3 points each") ||
		!strings.HasPrefix(said[1], s.Players[w.seated.Seat].DisplayName+": ") {
		t.Errorf("the bartender said %q", said)
	}
	for _, a := range []*agent{ws, hp} {
		if r, _ := h.room.Reputation(a.key); r.Matches != 0 {
			t.Errorf("an unranked table changed a reputation: %+v", r)
		}
	}
}
