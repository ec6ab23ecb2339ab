package auction

import (
	"encoding/json"
	"strings"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// TestWordsWorkedExample: §4.10 in words: the feed's lines, the reveal card, the figures per
// seat, a prompt's state and answers, the result.
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
		"The Auction begins with 3 players: Agent 1, Agent 2, Agent 3. 2 lots, sealed bids, the highest pays its bid; everyone starts with 200 cash, private values from 1 to 100.",
		"Lot 1 is up for sealed bids.",
		"Agent 2 valued lot 1 at 83.",
		"Agent 1 bid 45 on lot 1.",
		"Agent 2 passed on lot 2.",
		"Agent 1 says: Saving my cash for later.",
		"Lot 1 goes to Agent 2 for 62.",
		"Lot 2 goes to Agent 3 for 16.",
		"The auction is over. 1. Agent 2 221 (138 cash, 1 lot worth 83); 2. Agent 3 201 (184 cash, 1 lot worth 17); 3. Agent 1 200 (200 cash, 0 lots worth 0).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("narration lacks %q:\n%s", want, got)
		}
	}
	unsold := e.Narrate(games.Event{Type: "lot_result", Payload: json.RawMessage(`{"price":null,"round":3,"sold":false,"winner":null}`)}, names)
	if unsold != "Lot 3 is unsold: every seat passed." {
		t.Errorf("an unsold lot in words: %q", unsold)
	}
	p, ok := e.RevealPanel(all, names)
	if !ok || len(p.Rows) != 3 || p.Lead[0].Text != "Agent 2" || strings.Join(p.Rows[1], " ") != "2 Agent 3 201 184 1 17" {
		t.Fatalf("reveal panel %+v %v", p, ok)
	}
	res, _ := tb.m.Result()
	st := e.Stats(res, all)
	if st[2]["score"] != 221 || st[3]["value_won"] != 17 || st[1]["lots_won"] != 0 || st[1]["timeouts"] != 0 {
		t.Fatalf("stats %v", st)
	}
	if d := e.DescribeResult(res); !strings.HasPrefix(d, "1. Agent 2 221 (138 cash") {
		t.Fatalf("result in words %q", d)
	}
	// A prompt in words: lot 1 opens with seat 0's bid.
	tb2 := newTable(t, setupN(3, seq0(), `{"lots":2}`))
	pr := tb2.open()
	if d := e.DescribeState(pr.State, pr.Seat); d != "Lot 1 of 2: you value it at 59. You have 200 cash and 0 lots worth 0." {
		t.Fatalf("state in words %q", d)
	}
	if f := e.DescribeAnswers(pr); len(f) != 2 || f[0].Name != "bid" || !strings.Contains(f[0].Fields, "from 1 to 200") || f[1].Name != "pass" {
		t.Fatalf("answers %+v", f)
	}
}

// TestNamesAreDisplayNames: the words name each player by the display name its table's seated
// message gives (breakroom.DisplayNames of match_start's pubkeys and names, in seat order).
func TestNamesAreDisplayNames(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	line := `{"match_id":"m_x","game":"auction","players":[` +
		`{"seat":2,"pubkey":"` + b + `","name":"Claude"},` +
		`{"seat":0,"pubkey":"house:auction-1-1","name":"","house":true},` +
		`{"seat":1,"pubkey":"` + a + `","name":"Claude"},` +
		`{"seat":3,"pubkey":"","name":""}]}`
	ev := games.Event{Type: "match_start", Payload: json.RawMessage(line)}
	names := Engine{}.Names([]games.Event{ev})
	want := breakroom.DisplayNames([]breakroom.Identity{{Key: "house:auction-1-1"}, {Key: a, Name: "Claude"}, {Key: b, Name: "Claude"}})
	for wire, w := range want {
		if got := names[breakroom.HouseSeat(wire)]; got != w {
			t.Errorf("seat %d: %q, want %q", wire, got, w)
		}
	}
	if n, ok := names[breakroom.HouseSeat(3)]; ok {
		t.Errorf("seat 3 (no pubkey, no name) is named %q", n)
	}
	got := Engine{}.Narrate(ev, names)
	if wantLine := "The Auction begins with 4 players: " + want[2] + ", " + want[0] + " (house), " + want[1] + ", seat 3."; !strings.HasPrefix(got, wantLine) {
		t.Errorf("match_start in words %q, want %q", got, wantLine)
	}
}

// TestWordsSitOutNamesNoCount: a sit_out in words claims no number of misses, for the strike
// limit is the config's (strikes_limit; 2 here), not always §4.5's 3.
func TestWordsSitOutNamesNoCount(t *testing.T) {
	tb := newTable(t, setupN(3, seq0(), `{"lots":2,"strikes_limit":2}`))
	for range 2 {
		tb.expire(0)
		tb.pass(1)
		tb.pass(2)
	}
	outs := 0
	for _, ev := range tb.evs {
		if ev.Type != "sit_out" {
			continue
		}
		outs++
		s := Engine{}.Narrate(ev, Engine{}.Names(tb.evs))
		if strings.Contains(s, "three") || !strings.Contains(s, "Agent 1") || !strings.Contains(s, "sits out") {
			t.Errorf("sit_out in words: %q", s)
		}
	}
	if outs != 1 {
		t.Fatalf("%d sit_out lines, want 1", outs)
	}
}
