package dilemma

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
)

// TestSchedule: §5.2's table for 4 and 3 seats, and at every size every seat meets every other
// exactly once, in seats − 1 rounds (seats for an odd table), one bye per round at odd tables.
func TestSchedule(t *testing.T) {
	four := fmt.Sprint(Schedule(4))
	if want := "[{[[0 3] [1 2]] -1} {[[0 2] [1 3]] -1} {[[0 1] [2 3]] -1}]"; four != want {
		t.Fatalf("4 seats: %s, want %s", four, want)
	}
	three := fmt.Sprint(Schedule(3))
	if want := "[{[[1 2]] 0} {[[0 2]] 1} {[[0 1]] 2}]"; three != want {
		t.Fatalf("3 seats: %s, want %s", three, want)
	}
	for n := 2; n <= 6; n++ {
		plan := Schedule(n)
		rounds := n - 1
		if n%2 == 1 {
			rounds = n
		}
		if len(plan) != rounds {
			t.Fatalf("%d seats: %d rounds, want %d", n, len(plan), rounds)
		}
		met := map[Pair]int{}
		for _, r := range plan {
			seen := map[int]bool{}
			for _, p := range r.Pairs {
				met[p]++
				if p[0] >= p[1] || seen[p[0]] || seen[p[1]] {
					t.Fatalf("%d seats: round %v", n, r)
				}
				seen[p[0]], seen[p[1]] = true, true
			}
			if (r.Bye >= 0) != (n%2 == 1) || r.Bye >= 0 && seen[r.Bye] {
				t.Fatalf("%d seats: bye in %v", n, r)
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Fatalf("%d seats: %d pairs met", n, len(met))
		}
	}
}

// TestHorizonVectors: §5.11's horizons (seed 00..1f, stop_one_in 2) and the cap.
func TestHorizonVectors(t *testing.T) {
	var got []int
	for r := 1; r <= 3; r++ {
		got = append(got, Horizon(seq0(), r, 2, 20))
	}
	if !slices.Equal(got, []int{1, 2, 1}) {
		t.Fatalf("H = %v, want [1 2 1]", got)
	}
	if h := Horizon(seq0(), 1, 1_000_000, 7); h != 7 {
		t.Fatalf("capped horizon %d, want 7", h)
	}
	if h := Horizon(seq0(), 1, 1, 20); h != 1 {
		t.Fatalf("stop_one_in 1: %d, want 1", h)
	}
}

// TestSetupRefusals: New refuses a Setup it cannot play, with bad_request naming the fault.
func TestSetupRefusals(t *testing.T) {
	ok := setupN(4, seq0(), "")
	if _, err := (Engine{}).New(ok, nil); err != nil {
		t.Fatalf("a valid setup: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(s *games.Setup)
		has  string
	}{
		{"game", func(s *games.Setup) { s.Game = "inference" }, "game"},
		{"format", func(s *games.Setup) { s.Format = "blitz" }, "format"},
		{"no match id", func(s *games.Setup) { s.Round = "" }, "match id"},
		{"long match id", func(s *games.Setup) { s.Round = strings.Repeat("m", 65) }, "match id"},
		{"one seat", func(s *games.Setup) { s.Seats = s.Seats[:1] }, "seats"},
		{"seven seats", func(s *games.Setup) { *s = setupN(7, seq0(), "") }, "seats"},
		{"seat numbers", func(s *games.Setup) { s.Seats[2].Seat = 7 }, "seats must be"},
		{"same key twice", func(s *games.Setup) { s.Seats[1].Agent = s.Seats[0].Agent }, "seated twice"},
		{"seat options", func(s *games.Setup) { s.Seats[0].Options = json.RawMessage(`{"kind":"agent"}`) }, "options"},
		{"unknown option", func(s *games.Setup) { s.Options = json.RawMessage(`{"rounds":3}`) }, "rounds"},
		{"payoff order", func(s *games.Setup) { s.Options = json.RawMessage(`{"payoffs":{"T":3,"R":5,"P":1,"S":0}}`) }, "T > R"},
		{"2R > T+S", func(s *games.Setup) { s.Options = json.RawMessage(`{"payoffs":{"T":10,"R":3,"P":1,"S":0}}`) }, "2R"},
		{"payoffs partial", func(s *games.Setup) { s.Options = json.RawMessage(`{"payoffs":{"T":5}}`) }, "all of"},
		{"stop_one_in", func(s *games.Setup) { s.Options = json.RawMessage(`{"stop_one_in":0}`) }, "stop_one_in"},
		{"max_iterations", func(s *games.Setup) { s.Options = json.RawMessage(`{"max_iterations":41}`) }, "max_iterations"},
		{"results public", func(s *games.Setup) { s.Options = json.RawMessage(`{"results":"public"}`) }, "reserved"},
		{"default", func(s *games.Setup) { s.Options = json.RawMessage(`{"default":"fold"}`) }, "default"},
		{"message chars", func(s *games.Setup) { s.Options = json.RawMessage(`{"max_message_chars":281}`) }, "max_message_chars"},
		{"away above turn", func(s *games.Setup) {
			s.Options = json.RawMessage(`{"turn_deadline_ms":2000,"away_deadline_ms":3000}`)
		}, "away_deadline_ms"},
		{"negative pace", func(s *games.Setup) { s.Pace.Move = -1 }, "pace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := setupN(4, seq0(), "")
			c.edit(&s)
			_, err := (Engine{}).New(s, nil)
			ge, isGE := err.(*games.Error)
			if !isGE || ge.Code != games.CodeBadRequest || !strings.Contains(ge.Msg, c.has) {
				t.Fatalf("New: %v, want bad_request naming %q", err, c.has)
			}
		})
	}
}

// TestPaceSetsDeadlines: a Pace's turn and away steps become the config's deadlines, and
// match_start.config says so.
func TestPaceSetsDeadlines(t *testing.T) {
	s := setupN(3, seq0(), "")
	s.Pace = games.Pace{Name: "fast", Steps: map[string]time.Duration{"turn": 2e9, "away": 5e8}}
	tb := newTable(t, s)
	cfg := tb.ofType("match_start")[0]["config"].(map[string]any)
	if cfg["turn_deadline_ms"] != 2000.0 || cfg["away_deadline_ms"] != 500.0 {
		t.Fatalf("config %v", cfg)
	}
	if got := tb.open().Deadline.Sub(t0); got != 2e9 {
		t.Fatalf("first deadline %v after the start", got)
	}
	if rep := Verify(append(tb.lines(), []byte(`{"seq":99,"t":"x","type":"match_end","seed":"`+strings.Repeat("0", 64)+`"}`))); rep.OK {
		t.Fatal("a forged end verified")
	}
}

// TestGameIIEmbedding: §5.10's test-only configuration (2 seats, Game II's shares as payoffs,
// one iteration) is one sealed simultaneous choice: a lone defector scores 65, its victim 15.
func TestGameIIEmbedding(t *testing.T) {
	tb := newTable(t, setupN(2, seq0(), `{"payoffs":{"T":65,"R":45,"P":30,"S":15},"max_iterations":1}`))
	tb.choose(0, "cooperate")
	tb.choose(1, "defect")
	r := tb.ofType("match_end")[0]["ranking"].([]any)
	if w, l := r[0].(map[string]any), r[1].(map[string]any); w["seat"] != 1.0 || w["points"] != 65.0 || l["points"] != 15.0 {
		t.Fatalf("ranking %v", r)
	}
}

func TestInfo(t *testing.T) {
	i := Engine{}.Info()
	m := Engine{}.Manifest()
	if i.ID != "dilemma" || m.ID != i.ID || i.TableSize != 4 || i.MinPlayers != 3 || i.MaxPlayers != 6 || i.RulesVersion != "dilemma-0.1" ||
		i.DeadlineMS != 10000 || m.Formats[0].MinSeats != 3 || m.Formats[0].MaxSeats != 6 {
		t.Fatalf("info %+v, manifest %+v", i, m)
	}
}

// TestShortTurns: a turn deadline below the away deadline, the away one not given, makes the
// away deadline the turn's (a fast pace, a bench's 40 ms moves).
func TestShortTurns(t *testing.T) {
	for _, s := range []games.Setup{setupN(3, seq0(), `{"turn_deadline_ms":40}`), func() games.Setup {
		s := setupN(3, seq0(), "")
		s.Pace = games.Pace{Move: 40 * time.Millisecond}
		return s
	}()} {
		tb := newTable(t, s)
		cfg := tb.ofType("match_start")[0]["config"].(map[string]any)
		if cfg["turn_deadline_ms"] != 40.0 || cfg["away_deadline_ms"] != 40.0 {
			t.Fatalf("config %v", cfg)
		}
	}
}
