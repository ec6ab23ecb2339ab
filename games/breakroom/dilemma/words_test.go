package dilemma

import (
	"strings"
	"testing"

	"arena/games"
)

// TestWordsWorkedExample: §5.11 in words: the feed's lines, the reveal card, the figures per
// seat (its timeout counted), a prompt's state and answers, the result.
func TestWordsWorkedExample(t *testing.T) {
	tb := workedExample(t)
	e := Engine{}
	all := games.Redact(tb.evs, 0, true)
	names := e.Names(all)
	if names[1] != "Agent 1" || names[4] != "Agent 4" {
		t.Fatalf("names %v", names)
	}
	var text []string
	for _, ev := range all {
		text = append(text, e.Narrate(ev, names))
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{
		"The Dilemma begins with 4 players: Agent 1, Agent 2, Agent 3, Agent 4. Every pair meets once, for a hidden number of iterations. After each iteration play stops with chance 1 in 2 (at most 20).",
		"Round 1: Agent 1 meets Agent 4, Agent 2 meets Agent 3.",
		"Agent 4 says: Nice doing business.",
		"Agent 4 chose to defect (round 1, iteration 1).",
		"Round 1, iteration 1: Agent 1 (C) against Agent 4 (D): 0 to 5.",
		"Agent 3 missed the deadline and was played as cooperate (round 3, iteration 1, strike 1).",
		"Round 2 ends after 2 iterations.",
		"The match is over. 1. Agent 4 4 (16 points in 4 iterations); 2. Agent 3 2.75 (11 points in 4 iterations); 3. Agent 2 1.75 (7 points in 4 iterations); 4. Agent 1 1.5 (6 points in 4 iterations).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("narration lacks %q:\n%s", want, got)
		}
	}
	p, ok := e.RevealPanel(all, names)
	if !ok || len(p.Rows) != 4 || p.Lead[0].Text != "Agent 4" || strings.Join(p.Rows[1], " ") != "2 Agent 3 2.75 11 4 3 1" {
		t.Fatalf("reveal panel %+v %v", p, ok)
	}
	res, _ := tb.m.Result()
	st := e.Stats(res, all)
	if st[3]["timeouts"] != 1 || st[4]["points"] != 16 || st[1]["score"] != 1.5 || st[2]["timeouts"] != 0 {
		t.Fatalf("stats %v", st)
	}
	if d := e.DescribeResult(res); !strings.HasPrefix(d, "1. Agent 4 4 (16 points") {
		t.Fatalf("result in words %q", d)
	}
	// A prompt in words: round 1 opens with seat 0's choice.
	tb2 := newTable(t, setupN(4, seq0(), `{"stop_one_in":2}`))
	pr := tb2.open()
	if d := e.DescribeState(pr.State, pr.Seat); d != "Round 1 of 3, iteration 1: you face seat 3. You have 0 points from 0 iterations." {
		t.Fatalf("state in words %q", d)
	}
	if f := e.DescribeAnswers(pr); len(f) != 2 || f[0].Name != "cooperate" || f[1].Name != "defect" {
		t.Fatalf("answers %+v", f)
	}
}
