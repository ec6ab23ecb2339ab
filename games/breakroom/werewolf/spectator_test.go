package werewolf

import (
	"encoding/json"
	"reflect"
	"testing"

	"arena/games"
)

// spectatorFold rebuilds the spectators' view (§1.8, §3.7) from the public log lines alone: the
// round and phase, who is alive with the roles their deaths revealed (every role once
// match_end's ranking says them), the discussion pass (counted from the public discussion lines:
// a pass ends when no living seat after the one that acted is left in its order), the vote
// history and today's talk.
type spectatorFold struct {
	n, maxRounds, passes int
	status, phase        string
	round, pass          int
	alive                []bool
	role, how            []string
	elimRound            []int
	talk                 []map[string]any
	votes                []any
}

func (f *spectatorFold) add(t *testing.T, e games.Event) {
	if e.Visibility != games.Public {
		return
	}
	var l struct {
		Round   int    `json:"round"`
		Phase   string `json:"phase"`
		Seat    int    `json:"seat"`
		Turn    int    `json:"turn"`
		Text    string `json:"text"`
		How     string `json:"how"`
		Role    string `json:"role"`
		Players []any  `json:"players"`
		Config  struct {
			MaxRounds        int `json:"max_rounds"`
			DiscussionRounds int `json:"discussion_rounds"`
		} `json:"config"`
		Ranking []struct {
			Seat int    `json:"seat"`
			Role string `json:"role"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(e.Payload, &l); err != nil {
		t.Fatal(err)
	}
	switch e.Type {
	case "match_start":
		f.n, f.maxRounds, f.passes, f.status = len(l.Players), l.Config.MaxRounds, l.Config.DiscussionRounds, "playing"
		f.alive, f.role, f.how, f.elimRound = make([]bool, f.n), make([]string, f.n), make([]string, f.n), make([]int, f.n)
		for i := range f.alive {
			f.alive[i] = true
		}
	case "round_start":
		f.round, f.talk = l.Round, nil
	case "phase":
		f.phase, f.pass = l.Phase, 0
		if l.Phase == PhaseDiscussion && f.passes > 0 {
			f.pass = 1
		}
	case "eliminated":
		f.alive[l.Seat], f.role[l.Seat], f.how[l.Seat], f.elimRound[l.Seat] = false, l.Role, l.How, l.Round
	case "message":
		f.talk = append(f.talk, map[string]any{"seat": float64(l.Seat), "turn": float64(l.Turn), "text": l.Text})
	case "action", "timeout":
		// The pass ends when no living seat after this one is left in the pass's order.
		start := (f.round - 1) % f.n
		pos := (l.Seat - start + f.n) % f.n
		more := false
		for s := range f.n {
			more = more || f.alive[s] && (s-start+f.n)%f.n > pos
		}
		if !more && f.pass < f.passes {
			f.pass++
		}
	case "vote_result":
		var v any
		_ = json.Unmarshal(e.Payload, &v)
		f.votes = append(f.votes, v)
	case "match_end", "match_abandoned":
		f.status = "ended"
		if e.Type == "match_abandoned" {
			f.status = "abandoned"
		}
		for _, r := range l.Ranking {
			f.role[r.Seat] = r.Role
		}
	}
}

// check compares the fold with the match's spectator view.
func (f *spectatorFold) check(t *testing.T, m *match) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(m.View(0).Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	players := make([]any, f.n)
	for i := range f.n {
		p := map[string]any{"seat": float64(i), "alive": f.alive[i]}
		if f.role[i] != "" && (!f.alive[i] || f.status != "playing") {
			p["role"] = f.role[i]
		}
		if !f.alive[i] {
			p["eliminated"], p["eliminated_round"] = f.how[i], float64(f.elimRound[i])
		}
		players[i] = p
	}
	var dr any
	if f.phase == PhaseDiscussion && f.status == "playing" {
		dr = float64(f.pass)
	}
	votes := f.votes
	if votes == nil {
		votes = []any{}
	}
	want := map[string]any{
		"game": GameID, "rules_version": RulesVersion, "status": f.status, "round": float64(f.round), "phase": f.phase,
		"max_rounds": float64(f.maxRounds), "players": players, "discussion_round": dr, "vote_history": votes,
	}
	talk, _ := got["talk_today"].([]any)
	truncated := got["truncated"] == true
	delete(got, "talk_today")
	delete(got, "truncated")
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("the spectators' view\n%s\nis not what the public lines say\n%s", gj, wj)
	}
	// Today's talk: the newest public messages, all of them unless flagged truncated.
	if len(talk) > len(f.talk) || truncated != (len(talk) < len(f.talk)) {
		t.Fatalf("talk_today has %d of %d messages, truncated %v", len(talk), len(f.talk), truncated)
	}
	for k, w := range f.talk[len(f.talk)-len(talk):] {
		if !reflect.DeepEqual(talk[k], any(w)) {
			t.Fatalf("talk_today[%d] %v, the public line says %v", k, talk[k], w)
		}
	}
}

// TestSpectatorViewFromPublicLines: after every step of many random matches (seats that leave,
// abandons, every table size), the spectators' view is exactly what the public lines so far
// say (§1.8): no member of it comes from a private line.
func TestSpectatorViewFromPublicLines(t *testing.T) {
	rnd := newRand(21)
	matches := 300
	if testing.Short() || raceOn {
		matches = 60
	}
	for k := range matches {
		abandon := 0
		if k%6 == 5 {
			abandon = 1 + rnd.IntN(80)
		}
		opts := ""
		if k%3 == 1 {
			opts = `{"discussion_rounds":1,"strikes_limit":2}`
		}
		f := &spectatorFold{}
		randomMatch(t, 5+k%4, randomSeed(rnd), opts, rnd, abandon, false, func(tb *table, st games.Step) {
			for _, e := range st.Events {
				f.add(t, e)
			}
			f.check(t, tb.m)
		})
	}
}
