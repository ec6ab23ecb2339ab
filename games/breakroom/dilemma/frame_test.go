package dilemma

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// yourTurn is the protocol's your_turn frame for p, as a door writes it.
func yourTurn(t *testing.T, matchID string, p games.Prompt, now time.Time) []byte {
	round, turn, ok := breakroom.RoundTurn(p.Move)
	if !ok {
		t.Fatalf("prompt move %+v is not a Break Room move", p.Move)
	}
	b, err := json.Marshal(map[string]any{
		"type": "your_turn", "v": 0, "match_id": matchID, "round": round, "turn": turn,
		"deadline_ms": p.Deadline.Sub(now).Milliseconds(), "visible_state": json.RawMessage(p.State.Bytes()),
		"legal_actions": p.Legal,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFrameBudget: with every seat of a six-seat table sending the longest message it may (280
// four-byte code points) at every turn, every your_turn frame stays under 8 KB (J31): the talk
// keeps its newest entries, flagged truncated; the spectators' view and the seats' views too.
func TestFrameBudget(t *testing.T) {
	s := setupN(6, seq0(), `{"stop_one_in":1000000,"max_iterations":40}`)
	s.Round = "m_" + strings.Repeat("x", 62)
	tb := newTable(t, s)
	long := strings.Repeat("🙂", 280)
	truncated := false
	var newest map[string]any
	for k := 0; tb.m.phase == phasePlaying && k < 200; k++ {
		p := tb.open()
		if f := yourTurn(t, s.Round, p, tb.now); len(f) >= breakroom.MaxFrame {
			t.Fatalf("your_turn frame of %d bytes", len(f))
		}
		var st struct {
			Talk      []map[string]any `json:"talk"`
			Truncated bool             `json:"truncated"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			t.Fatalf("state is not JSON: %v", err)
		}
		if st.Truncated {
			truncated = true
			if got := st.Talk[len(st.Talk)-1]; got["turn"] != newest["turn"] || got["seat"] != newest["seat"] || got["round"] != newest["round"] {
				t.Fatalf("the truncated talk does not end with the newest message: %v vs %v", got, newest)
			}
		}
		for v := 0; v <= 6; v++ {
			if n := tb.m.View(v).Len(); n > breakroom.StateBudget {
				t.Fatalf("viewer %d's view is %d bytes", v, n)
			}
		}
		for _, e := range tb.play(breakroom.WireSeat(p.Seat), time.Second, `{"action":"defect","message":"`+long+`"}`).Events {
			if e.Type == "message" {
				newest = map[string]any{}
				json.Unmarshal(e.Payload, &newest)
			}
		}
	}
	if !truncated {
		t.Fatal("the talk never needed cutting: the test does not reach J31")
	}
}

// TestSpectatorViewFromPublicLines: the spectators' view (§1.8) is what the public lines alone
// say: round, iteration, pairs, bye, who sits out, status and the talk, through random matches.
func TestSpectatorViewFromPublicLines(t *testing.T) {
	check := func(tb *table) {
		t.Helper()
		var d struct {
			round, iteration int
			pairs            any
			bye              any
			out              []int
			status           string
			talk             []string
		}
		d.status, d.pairs = "waiting", []any{}
		for _, e := range games.Redact(tb.evs, 0, false) {
			var p map[string]any
			json.Unmarshal(e.Payload, &p)
			switch e.Type {
			case "match_start":
				d.status = "playing"
			case "round_start":
				d.round, d.iteration, d.pairs, d.bye = int(p["round"].(float64)), 1, p["pairs"], p["bye"]
			case "iteration_end":
				d.iteration = int(p["iteration"].(float64)) + 1
			case "round_end":
				d.iteration = int(p["iterations"].(float64))
			case "sit_out":
				d.out = append(d.out, int(p["seat"].(float64)))
				slices.Sort(d.out)
			case "sit_in":
				d.out = slices.DeleteFunc(d.out, func(s int) bool { return s == int(p["seat"].(float64)) })
			case "message":
				b, _ := json.Marshal(map[string]any{"round": p["round"], "seat": p["seat"], "turn": p["turn"], "text": p["text"]})
				d.talk = append(d.talk, string(b))
			case "match_end":
				d.status = "ended"
			case "match_abandoned":
				d.status = "abandoned"
			}
		}
		var v struct {
			Round, Iteration int
			Pairs, Bye       any
			SittingOut       []int `json:"sitting_out"`
			Status           string
			Talk             []json.RawMessage
			Truncated        bool
			Seat             *int
			Points           *int
		}
		if err := json.Unmarshal(tb.m.View(0).Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		pj, _ := json.Marshal(v.Pairs)
		dj, _ := json.Marshal(d.pairs)
		if v.Round != d.round || v.Iteration != d.iteration || string(pj) != string(dj) || v.Bye != d.bye ||
			!slices.Equal(v.SittingOut, append([]int{}, d.out...)) && len(v.SittingOut)+len(d.out) > 0 || v.Status != d.status || v.Seat != nil || v.Points != nil {
			t.Fatalf("spectator view %+v, the public lines say %+v", v, d)
		}
		if len(v.Talk) > len(d.talk) || v.Truncated != (len(v.Talk) < len(d.talk)) {
			t.Fatalf("talk %d entries (truncated %v) of %d public messages", len(v.Talk), v.Truncated, len(d.talk))
		}
		for i, m := range v.Talk {
			var a, b any
			json.Unmarshal(m, &a)
			json.Unmarshal([]byte(d.talk[len(d.talk)-len(v.Talk)+i]), &b)
			aj, _ := json.Marshal(a)
			bj, _ := json.Marshal(b)
			if string(aj) != string(bj) {
				t.Fatalf("talk entry %s, the public line says %s", aj, bj)
			}
		}
	}
	for k := range 30 {
		rnd := newRand(uint64(k))
		abandon := 0
		if k%3 == 2 {
			abandon = 5 + k
		}
		tb := randomMatch(t, 3+k%4, randomSeed(rnd), `{"stop_one_in":3,"max_iterations":5}`, rnd, abandon)
		check(tb)
		// Midway too: replay half of the inputs.
		m, evs, err := games.Replay(Engine{}, setupN(3+k%4, tb.m.setup.Seed, `{"stop_one_in":3,"max_iterations":5}`), nil, tb.log[:len(tb.log)/2])
		if err != nil {
			t.Fatal(err)
		}
		check(&table{t: t, m: m.(*match), evs: evs})
	}
}
