package dilemma

import (
	"strings"
	"testing"
	"time"

	"arena/games"
)

// TestWordsOfAMatch: a BETRAYAL (B defects, A left to the deadline) narrated event by event, its
// reveal card, the commit prompt and the result in words, each to the byte.
func TestWordsOfAMatch(t *testing.T) {
	m := newMatch(t, 1_000_000)
	open := m.Advance(t0)
	p := open.Prompts[0]
	e := Engine{}
	wantState := "You are seat A; each seat staked 1000000 micro-units and the pot is 2000000. You have not committed yet; your opponent has not committed yet.\n" +
		"Shares of the pot: both cooperate: you 45%, they 45%; you alone defect: you 65%, they 15%; they alone defect: you 15%, they 65%; both defect: you 30%, they 30%. A seat that does not commit in time plays COOPERATE."
	if got := e.DescribeState(p.State, p.Seat); got != wantState {
		t.Fatalf("state:\n%s\nwant:\n%s", got, wantState)
	}
	forms := e.DescribeAnswers(p)
	want := []games.AnswerForm{{Name: "commit", Fields: `"choice": "COOPERATE"`, Note: " to cooperate"}, {Name: "commit", Fields: `"choice": "DEFECT"`, Note: " to defect"}}
	if len(forms) != 2 || forms[0] != want[0] || forms[1] != want[1] {
		t.Fatalf("answers %+v", forms)
	}
	if got := e.DescribeAnswers(games.Prompt{Move: games.Move{Turn: 1, Phase: "reveal"}}); len(got) != 0 {
		t.Fatalf("answers outside the commit: %+v", got)
	}

	evs := append([]games.Event(nil), open.Events...)
	st, err := m.Act(t0.Add(time.Second), answer(2, `{"action":"defect"}`))
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, st.Events...)
	if got := e.DescribeState(m.Prompts()[0].State, 1); !strings.Contains(got, "You have not committed yet; your opponent has committed.") {
		t.Fatalf("state after B committed: %s", got)
	}
	for {
		d, ok := m.Deadline()
		if !ok {
			break
		}
		evs = append(evs, m.Advance(d).Events...)
	}
	pub := games.Redact(evs, 0, false)
	names := e.Names(pub)
	if names[1] != "Ada" || names[2] != "Bo" || len(names) != 2 {
		t.Fatalf("names %v", names)
	}
	if _, ok := e.RevealPanel(pub[:len(pub)-1], names); ok {
		t.Fatal("a reveal card before the end")
	}
	var lines []string
	for i, ev := range pub {
		if (e.Final(ev) == games.EndRevealed) != (i == len(pub)-1) {
			t.Fatalf("Final(%s) at %d of %d", ev.Type, i, len(pub))
		}
		lines = append(lines, e.Narrate(ev, names))
	}
	wantLines := strings.Join([]string{
		"Game II opened: seat A (Ada) and seat B (Bo) stake 1000000 micro-units each; the pot is 2000000.",
		"Commit: each seat chooses COOPERATE or DEFECT, sealed, by 2026-11-30T03:11:00.000Z.",
		"Seat B (Bo) sealed its choice.",
		"Seat A (Ada) did not commit in time: COOPERATE applied.",
		"Revealed: seat A (Ada) chose COOPERATE, seat B (Bo) chose DEFECT: BETRAYAL.",
		"The match is over: seat B (Bo) wins.",
	}, "\n")
	if got := strings.Join(lines, "\n"); got != wantLines {
		t.Fatalf("feed:\n%s\nwant:\n%s", got, wantLines)
	}
	panel, ok := e.RevealPanel(pub, names)
	if !ok {
		t.Fatal("no reveal card at the end")
	}
	lead := ""
	for _, r := range panel.Lead {
		lead += r.Text
	}
	if lead != "The outcome: BETRAYAL. The house keeps 400000 micro-units." || !panel.Lead[1].Strong || panel.Lead[1].Text != "BETRAYAL" {
		t.Fatalf("lead %+v", panel.Lead)
	}
	wantRows := [][]string{{"A", "Ada", "COOPERATE (defaulted)", "300000", "-700000", "loss"}, {"B", "Bo", "DEFECT", "1300000", "300000", "win"}}
	if len(panel.Rows) != 2 || strings.Join(panel.Rows[0], "|") != strings.Join(wantRows[0], "|") || strings.Join(panel.Rows[1], "|") != strings.Join(wantRows[1], "|") || len(panel.Head) != 6 {
		t.Fatalf("rows %v head %v", panel.Rows, panel.Head)
	}

	r, ok := m.Result()
	if !ok {
		t.Fatal("no result")
	}
	wantResult := "Returns (gross, micro-units): seat A 300000; seat B 1300000; the house 400000.\n" +
		"The outcome: BETRAYAL. Seat A chose COOPERATE (defaulted at the deadline); seat B chose DEFECT."
	if got := e.DescribeResult(r); got != wantResult {
		t.Fatalf("result:\n%s\nwant:\n%s", got, wantResult)
	}
}

// TestWordsOfAnAbandonedMatch: the feed, the reveal card and the result say the match was
// abandoned and the stakes returned.
func TestWordsOfAnAbandonedMatch(t *testing.T) {
	m := newMatch(t, 1_000_000)
	evs := m.Advance(t0).Events
	evs = append(evs, m.Abandon(t0.Add(time.Second), "table closed").Events...)
	e := Engine{}
	last := evs[len(evs)-1]
	if e.Final(last) != games.EndAbandoned || e.Narrate(last, nil) != "The match was abandoned (table closed): every stake is returned." {
		t.Fatalf("abandon line %q", e.Narrate(last, nil))
	}
	panel, ok := e.RevealPanel(games.Redact(evs, 0, false), nil)
	if !ok || len(panel.Rows) != 0 || panel.Lead[1].Text != "abandoned" || panel.Lead[2].Text != " (table closed): every stake was returned." {
		t.Fatalf("abandoned card %+v %v", panel, ok)
	}
	r, _ := m.Result()
	if got := e.DescribeResult(r); got != "Returns (gross, micro-units): seat A 1000000; seat B 1000000; the house 0.\nThe match was abandoned (table closed): every stake was returned." {
		t.Fatalf("abandoned result %q", got)
	}
}
