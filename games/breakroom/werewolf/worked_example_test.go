package werewolf

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"testing"

	"arena/games/breakroom"
)

var update = flag.Bool("update", false, "rewrite the golden log in testdata")

// workedExample plays §3.10: 5 seats, seed 00..1f (s0 villager, s1 seer, s2 doctor, s3
// villager, s4 wolf). The outcome is worked by hand in testdata/worked_example.md.
func workedExample(t testing.TB) *table {
	tb := newTable(t, setupN(5, seq0(), ""))
	// Night 1.
	tb.do(0, ActionSleep, -1)
	tb.do(1, ActionInspect, 3)
	tb.do(2, ActionProtect, 2)
	tb.do(3, ActionSleep, -1)
	tb.do(4, ActionKill, 0)
	// Day 1: seat 0 died, so the passes start at seat 1.
	tb.say(1, "I am the seer. Seat 3 is clean.")
	tb.do(2, ActionPass, -1)
	tb.say(3, "Seat 4, who do you suspect?")
	tb.say(4, "A night-one seer claim is convenient. Seat 1.")
	for s := 1; s <= 4; s++ {
		tb.do(s, ActionPass, -1)
	}
	tb.do(1, ActionVote, 4)
	tb.do(2, ActionVote, 1)
	tb.do(3, ActionVote, 4)
	tb.do(4, ActionVote, 1)
	// Night 2.
	tb.do(1, ActionInspect, 4)
	tb.do(2, ActionProtect, 1)
	tb.expire(3)
	tb.do(4, ActionKill, 1)
	// Day 2.
	tb.say(1, "Seat 4 is a wolf: I inspected them.")
	tb.say(2, "I protected seat 1 last night.")
	tb.do(3, ActionPass, -1)
	tb.say(4, "They are covering for each other.")
	for s := 1; s <= 4; s++ {
		tb.do(s, ActionPass, -1)
	}
	tb.do(1, ActionVote, 4)
	tb.do(2, ActionVote, 4)
	tb.do(3, ActionVote, 4)
	tb.do(4, ActionVote, 1)
	return tb
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestWorkedExample(t *testing.T) {
	tb := workedExample(t)
	if tb.m.phase != phaseDone {
		t.Fatalf("the match is not over")
	}
	roles := tb.ofType("role_private")
	if len(roles) != 5 || js(roles[4]) != `{"pack":[4],"reveal":"end","role":"wolf","seat":4,"to":[]}` {
		t.Fatalf("role lines %v", roles)
	}
	insp := tb.ofType("inspect_result_private")
	if js(insp) != `[{"is_wolf":false,"reveal":"end","round":1,"seat":1,"target":3},{"is_wolf":true,"reveal":"end","round":2,"seat":1,"target":4}]` {
		t.Fatalf("inspections %s", js(insp))
	}
	if got := js(tb.ofType("kill_private")); got != `[{"reveal":"end","round":1,"seat":4,"target":0,"to":[]},{"reveal":"end","round":2,"seat":4,"target":1,"to":[]}]` {
		t.Fatalf("kills %s", got)
	}
	if got := js(tb.ofType("dawn")); got != `[{"deaths":[0],"round":1},{"deaths":[],"round":2}]` {
		t.Fatalf("dawns %s", got)
	}
	if got := js(tb.ofType("eliminated")); got != `[{"how":"night","role":"villager","round":1,"seat":0},{"how":"exiled","role":"wolf","round":2,"seat":4}]` {
		t.Fatalf("eliminations %s", got)
	}
	if got := js(tb.ofType("vote_result")); got != `[{"exiled":null,"round":1,"votes":[{"seat":1,"target":4},{"seat":2,"target":1},{"seat":3,"target":4},{"seat":4,"target":1}]},`+
		`{"exiled":4,"round":2,"votes":[{"seat":1,"target":4},{"seat":2,"target":4},{"seat":3,"target":4},{"seat":4,"target":1}]}]` {
		t.Fatalf("votes %s", got)
	}
	if got := js(tb.ofType("timeout_private")); got != `[{"auto":"sleep","reveal":"end","round":2,"seat":3,"strikes":1,"turn":2}]` {
		t.Fatalf("timeouts %s", got)
	}
	if got := js(tb.ofType("game_over")); got != `[{"round":2,"winner":"village"}]` {
		t.Fatalf("game_over %s", got)
	}
	// The turns of §3.10: night 1 t0–t4, discussion t5–t12, vote t13–t16; round 2 night t0–t3
	// (seat 0 dead), discussion t4–t11, vote t12–t15.
	var turns []string
	for _, a := range append(tb.ofType("action"), tb.ofType("action_private")...) {
		turns = append(turns, js([]any{a["round"], a["turn"], a["seat"], a["action"]}))
	}
	slices.Sort(turns)
	want := []string{
		`[1,0,0,"sleep"]`, `[1,1,1,"inspect"]`, `[1,2,2,"protect"]`, `[1,3,3,"sleep"]`, `[1,4,4,"kill"]`,
		`[1,5,1,"say"]`, `[1,6,2,"pass"]`, `[1,7,3,"say"]`, `[1,8,4,"say"]`, `[1,9,1,"pass"]`, `[1,10,2,"pass"]`, `[1,11,3,"pass"]`, `[1,12,4,"pass"]`,
		`[1,13,1,"vote"]`, `[1,14,2,"vote"]`, `[1,15,3,"vote"]`, `[1,16,4,"vote"]`,
		`[2,0,1,"inspect"]`, `[2,1,2,"protect"]`, `[2,3,4,"kill"]`,
		`[2,4,1,"say"]`, `[2,5,2,"say"]`, `[2,6,3,"pass"]`, `[2,7,4,"say"]`, `[2,8,1,"pass"]`, `[2,9,2,"pass"]`, `[2,10,3,"pass"]`, `[2,11,4,"pass"]`,
		`[2,12,1,"vote"]`, `[2,13,2,"vote"]`, `[2,14,3,"vote"]`, `[2,15,4,"vote"]`,
	}
	slices.Sort(want)
	if !slices.Equal(turns, want) {
		t.Fatalf("turns\n%v\nwant\n%v", turns, want)
	}
	ends := tb.ofType("match_end")
	if len(ends) != 1 {
		t.Fatalf("%d match_end lines", len(ends))
	}
	var ranking []map[string]any
	b, _ := json.Marshal(ends[0]["ranking"])
	json.Unmarshal(b, &ranking)
	var got []string
	for _, r := range ranking {
		got = append(got, js([]any{r["rank"], r["seat"], r["score"], r["role"], r["team"], r["won"], r["alive"], r["eliminated"], r["eliminated_round"]}))
	}
	wantRank := []string{
		`[1,0,1,"villager","village",true,false,"night",1]`,
		`[1,1,1,"seer","village",true,true,null,null]`,
		`[1,2,1,"doctor","village",true,true,null,null]`,
		`[1,3,1,"villager","village",true,true,null,null]`,
		`[5,4,0,"wolf","wolves",false,false,"exiled",2]`,
	}
	if !slices.Equal(got, wantRank) {
		t.Fatalf("ranking\n%v\nwant (testdata/worked_example.md)\n%v", got, wantRank)
	}
	if ends[0]["seed"] != "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" {
		t.Fatalf("seed %v", ends[0]["seed"])
	}

	var all []byte
	for _, l := range tb.lines() {
		all = append(append(all, l...), '\n')
	}
	const golden = "testdata/worked_example.jsonl"
	if *update {
		if err := os.WriteFile(golden, all, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want2, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(all, want2) {
		t.Fatalf("the worked example's log differs from %s (go test -run TestWorkedExample -update rewrites it):\n%s", golden, all)
	}
}

// TestWorkedExampleDoctorTargets: in night 2 the doctor's protect targets are [1, 3, 4] (seat 2
// was protected last night, seat 0 is dead), and the wolf's kill targets the living non-wolves.
func TestWorkedExampleDoctorTargets(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), ""))
	for _, mv := range []struct {
		seat   int
		action string
		target int
	}{{0, ActionSleep, -1}, {1, ActionInspect, 3}, {2, ActionProtect, 2}, {3, ActionSleep, -1}, {4, ActionKill, 0}} {
		tb.do(mv.seat, mv.action, mv.target)
	}
	for range 8 {
		tb.do(breakroom.WireSeat(tb.open().Seat), ActionPass, -1)
	}
	for s := 1; s <= 4; s++ {
		tb.do(s, ActionAbstain, -1)
	}
	tb.do(1, ActionSleep, -1)
	p := tb.open()
	if got := js(p.Legal); got != `[{"action":"protect","targets":[1,3,4]},{"action":"sleep"}]` {
		t.Fatalf("doctor's legal_actions %s", got)
	}
	tb.do(2, ActionSleep, -1)
	tb.do(3, ActionSleep, -1)
	if got := js(tb.open().Legal); got != `[{"action":"kill","targets":[1,2,3],"max_message_chars":280},{"action":"sleep","max_message_chars":280}]` {
		t.Fatalf("wolf's legal_actions %s", got)
	}
}
