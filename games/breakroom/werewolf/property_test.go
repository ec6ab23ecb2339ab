package werewolf

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// invariants checks §3.9 after every step of one match. It follows the match only through what
// the step wrote (events, prompts) and what each viewer sees, and reads the match's own seats as
// the truth the lines are held to.
type invariants struct {
	t        testing.TB
	stage    string
	living   []int // living seats when the current night or vote opened
	prompted []int // seats prompted in the current night or vote, in order
	protect  map[int]int
	over     bool
	lastSeq  int64
	keys     string // the state members of the match's first prompt
}

func newInvariants(t testing.TB) *invariants {
	return &invariants{t: t, protect: map[int]int{}}
}

// roleWords are the words a role or its team is written with.
var roleWords = [][]byte{[]byte(`"wolf"`), []byte(`"seer"`), []byte(`"doctor"`), []byte(`"villager"`), []byte(`"wolves"`), []byte(`"village"`), []byte(`"role"`)}

func (iv *invariants) check(tb *table, st games.Step) {
	t := iv.t
	t.Helper()
	m := tb.m
	for _, e := range st.Events {
		if e.Seq != iv.lastSeq+1 {
			t.Fatalf("event %s has seq %d after %d", e.Type, e.Seq, iv.lastSeq)
		}
		iv.lastSeq = e.Seq
		var l struct {
			Round  int    `json:"round"`
			Phase  string `json:"phase"`
			Seat   int    `json:"seat"`
			Action string `json:"action"`
			Target *int   `json:"target"`
			Deaths []int  `json:"deaths"`
		}
		if err := json.Unmarshal(e.Payload, &l); err != nil {
			t.Fatalf("%s: %v", e.Type, err)
		}
		// No public line before game_over holds a living seat's role: the only public line
		// naming a role is a death's.
		if e.Visibility == games.Public && !iv.over {
			switch e.Type {
			case "match_start", "message", "match_abandoned":
			case "eliminated":
				if m.seats[l.Seat].alive {
					t.Fatalf("eliminated %s names a seat that is alive", e.Payload)
				}
			case "game_over":
				iv.over = true
			default:
				for _, w := range roleWords {
					if bytes.Contains(e.Payload, w) {
						t.Fatalf("public %s before game_over says %s: %s", e.Type, w, e.Payload)
					}
				}
			}
		}
		if e.Visibility != games.Public && e.Visibility.Reveal() != games.RevealEnd {
			t.Fatalf("%s is never revealed: every Werewolf line is revealed at the end", e.Type)
		}
		switch e.Type {
		case "phase":
			iv.stage = l.Phase
			iv.living, iv.prompted = iv.living[:0], iv.prompted[:0]
			for i, s := range m.seats {
				if s.alive {
					iv.living = append(iv.living, i)
				}
			}
		case "action_private":
			if l.Action == ActionProtect {
				iv.protect[l.Round] = *l.Target
			}
		case "dawn", "vote_result":
			// Exactly one prompt per living seat per night and per vote, ascending.
			if !slices.Equal(iv.prompted, iv.living) {
				t.Fatalf("round %d %s: prompted %v, the living seats were %v", l.Round, iv.stage, iv.prompted, iv.living)
			}
			if e.Type == "dawn" {
				if p, ok := iv.protect[l.Round]; ok && slices.Contains(l.Deaths, p) {
					t.Fatalf("round %d: protected seat %d died (%s)", l.Round, p, e.Payload)
				}
			}
		}
	}
	for _, p := range st.Prompts {
		seat := breakroom.WireSeat(p.Seat)
		if iv.stage == PhaseNight || iv.stage == PhaseVote {
			iv.prompted = append(iv.prompted, seat)
		}
		if !m.seats[seat].alive {
			t.Fatalf("dead seat %d prompted", seat)
		}
		for _, a := range p.Legal {
			for _, tg := range targetsOf(a) {
				if tg < 0 || tg >= len(m.seats) || !m.seats[tg].alive {
					t.Fatalf("%s targets dead seat %d", a.Name, tg)
				}
				if a.Name == ActionKill && m.seats[tg].role == RoleWolf {
					t.Fatalf("kill targets wolf %d", tg)
				}
			}
		}
		if len(p.State.Bytes()) > breakroom.StateBudget {
			t.Fatalf("a prompt's state is %d bytes", len(p.State.Bytes()))
		}
		// Every prompt's state has the same members, whatever the seat's role and the phase
		// (talk_today's truncated flag aside): a prompt's shape never tells a role.
		var st map[string]json.RawMessage
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			t.Fatal(err)
		}
		delete(st, "truncated")
		keys := slices.Sorted(maps.Keys(st))
		if k := strings.Join(keys, ","); iv.keys == "" {
			iv.keys = k
		} else if k != iv.keys {
			t.Fatalf("seat %d (%s) in %s has state members %s, the first prompt %s", seat, m.seats[seat].role, iv.stage, k, iv.keys)
		}
		if iv.stage == PhaseNight && m.seats[seat].role == RoleVillager && js(p.Legal) != `[{"action":"sleep"}]` {
			t.Fatalf("a villager's night offers %s", js(p.Legal))
		}
	}
	// Views: a living seat's role reaches only itself and, for a wolf, its pack.
	for v := 0; v <= len(m.seats); v++ {
		var view struct {
			Players []struct {
				Seat  int     `json:"seat"`
				Alive bool    `json:"alive"`
				Role  *string `json:"role"`
			} `json:"players"`
			Role *string `json:"role"`
			Seat *int    `json:"seat"`
		}
		if err := json.Unmarshal(m.View(v).Bytes(), &view); err != nil {
			t.Fatalf("view %d: %v", v, err)
		}
		if v == 0 && (view.Role != nil || view.Seat != nil) {
			t.Fatalf("the spectators' view has a seat or role")
		}
		me := breakroom.WireSeat(v)
		for _, p := range view.Players {
			s := m.seats[p.Seat]
			may := !s.alive || m.phase == phaseDone || v > 0 && (p.Seat == me || m.seats[me].role == RoleWolf && s.role == RoleWolf)
			if p.Role != nil && (!may || *p.Role != s.role) {
				t.Fatalf("viewer %d sees seat %d's role %s", v, p.Seat, *p.Role)
			}
			if p.Alive != s.alive {
				t.Fatalf("viewer %d sees seat %d alive=%v", v, p.Seat, p.Alive)
			}
		}
	}
	// The game ends at the first point where a win condition holds.
	if m.phase == phasePlaying {
		wolves, rest := 0, 0
		for _, s := range m.seats {
			if s.alive && s.role == RoleWolf {
				wolves++
			} else if s.alive {
				rest++
			}
		}
		if wolves == 0 || wolves >= rest {
			t.Fatalf("round %d %s: %d wolves and %d others alive, and play goes on", m.round, m.stage, wolves, rest)
		}
		if m.round > m.cfg.MaxRounds {
			t.Fatalf("round %d past max_rounds", m.round)
		}
	}
}

