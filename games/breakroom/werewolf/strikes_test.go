package werewolf

import (
	"encoding/json"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// TestLeftInTheDay: the third missed deadline in a row in the discussion eliminates the seat as
// "left" at once, right after its public timeout line, with its role; it gets no more prompts,
// and it scores 0 though its team wins (§3.6, J18).
func TestLeftInTheDay(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), "")) // s0 villager, s1 seer, s2 doctor, s3 villager, s4 wolf
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionInspect, 4)
	tb.do(2, ActionProtect, 1)
	tb.expire(3) // strike 1 (private)
	tb.do(4, ActionKill, 0)
	tb.do(1, ActionPass, -1)
	tb.do(2, ActionPass, -1)
	tb.expire(3) // strike 2 (public)
	tb.do(4, ActionPass, -1)
	tb.do(1, ActionPass, -1)
	tb.do(2, ActionPass, -1)
	st := tb.expire(3) // strike 3: left
	if len(st.Events) < 2 || st.Events[0].Type != "timeout" || st.Events[1].Type != "eliminated" {
		t.Fatalf("the third timeout's lines: %+v", st.Events)
	}
	if got := string(st.Events[1].Payload); got != `{"how":"left","role":"villager","round":1,"seat":3}` {
		t.Fatalf("eliminated %s", got)
	}
	if got := string(st.Events[0].Payload); got != `{"auto":"pass","round":1,"seat":3,"strikes":3,"turn":11}` {
		t.Fatalf("timeout %s", got)
	}
	tb.do(4, ActionPass, -1)
	// The vote: seat 3 is not prompted, nor offered as a target.
	if got := js(tb.open().Legal); got != `[{"action":"vote","targets":[2,4]},{"action":"abstain"}]` {
		t.Fatalf("seat 1's vote: %s", got)
	}
	tb.do(1, ActionVote, 4)
	tb.do(2, ActionVote, 4)
	tb.do(4, ActionVote, 1)
	if got := js(tb.ofType("game_over")); got != `[{"round":1,"winner":"village"}]` {
		t.Fatalf("game_over %s", got)
	}
	res, _ := tb.m.Result()
	if res.ScoreOf(breakroom.HouseSeat(3)) != 0 || res.ScoreOf(breakroom.HouseSeat(0)) != 1 || res.ScoreOf(breakroom.HouseSeat(4)) != 0 {
		t.Fatalf("standings %+v: a seat that left scores 0, the dead villager 1", res.Standings)
	}
	var ranking []map[string]any
	b, _ := json.Marshal(tb.ofType("match_end")[0]["ranking"])
	json.Unmarshal(b, &ranking)
	for _, r := range ranking {
		if r["seat"] == 3.0 && (r["eliminated"] != "left" || r["won"] != false || r["rank"] != 4.0) {
			t.Fatalf("seat 3's entry %v", r)
		}
	}
}

// TestLeftAtNight: a seat reaching the strike limit at night is removed when the night closes:
// dawn lists only the kill, then eliminated how "left"; a kill on the seat that left finds no
// victim; a strike streak is broken by an on-time move.
func TestLeftAtNight(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), `{"strikes_limit":1}`))
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionInspect, 4)
	tb.do(2, ActionProtect, 2)
	st := tb.expire(3) // the limit: seat 3 leaves, but nobody hears of it before dawn
	if len(st.Events) != 1 || st.Events[0].Type != "timeout_private" || st.Events[0].Visibility != games.Private(4) {
		t.Fatalf("the timeout's lines %+v", st.Events)
	}
	// The wolf may still name seat 3: its departure is not announced yet.
	if got := js(tb.open().Legal); got != `[{"action":"kill","targets":[0,1,2,3],"max_message_chars":280},{"action":"sleep","max_message_chars":280}]` {
		t.Fatalf("the wolf's legal_actions %s", got)
	}
	st = tb.do(4, ActionKill, 3)
	var types []string
	for _, e := range st.Events {
		types = append(types, e.Type+" "+string(e.Payload))
	}
	want := []string{
		`action_private {"action":"kill","reveal":"end","round":1,"seat":4,"target":3,"to":[],"turn":4}`,
		`kill_private {"reveal":"end","round":1,"seat":4,"target":3,"to":[]}`,
		`dawn {"deaths":[],"round":1}`,
		`eliminated {"how":"left","role":"villager","round":1,"seat":3}`,
		`phase {"phase":"day_discussion","round":1}`,
	}
	if js(types) != js(want) {
		t.Fatalf("the night's close\n%v\nwant\n%v", types, want)
	}
}

