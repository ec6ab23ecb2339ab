package auction

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// TestSetupRefusals: every malformed Setup is bad_request naming its fault; nothing panics.
func TestSetupRefusals(t *testing.T) {
	ok := setupN(3, seq0(), "")
	for _, c := range []struct {
		name string
		edit func(s *games.Setup)
		has  string
	}{
		{"another game", func(s *games.Setup) { s.Game = "dilemma" }, "game"},
		{"another format", func(s *games.Setup) { s.Format = "blitz" }, "format"},
		{"no match id", func(s *games.Setup) { s.Round = "" }, "round"},
		{"long match id", func(s *games.Setup) { s.Round = strings.Repeat("m", 65) }, "round"},
		{"two seats", func(s *games.Setup) { s.Seats = s.Seats[:2] }, "2 seats"},
		{"nine seats", func(s *games.Setup) { *s = setupN(9, seq0(), "") }, "9 seats"},
		{"a gap", func(s *games.Setup) { s.Seats[2].Seat = 5 }, "seats must be"},
		{"seated twice", func(s *games.Setup) { s.Seats[1].Agent = s.Seats[0].Agent }, "seated twice"},
		{"no agent", func(s *games.Setup) { s.Seats[1].Agent = "" }, "empty"},
		{"bad seat options", func(s *games.Setup) { s.Seats[0].Options = json.RawMessage(`{"house":1}`) }, "options"},
		{"unknown option", func(s *games.Setup) { s.Options = json.RawMessage(`{"reserve":5}`) }, "config"},
		{"no lots", func(s *games.Setup) { s.Options = json.RawMessage(`{"lots":0}`) }, "lots"},
		{"too many lots", func(s *games.Setup) { s.Options = json.RawMessage(`{"lots":51}`) }, "lots"},
		{"negative cash", func(s *games.Setup) { s.Options = json.RawMessage(`{"starting_cash":-1}`) }, "starting_cash"},
		{"no values", func(s *games.Setup) { s.Options = json.RawMessage(`{"value_max":0}`) }, "value_max"},
		{"second price", func(s *games.Setup) { s.Options = json.RawMessage(`{"pricing":"second_price"}`) }, "pricing"},
		{"no strikes", func(s *games.Setup) { s.Options = json.RawMessage(`{"strikes_limit":0}`) }, "strikes_limit"},
		{"long talk", func(s *games.Setup) { s.Options = json.RawMessage(`{"max_message_chars":281}`) }, "max_message_chars"},
		{"away above turn", func(s *games.Setup) { s.Options = json.RawMessage(`{"turn_deadline_ms":2000,"away_deadline_ms":3000}`) }, "away_deadline_ms"},
		{"no deadline", func(s *games.Setup) { s.Options = json.RawMessage(`{"turn_deadline_ms":0}`) }, "turn_deadline_ms"},
		{"negative pace", func(s *games.Setup) { s.Pace.Move = -time.Second }, "pace"},
		{"not JSON", func(s *games.Setup) { s.Options = json.RawMessage(`{"lots":`) }, "config"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := ok
			s.Seats = append([]games.Seat(nil), ok.Seats...)
			c.edit(&s)
			_, err := Engine{}.New(s, nil)
			ge, isErr := err.(*games.Error)
			if !isErr || ge.Code != games.CodeBadRequest || !strings.Contains(ge.Msg, c.has) {
				t.Fatalf("New: %v, want bad_request naming %q", err, c.has)
			}
		})
	}
}

// TestSetupConfig: the defaults are §4.1's; options and the pace override them; a turn shorter
// than the away deadline makes the away deadline the turn's; seats given in any order are
// seated by number; house and staff options reach match_start.
func TestSetupConfig(t *testing.T) {
	b, _ := json.Marshal(DefaultConfig())
	if string(b) != `{"turn_deadline_ms":10000,"away_deadline_ms":3000,"lots":10,"starting_cash":200,"value_max":100,"pricing":"first_price","strikes_limit":3,"max_message_chars":280}` {
		t.Fatalf("default config %s (§4.1)", b)
	}
	s := setupN(3, seq0(), `{"lots":4,"starting_cash":50}`)
	s.Pace = games.Pace{Steps: map[string]time.Duration{"turn": 2 * time.Second}}
	s.Seats[0], s.Seats[2] = s.Seats[2], s.Seats[0]
	s.Seats[1].Options = json.RawMessage(`{"house":true}`)
	tb := newTable(t, s)
	c := tb.m.cfg
	if c.Lots != 4 || c.StartingCash != 50 || c.TurnDeadlineMS != 2000 || c.AwayDeadlineMS != 2000 {
		t.Fatalf("config %+v", c)
	}
	if p := tb.open(); p.Seat != 1 || p.Deadline.Sub(t0) != 2*time.Second {
		t.Fatalf("first prompt %+v", p)
	}
	start := tb.ofType("match_start")[0]
	players, _ := json.Marshal(start["players"])
	if !strings.Contains(string(players), `{"house":true,"name":"Agent 2"`) || !strings.HasPrefix(string(players), `[{"name":"Agent 1"`) {
		t.Fatalf("players %s", players)
	}
	if got := (Engine{}).Info(); got.ID != "auction" || got.TableSize != 5 || got.MinPlayers != 3 || got.MaxPlayers != 8 || got.RulesVersion != "auction-0.1" || got.DeadlineMS != 10000 {
		t.Fatalf("catalogue row %+v (§1.1)", got)
	}
	if m := (Engine{}).Manifest(); m.ID != "auction" || m.Formats[0].MinSeats != 3 || m.Formats[0].MaxSeats != 8 {
		t.Fatalf("manifest %+v", m)
	}
}

// TestSettle: first price over bids (0 for a pass): the highest bid wins and pays itself; ties
// go to the draw's element of the tied seats in ascending order; all passes leave the lot
// unsold without a draw.
func TestSettle(t *testing.T) {
	called := 0
	pick := func(i int) func(int) int { return func(k int) int { called++; return i } }
	for _, c := range []struct {
		bids   []int64
		pick   int
		winner int
		price  int64
		sold   bool
		tied   bool
		draws  int
	}{
		{[]int64{45, 62, 45}, 0, 1, 62, true, false, 0},
		{[]int64{16, 0, 16}, 1, 2, 16, true, true, 1},
		{[]int64{16, 0, 16}, 0, 0, 16, true, true, 1},
		{[]int64{0, 0, 0}, 0, -1, 0, false, false, 0},
		{[]int64{7, 7, 7, 7}, 2, 2, 7, true, true, 1},
		{[]int64{3, 9, 9, 1, 9}, 2, 4, 9, true, true, 1},
	} {
		called = 0
		w, p, sold, tied := Settle(c.bids, pick(c.pick))
		if w != c.winner || p != c.price || sold != c.sold || tied != c.tied || called != c.draws {
			t.Errorf("Settle(%v, pick %d) = %d %d %v %v (%d draws), want %d %d %v %v (%d)", c.bids, c.pick, w, p, sold, tied, called, c.winner, c.price, c.sold, c.tied, c.draws)
		}
	}
}