// checkEnd checks the finished match's result: the winner is the one the seats say, every
// ranking entry scores by §3.5, ranks are competition ranks, and score sums by team.
func checkEnd(t testing.TB, tb *table) {
	t.Helper()
	m := tb.m
	ends := tb.ofType("match_end")
	abandoned := false
	if len(ends) == 0 {
		ends, abandoned = tb.ofType("match_abandoned"), true
	}
	if len(ends) != 1 {
		t.Fatalf("%d end lines", len(ends))
	}
	overs := tb.ofType("game_over")
	winner := ""
	if !abandoned {
		if len(overs) != 1 {
			t.Fatalf("%d game_over lines", len(overs))
		}
		winner = overs[0]["winner"].(string)
		wolves, rest := 0, 0
		for _, s := range m.seats {
			if s.alive && s.role == RoleWolf {
				wolves++
			} else if s.alive {
				rest++
			}
		}
		switch winner {
		case WinnerVillage:
			if wolves != 0 {
				t.Fatalf("village wins with %d wolves alive", wolves)
			}
		case WinnerWolves:
			if wolves == 0 || wolves < rest {
				t.Fatalf("wolves win %d against %d", wolves, rest)
			}
		case WinnerDraw:
			if m.round != m.cfg.MaxRounds || wolves == 0 || wolves >= rest {
				t.Fatalf("draw in round %d with %d wolves, %d others", m.round, wolves, rest)
			}
		default:
			t.Fatalf("winner %q", winner)
		}
	}
	var ranking []struct {
		Rank, Seat      int
		Score           float64
		Role, Team      string
		Won, Alive      bool
		Eliminated      *string
		EliminatedRound *int `json:"eliminated_round"`
	}
	b, _ := json.Marshal(ends[0]["ranking"])
	if err := json.Unmarshal(b, &ranking); err != nil || len(ranking) != len(m.seats) {
		t.Fatalf("ranking %s: %v", b, err)
	}
	sum, want := 0.0, 0.0
	for i, r := range ranking {
		s := m.seats[r.Seat]
		left := r.Eliminated != nil && *r.Eliminated == HowLeft
		exp := 0.0
		switch {
		case left:
		case winner == "" || winner == WinnerDraw:
			exp = 0.5
		case TeamOf(s.role) == winner:
			exp = 1
		}
		if r.Score != exp || r.Role != s.role || r.Team != TeamOf(s.role) || r.Won != (exp == 1) {
			t.Fatalf("seat %d (%s, winner %q, left %v): entry %+v, want score %v", r.Seat, s.role, winner, left, r, exp)
		}
		if (r.Eliminated == nil) != r.Alive || (r.Eliminated == nil) != (r.EliminatedRound == nil) {
			t.Fatalf("seat %d: alive %v, eliminated %v, round %v", r.Seat, r.Alive, r.Eliminated, r.EliminatedRound)
		}
		sum += r.Score
		want += exp
		if i > 0 {
			prev := ranking[i-1]
			switch {
			case prev.Score < r.Score:
				t.Fatalf("%+v ranked above %+v", prev, r)
			case prev.Score == r.Score && (prev.Rank != r.Rank || prev.Seat > r.Seat):
				t.Fatalf("tie %+v %+v", prev, r)
			case prev.Score > r.Score && r.Rank != i+1:
				t.Fatalf("rank %d at place %d", r.Rank, i+1)
			}
		} else if r.Rank != 1 {
			t.Fatalf("first rank %d", r.Rank)
		}
	}
	// score sums by team: the winning team's members that did not leave (half of everyone who
	// did not leave on a draw).
	team := 0.0
	for i, s := range m.seats {
		if m.how(i) == HowLeft {
			continue
		}
		switch {
		case winner == "" || winner == WinnerDraw:
			team += 0.5
		case TeamOf(s.role) == winner:
			team++
		}
	}
	if sum != team || sum != want {
		t.Fatalf("scores sum to %v, the team count says %v", sum, team)
	}
	res, ok := m.Result()
	if !ok || len(res.Standings) != len(m.seats) || res.Standings[0].Rank != 1 {
		t.Fatalf("result %+v", res)
	}
}

