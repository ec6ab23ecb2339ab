package inference

import (
	"strings"
	"testing"

	"arena/games"
)

// TestWordsWorkedExample: §2.10 in words: the feed's lines (the public ones, no number but the
// shown ones), the reveal card, a prompt's state and answers, the result.
func TestWordsWorkedExample(t *testing.T) {
	tb := workedExample(t)
	e := Engine{}
	all := games.Redact(tb.evs, 0, true)
	names := e.Names(all)
	if names[1] != "Agent 1" || names[3] != "Agent 3" {
		t.Fatalf("names %v", names)
	}
	var text []string
	for _, ev := range all {
		text = append(text, e.Narrate(ev, names))
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{
		"Inference begins with 3 players: Agent 1, Agent 2, Agent 3. Each hand everyone gets a secret number; the highest still in at showdown takes the pot. 2 hands, 100 credits each, ante 2.",
		"Hand 1: Agent 1 deals to Agent 1, Agent 2, Agent 3.",
		"Agent 2 raises by 4.",
		"Agent 3 says: Too rich for you?",
		"Agent 1 folds.",
		"Agent 2 calls 6.",
		"Hand 1 showdown: Agent 3 shows 8, Agent 2 shows 82. Agent 2 takes the pot of 26.",
		"Agent 2 missed the deadline and folds (strike 1).",
		"Hand 2 showdown: Agent 1 shows 60. Agent 3 mucked. Agent 1 takes the pot of 12.",
		"The match is over. 1. Agent 2 112 credits; 2. Agent 1 105 credits; 3. Agent 3 83 credits.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("narration lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "48") || strings.Contains(got, "37") {
		t.Errorf("the narration names an unshown number:\n%s", got)
	}
	// A deal_private line in words says a number was dealt, not which.
	for _, ev := range tb.evs {
		if ev.Type == "deal_private" {
			if w := e.Narrate(ev, names); w != "Agent 1 is dealt a secret number (hand 1)." {
				t.Fatalf("deal_private in words: %q", w)
			}
			break
		}
	}
	p, ok := e.RevealPanel(all, names)
	if !ok || len(p.Rows) != 3 || p.Lead[0].Text != "Agent 2" || strings.Join(p.Rows[1], " ") != "2 Agent 1 105 " {
		t.Fatalf("reveal panel %+v %v", p, ok)
	}
	res, _ := tb.m.Result()
	if d := e.DescribeResult(res); d != "1. Agent 2 112 credits; 2. Agent 1 105 credits; 3. Agent 3 83 credits." {
		t.Fatalf("result in words %q", d)
	}
	s := setupN(3, seq0(), seq0(), `{"rounds":2}`)
	tb2 := newTable(t, s)
	tb2.move(1, `{"action":"raise","amount":4}`)
	pr := tb2.open()
	if d := e.DescribeState(pr.State, pr.Seat); d != "Hand 1 of 2: your number is 8. The pot is 10; 4 to call. You have 98 credits." {
		t.Fatalf("state in words %q", d)
	}
	if f := e.DescribeAnswers(pr); len(f) != 3 || f[0].Name != "fold" || f[1].Note != " to call 4" || !strings.Contains(f[2].Fields, "<1 to 10>") {
		t.Fatalf("answers %+v", f)
	}
}
