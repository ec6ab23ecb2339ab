package werewolf

import (
	"strings"
	"testing"

	"arena/games"
)

// TestWordsWorkedExample: §3.10 in words: the feed's lines (the public ones live, every one in
// the replay), the reveal card, the figures per seat (its timeout counted), a prompt's state and
// answers, the result.
func TestWordsWorkedExample(t *testing.T) {
	tb := workedExample(t)
	e := Engine{}
	all := games.Redact(tb.evs, 0, true)
	names := e.Names(all)
	if names[1] != "Agent 1" || names[5] != "Agent 5" {
		t.Fatalf("names %v", names)
	}
	var text []string
	for _, ev := range all {
		text = append(text, e.Narrate(ev, names))
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{
		"Werewolf begins with 5 players: Agent 1, Agent 2, Agent 3, Agent 4, Agent 5. 1 wolf hides among them; the game lasts at most 8 rounds.",
		"Agent 5 is a wolf.",
		"Night 1 falls. Everyone closes their eyes.",
		"Agent 2 inspected Agent 4 (night 1).",
		"Agent 2 learned that Agent 4 is not a wolf.",
		"The pack chose Agent 1 as its victim (night 1).",
		"Dawn 1: Agent 1 did not wake up.",
		"Agent 1 was killed in the night. They were a villager.",
		"Agent 2 says: I am the seer. Seat 3 is clean.",
		"The votes of day 1: Agent 2 voted for Agent 5, Agent 3 voted for Agent 2, Agent 4 voted for Agent 5, Agent 5 voted for Agent 2. Nobody is exiled.",
		"Agent 4 missed the deadline and was played as sleep (strike 1).",
		"Dawn 2: nobody died in the night.",
		"Agent 5 is exiled by the village. They were a wolf.",
		"The village wins in round 2: no wolf is left.",
		"The match is over. 1. Agent 1 (villager, village) 1, killed at night; 1. Agent 2 (seer, village) 1;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("narration lacks %q:\n%s", want, got)
		}
	}
	live := games.Redact(tb.evs, 0, false)
	for _, ev := range live {
		if w := e.Narrate(ev, names); ev.Type != "message" && strings.Contains(w, "inspected") || strings.Contains(w, "is a wolf.") || strings.Contains(w, "pack chose") {
			t.Fatalf("a live public line in words tells a secret: %q", w)
		}
	}
	p, ok := e.RevealPanel(all, names)
	if !ok || len(p.Rows) != 5 || p.Lead[0].Text != "The village" || strings.Join(p.Rows[4], " ") != "5 Agent 5 wolf wolves 0 exiled in round 2" ||
		strings.Join(p.Rows[0], " ") != "1 Agent 1 villager village 1 killed in round 1" {
		t.Fatalf("reveal panel %+v %v", p, ok)
	}
	res, _ := tb.m.Result()
	st := e.Stats(res, all)
	if st[4]["timeouts"] != 1 || st[5]["score"] != 0 || st[1]["score"] != 1 || st[1]["alive"] != 0 || st[2]["won"] != 1 {
		t.Fatalf("stats %v", st)
	}
	if d := e.DescribeResult(res); !strings.HasPrefix(d, "The village wins: 1. Agent 1 (villager, village) 1") {
		t.Fatalf("result in words %q", d)
	}
	tb2 := newTable(t, setupN(5, seq0(), ""))
	pr := tb2.open()
	if d := e.DescribeState(pr.State, pr.Seat); d != "Round 1 of 8, night. You are a villager. Alive: seat 0, seat 1, seat 2, seat 3 and seat 4." {
		t.Fatalf("state in words %q", d)
	}
	if f := e.DescribeAnswers(pr); len(f) != 1 || f[0].Name != "sleep" {
		t.Fatalf("answers %+v", f)
	}
	tb2.do(0, ActionSleep, -1)
	if f := e.DescribeAnswers(tb2.open()); len(f) != 2 || f[0].Fields != `"action": "inspect", "target": <one of 0, 2, 3, 4>` {
		t.Fatalf("seer's answers %+v", f)
	}
}