// TestLeftInTheVote: a seat reaching the strike limit in the vote is announced after
// vote_result; votes cast for it exile nobody; and the win check runs after it (here the last
// wolf leaves: the village wins).
func TestLeftInTheVote(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), `{"strikes_limit":1,"discussion_rounds":0}`))
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionInspect, 4)
	tb.do(2, ActionProtect, 0)
	tb.do(3, ActionSleep, -1)
	tb.do(4, ActionKill, 0) // protected
	tb.do(0, ActionVote, 4)
	tb.do(1, ActionVote, 4)
	tb.do(2, ActionAbstain, -1)
	tb.do(3, ActionVote, 1)
	st := tb.expire(4)
	var types []string
	for _, e := range st.Events {
		types = append(types, e.Type+" "+string(e.Payload))
	}
	if len(types) < 4 || types[1] != `vote_result {"exiled":null,"round":1,"votes":[{"seat":0,"target":4},{"seat":1,"target":4},{"seat":2,"target":null},{"seat":3,"target":1},{"seat":4,"target":null}]}` ||
		types[2] != `eliminated {"how":"left","role":"wolf","round":1,"seat":4}` || types[3] != `game_over {"round":1,"winner":"village"}` {
		t.Fatalf("the vote's close %v", types)
	}
}

// TestAwayDeadline: an away seat's prompt gets away_deadline_ms; its return restores the full
// deadline from the prompt's opening; a presence that changes nothing is refused.
func TestAwayDeadline(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), ""))
	p := tb.open()
	opened := tb.now
	tb.now = tb.now.Add(time.Second)
	st, err := tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)})
	if err != nil || len(st.Prompts) != 1 || !st.Prompts[0].Deadline.Equal(tb.now.Add(3*time.Second)) {
		t.Fatalf("away: %v %+v", err, st.Prompts)
	}
	st, err = tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)})
	if err != nil || !st.Prompts[0].Deadline.Equal(opened.Add(20*time.Second)) {
		t.Fatalf("back: %v %+v", err, st.Prompts)
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: p.Seat, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)}); !isCode(err, CodeUnchanged) {
		t.Fatalf("no change: %v", err)
	}
	// Away before its prompt opens: the next prompt is short.
	if _, err := tb.m.Act(tb.now, games.Input{Seat: breakroom.HouseSeat(2), Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)}); err != nil {
		t.Fatal(err)
	}
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionSleep, -1)
	if p := tb.open(); p.Seat != breakroom.HouseSeat(2) || !p.Deadline.Equal(tb.now.Add(3*time.Second)) {
		t.Fatalf("the away doctor's prompt %+v", p)
	}
}

// TestDraw: max_rounds without a winner is a draw: 0.5 each, game_over winner draw.
func TestDraw(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), `{"max_rounds":1}`))
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionSleep, -1)
	tb.do(2, ActionSleep, -1)
	tb.do(3, ActionSleep, -1)
	tb.do(4, ActionSleep, -1)
	if got := js(tb.ofType("dawn")); got != `[{"deaths":[],"round":1}]` || len(tb.ofType("kill_private")) != 0 {
		t.Fatalf("a night without a pick: %s", got)
	}
	for range 10 {
		tb.do(breakroom.WireSeat(tb.open().Seat), ActionPass, -1)
	}
	for s := range 5 {
		tb.do(s, ActionAbstain, -1)
	}
	if got := js(tb.ofType("game_over")); got != `[{"round":1,"winner":"draw"}]` {
		t.Fatalf("game_over %s", got)
	}
	res, _ := tb.m.Result()
	for _, s := range res.Standings {
		if s.Score != 0.5 || s.Rank != 1 {
			t.Fatalf("draw standings %+v", res.Standings)
		}
	}
}

// TestKillTie: tied wolf picks are broken by rand(seed, "werewolf/r{round}/kill_tie", k) over
// the tied targets sorted ascending.
func TestKillTie(t *testing.T) {
	rnd := newRand(11)
	hit := map[int]bool{}
	for range 60 {
		seed := randomSeed(rnd)
		tb := newTable(t, setupN(7, seed, ""))
		var picks []int
		for tb.m.stage == PhaseNight && tb.m.phase == phasePlaying {
			p := tb.open()
			seat := breakroom.WireSeat(p.Seat)
			if tb.m.seats[seat].role == RoleWolf {
				ts := targetsOf(p.Legal[0])
				tg := ts[len(picks)] // the two wolves pick different seats
				picks = append(picks, tg)
				tb.do(seat, ActionKill, tg)
				continue
			}
			tb.do(seat, ActionSleep, -1)
		}
		if len(picks) != 2 {
			t.Fatalf("%d wolf picks", len(picks))
		}
		want := picks[KillTie(seed, 1, 2)]
		kills := tb.ofType("kill_private")
		if len(kills) != 1 || kills[0]["target"] != float64(want) {
			t.Fatalf("kill %v, the tie-break picks %d of %v", kills, want, picks)
		}
		hit[KillTie(seed, 1, 2)] = true
	}
	if !hit[0] || !hit[1] {
		t.Fatalf("the tie-break never picked one side: %v", hit)
	}
}