// TestInvariants: §3.9 after every step of thousands of random matches (5 to 8 seats, random
// seeds, random legal moves with hostile ones between them, timeouts, seats that leave, some
// abandoned), then the result rules at each end. The random matches reach every outcome.
func TestInvariants(t *testing.T) {
	rnd := newRand(7)
	n := 2000
	if testing.Short() || raceOn {
		n = 200
	}
	outcomes := map[string]int{}
	for k := range n {
		seats := 5 + k%4
		abandon := 0
		if k%11 == 10 {
			abandon = 1 + rnd.IntN(60)
		}
		opts := ""
		switch k % 5 {
		case 1:
			opts = `{"doctor_self_protect":false,"doctor_repeat":true}`
		case 2:
			opts = `{"discussion_rounds":1,"max_rounds":3}`
		case 3:
			opts = `{"discussion_rounds":0,"strikes_limit":1}`
		}
		iv := newInvariants(t)
		tb := randomMatch(t, seats, randomSeed(rnd), opts, rnd, abandon, true, iv.check)
		checkEnd(t, tb)
		if o := tb.ofType("game_over"); len(o) == 1 {
			outcomes[o[0]["winner"].(string)]++
		} else {
			outcomes["abandoned"]++
		}
		for _, e := range tb.ofType("eliminated") {
			outcomes[e["how"].(string)]++
		}
	}
	for _, o := range []string{WinnerVillage, WinnerWolves, WinnerDraw, "abandoned", HowNight, HowExiled, HowLeft} {
		if outcomes[o] == 0 {
			t.Errorf("no random match reached %s: %v", o, outcomes)
		}
	}
}
