package diplomacy

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

var t0 = time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)

func seq0() [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(i)
	}
	return s
}

func setup(seed [32]byte, opts string) games.Setup {
	s := games.Setup{Game: GameID, Round: "m_dip", Seed: seed, Start: t0}
	for i := 1; i <= Seats; i++ {
		s.Seats = append(s.Seats, games.Seat{Seat: i, Agent: fmt.Sprintf("%064x", i), Name: fmt.Sprintf("Agent %d", i)})
	}
	if opts != "" {
		s.Options = json.RawMessage(opts)
	}
	return s
}

// table drives one match, answering the open prompt a millisecond after it opens.
type table struct {
	t   *testing.T
	m   *match
	evs []games.Event
	now time.Time
}

func newTable(t *testing.T, s games.Setup) *table {
	t.Helper()
	mm, err := Engine{}.New(s, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	tb := &table{t: t, m: mm.(*match), now: s.Start}
	tb.evs = append(tb.evs, tb.m.Advance(s.Start).Events...)
	return tb
}

// play answers the open prompt with body, checking that it is seat's (wire) prompt.
func (tb *table) play(seat int, body string) {
	tb.t.Helper()
	o := tb.m.open
	if o == nil || o.seat != seat {
		tb.t.Fatalf("want seat %d's prompt, open is %+v", seat, o)
	}
	tb.now = o.opened.Add(time.Millisecond)
	st, err := tb.m.Act(tb.now, games.Input{Seat: breakroom.HouseSeat(seat), Kind: "answer", Move: o.prompt.Move, Body: json.RawMessage(body)})
	if err != nil {
		tb.t.Fatalf("seat %d %s: %v", seat, body, err)
	}
	tb.evs = append(tb.evs, st.Events...)
}

func (tb *table) lines(typ string) []map[string]any {
	var out []map[string]any
	for _, e := range tb.evs {
		if e.Type == typ {
			var v map[string]any
			if err := json.Unmarshal(e.Payload, &v); err != nil {
				tb.t.Fatal(err)
			}
			out = append(out, v)
		}
	}
	return out
}

func done(tb *table, seats ...int) {
	for _, s := range seats {
		tb.play(s, `{"action":"done"}`)
	}
}

func orders(list ...string) string {
	b, _ := json.Marshal(map[string]any{"action": "orders", "orders": list})
	return string(b)
}

// The visible_state of breakroom-games §6.12, AUS's S1901M orders prompt in §6.15. Units are
// listed in province order, every power's as in the spec but AUS's, which the spec writes "A bud",
// "A vie", "F tri" (out of province order, unlike the six others; docs/protocol-notes.md).
const ausState = `{"game":"diplomacy","rules_version":"diplomacy-0.1","round":1,"phase":"S1901M","step":"orders",
 "year":1901,"last_year":1901,"victory_centres":18,"seat":4,"power":"AUS",
 "powers":[{"seat":0,"power":"FRA","centres":3,"units":3,"civil_disorder":false,"eliminated":false},
           {"seat":1,"power":"ENG","centres":3,"units":3,"civil_disorder":false,"eliminated":false},
           {"seat":2,"power":"TUR","centres":3,"units":3,"civil_disorder":false,"eliminated":false},
           {"seat":3,"power":"RUS","centres":4,"units":4,"civil_disorder":false,"eliminated":false},
           {"seat":4,"power":"AUS","centres":3,"units":3,"civil_disorder":false,"eliminated":false}],
 "units":{"AUS":["A bud","F tri","A vie"],"ENG":["F edi","F lon","A lvp"],"FRA":["F bre","A mar","A par"],
          "RUS":["A mos","F sev","F stp/sc","A war"],"TUR":["F ank","A con","A smy"],
          "GER":["A ber","F kie","A mun"],"ITA":["F nap","A rom","A ven"]},
 "centres":{"AUS":["bud","tri","vie"],"ENG":["edi","lon","lvp"],"FRA":["bre","mar","par"],
            "RUS":["mos","sev","stp","war"],"TUR":["ank","con","smy"],"GER":["ber","kie","mun"],
            "ITA":["nap","rom","ven"],"neutral":["bel","bul","den","gre","hol","nwy","por","rum","ser","spa","swe","tun"]},
 "options":{"A bud":["gal","rum","ser","tri","vie"],"A vie":["boh","bud","gal","tri","tyr"],"F tri":["adr","alb","ven"]},
 "dislodged":[],"adjustment":0,
 "press_round":null,"press":[{"press_round":1,"from":3,"to":[4],"text":"I am heading north; Galicia stays empty."},
                             {"press_round":1,"from":4,"to":"all","text":"Austria wants quiet borders with everyone."}],
 "last_phase":null}`

// TestWorkedExampleMatch plays breakroom-games §6.15 through the engine: the seeded powers, the
// press and its privacy, AUS's prompt (round 1, turn 19, 45 s, §6.12's visible_state and legal
// actions), both phases' adjudication, the centre counts, the year-limit end and the ranking.
func TestWorkedExampleMatch(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"last_year":1901}`))
	if got := tb.lines("powers"); len(got) != 1 || fmt.Sprint(got[0]["assignment"]) !=
		"[map[power:FRA seat:0] map[power:ENG seat:1] map[power:TUR seat:2] map[power:RUS seat:3] map[power:AUS seat:4]]" {
		t.Fatalf("powers %v", got)
	}
	tb.play(0, `{"action":"send","recipient":1,"message":"Shall we both keep out of the Channel?"}`)
	tb.play(0, `{"action":"done"}`)
	tb.play(1, `{"action":"send","recipient":0,"message":"Agreed."}`)
	tb.play(1, `{"action":"done"}`)
	tb.play(2, `{"action":"send","recipient":3,"message":"Black Sea stays empty?"}`)
	tb.play(2, `{"action":"done"}`)
	tb.play(3, `{"action":"send","recipient":4,"message":"I am heading north; Galicia stays empty."}`)
	tb.play(3, `{"action":"done"}`)
	tb.play(4, `{"action":"broadcast","message":"Austria wants quiet borders with everyone."}`)
	tb.play(4, `{"action":"done"}`)
	done(tb, 0, 1, 2, 3, 4)
	tb.play(0, orders("F bre - mao", "A par - bur", "A mar - spa"))
	tb.play(1, orders("F lon - nth", "F edi - nwg", "A lvp - yor"))
	tb.play(2, orders("F ank - bla", "A con - bul", "A smy - con"))
	tb.play(3, orders("A mos - ukr", "A war - gal", "F sev - bla", "F stp/sc - bot"))
	o := tb.m.open
	if o.seat != 4 || o.turn != 19 || o.deadline.Sub(o.opened) != 45*time.Second || o.prompt.Move != breakroom.MoveOf(1, 19) {
		t.Fatalf("AUS prompt: seat %d turn %d deadline %v", o.seat, o.turn, o.deadline.Sub(o.opened))
	}
	var got, want any
	if err := json.Unmarshal(o.prompt.State.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(ausState), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AUS visible_state\n%s\nwant §6.12's", o.prompt.State.Bytes())
	}
	if len(o.prompt.Legal) != 1 || o.prompt.Legal[0].Name != "orders" || string(o.prompt.Legal[0].Bounds) != `{"phase":"S1901M","units":["A bud","F tri","A vie"]}` {
		t.Errorf("AUS legal %s %s", o.prompt.Legal[0].Name, o.prompt.Legal[0].Bounds)
	}
	// A refused order set names the order and why, and leaves the turn open.
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 5, Kind: "answer", Move: o.prompt.Move, Body: json.RawMessage(orders("F tri - tyr"))}); err == nil ||
		!strings.Contains(err.Error(), `order 1 "F tri - tyr"`) || !strings.Contains(err.Error(), "inland") {
		t.Errorf("refusal %v", err)
	}
	tb.play(4, orders("A vie - gal", "A bud - ser", "F tri - alb"))
	adj := tb.lines("adjudication")
	if len(adj) != 1 || fmt.Sprint(adj[0]["standoffs"]) != "[bla gal]" || fmt.Sprint(adj[0]["dislodged"]) != "[]" {
		t.Fatalf("S1901M adjudication %v", adj)
	}
	var fails []string
	for _, r := range adj[0]["results"].([]any) {
		if r := r.(map[string]any); r["result"] == "fails" {
			fails = append(fails, fmt.Sprintf("%s %s %s", r["power"], r["order"], r["reason"]))
		}
	}
	sort.Strings(fails)
	if want := "[AUS A vie - gal bounced RUS A war - gal bounced RUS F sev - bla bounced TUR F ank - bla bounced]"; fmt.Sprint(fails) != want {
		t.Errorf("S1901M fails %v", fails)
	}
	if ph := tb.lines("phase_start"); len(ph) != 2 || ph[1]["phase"] != "F1901M" || ph[1]["round"] != 2.0 {
		t.Fatalf("phase_start %v", ph)
	}
	for r := 0; r < 2; r++ {
		done(tb, 0, 1, 2, 3, 4)
	}
	tb.play(0, orders("A bur - bel", "F mao - por", "A spa H"))
	tb.play(1, orders("F nwg - nwy", "F nth C A yor - bel", "A yor - bel"))
	tb.play(2, orders("F ank - bla", "A bul H", "A con S A bul"))
	tb.play(3, orders("A ukr - rum", "F sev S A ukr - rum", "A war - gal", "F bot - swe"))
	tb.play(4, orders("F alb - gre", "A ser - rum", "A vie - gal"))
	c := tb.lines("centres")
	if len(c) != 1 || fmt.Sprint(c[0]["counts"]) != "map[AUS:5 ENG:4 FRA:5 GER:3 ITA:3 RUS:6 TUR:4]" ||
		fmt.Sprint(c[0]["owners"].(map[string]any)["neutral"]) != "[bel den hol tun]" || c[0]["year"] != 1901.0 {
		t.Fatalf("centres %v", c)
	}
	if g := tb.lines("game_over"); len(g) != 1 || g[0]["reason"] != "year_limit" || g[0]["solo"] != nil || g[0]["round"] != 2.0 {
		t.Fatalf("game_over %v", g)
	}
	end := tb.lines("match_end")
	if len(end) != 1 {
		t.Fatalf("match_end %v", end)
	}
	var rank []string
	for _, e := range end[0]["ranking"].([]any) {
		e := e.(map[string]any)
		rank = append(rank, fmt.Sprintf("%v:%v:%v:%v:%v:%v:%v:%v", e["rank"], e["seat"], e["power"], e["score"], e["centres"], e["units"], e["solo"], e["eliminated_year"]))
	}
	want2 := "[1:3:RUS:6:6:4:false:<nil> 2:0:FRA:5:5:3:false:<nil> 2:4:AUS:5:5:3:false:<nil> 4:1:ENG:4:4:3:false:<nil> 4:2:TUR:4:4:3:false:<nil>]"
	if fmt.Sprint(rank) != want2 {
		t.Errorf("ranking %v\nwant %s", rank, want2)
	}
	res, ok := tb.m.Result()
	if !ok || res.Standings[0].Seat != 4 || res.Standings[0].Score != 6 || res.Standings[2].Rank != 2 {
		t.Errorf("result %+v", res.Standings)
	}
	// Privacy: the private press went to its two seats only.
	for _, e := range tb.evs {
		if e.Type == "message_private" && !strings.HasPrefix(string(e.Visibility), "private:") {
			t.Errorf("%s is %s", e.Type, e.Visibility)
		}
	}
}

// TestWords: §6.15's public lines in words, and the end's card.
func TestWords(t *testing.T) {
	tb := newTable(t, setup(seq0(), `{"last_year":1901,"press_rounds":0}`))
	for _, s := range []int{0, 1, 2, 3, 4} {
		tb.play(s, orders())
	}
	for _, s := range []int{0, 1, 2, 3, 4} {
		tb.play(s, orders())
	}
	pub := games.Redact(tb.evs, 0, false)
	names := Engine{}.Names(pub)
	var got []string
	for _, e := range pub {
		switch e.Type {
		case "powers", "phase_start", "centres", "game_over":
			got = append(got, Engine{}.Narrate(e, names))
		}
	}
	want := []string{
		"Powers dealt: Agent 1 plays France, Agent 2 plays England, Agent 3 plays Turkey, Agent 4 plays Russia, Agent 5 plays Austria.",
		"Round 1: spring 1901 movement opens.",
		"Round 2: fall 1901 movement opens.",
		"Supply centres after 1901: Russia 4, Austria 3, England 3, France 3, Germany 3, Italy 3, Turkey 3.",
		"The game ends at the year limit.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("words\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p, ok := Engine{}.RevealPanel(pub, names)
	if !ok || len(p.Rows) != 5 || strings.Join(p.Rows[0], "|") != "1|Agent 4|Russia|4|4" {
		t.Errorf("reveal card %+v", p)
	}
}
