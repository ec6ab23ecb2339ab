package dilemma

import (
	"encoding/json"
	"strings"
	"testing"
)

// typesFrom lists the types of the events from index i on.
func typesFrom(tb *table, i int) []string {
	var out []string
	for _, e := range tb.evs[i:] {
		out = append(out, e.Type)
	}
	return out
}

// TestThreeStrikes: three missed deadlines in a row and the seat sits out (§5.5, §1.5): sit_out
// is logged when that iteration closes, the seat is then auto-cooperated without a prompt or a
// turn number, an on-time move in between resets the count, and a request of its key brings it
// back at the next iteration (sit_in, strikes 0).
func TestThreeStrikes(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":1000000,"max_iterations":8}`))
	if tb.m.horizons[0] != 8 {
		t.Fatalf("horizon %d, want 8", tb.m.horizons[0])
	}
	// Round 1: pairs [0,3], [1,2]. Seat 1 misses three in a row; seat 2 misses twice, plays, misses.
	seat2 := []bool{false, false, true, false}
	for it := 0; it < 3; it++ {
		tb.choose(0, "cooperate")
		tb.expire(1)
		if seat2[it] {
			tb.choose(2, "defect")
		} else {
			tb.expire(2)
		}
		if it == 2 {
			var v struct {
				SittingOut []int `json:"sitting_out"`
			}
			json.Unmarshal(tb.m.View(0).Bytes(), &v)
			if len(v.SittingOut) != 0 {
				t.Fatalf("sitting_out %v before the iteration closed", v.SittingOut)
			}
		}
		mark := len(tb.evs)
		tb.choose(3, "defect")
		got := strings.Join(typesFrom(tb, mark), " ")
		want := "action_private iteration_private iteration_private iteration_end"
		if it == 2 {
			want = "action_private iteration_private iteration_private sit_out iteration_end"
		}
		if got != want {
			t.Fatalf("iteration %d closes with %s, want %s", it+1, got, want)
		}
	}
	strikes := func(seat int) []float64 {
		var out []float64
		for _, p := range tb.ofType("timeout_private") {
			if p["seat"] == float64(seat) {
				out = append(out, p["strikes"].(float64))
			}
		}
		return out
	}
	if got := strikes(1); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("seat 1's strikes %v, want 1 2 3", got)
	}
	if got := strikes(2); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("seat 2's strikes %v, want 1 2", got)
	}
	so := tb.ofType("sit_out")
	if len(so) != 1 || so[0]["seat"] != 1.0 || so[0]["round"] != 1.0 {
		t.Fatalf("sit_out lines %v", so)
	}
	// Iteration 4: seat 1 is auto-played between seat 0 and seat 2, unprompted, no turn used.
	tb.choose(0, "cooperate")
	if p := tb.open(); p.Seat != 3 || p.Move.Turn != 13 {
		t.Fatalf("after seat 0 the open prompt is seat %d's turn %d, want seat 2's turn 13", p.Seat-1, p.Move.Turn)
	}
	auto := tb.ofType("action_private")
	last := auto[len(auto)-1]
	if last["seat"] != 1.0 || last["auto"] != true || last["action"] != "cooperate" || last["turn"] != nil || last["iteration"] != 4.0 {
		t.Fatalf("seat 1's auto line %v", last)
	}
	if tb.evs[len(tb.evs)-1].Visibility != "private:2" {
		t.Fatalf("the auto line's visibility %s", tb.evs[len(tb.evs)-1].Visibility)
	}
	tb.expire(2) // seat 2's third miss, not in a row: strikes 1
	if got := strikes(2); got[len(got)-1] != 1 {
		t.Fatalf("seat 2's strikes after a move %v, want the count reset", got)
	}
	tb.choose(3, "defect")
	var pts []map[string]any
	for _, p := range tb.ofType("iteration_private") {
		if p["iteration"] == 4.0 && p["seat"] == 1.0 {
			pts = append(pts, p)
		}
	}
	if len(pts) != 1 || pts[0]["choices"].([]any)[0] != "C" {
		t.Fatalf("the sitter's pair result %v, want its auto-cooperate", pts)
	}
	// Iteration 5: seat 1's key makes a request; it sits in when iteration 6 starts.
	tb.choose(0, "cooperate")
	if err := tb.presence(1, false); err != nil {
		t.Fatalf("presence: %v", err)
	}
	if err := tb.presence(1, false); err == nil {
		t.Fatal("a second request changed something")
	}
	tb.choose(2, "cooperate")
	mark := len(tb.evs)
	tb.choose(3, "cooperate")
	if got := strings.Join(typesFrom(tb, mark), " "); got != "action_private iteration_private iteration_private iteration_end sit_in" {
		t.Fatalf("iteration 5 closes with %s", got)
	}
	si := tb.ofType("sit_in")
	if len(si) != 1 || si[0]["seat"] != 1.0 || si[0]["round"] != 1.0 {
		t.Fatalf("sit_in lines %v", si)
	}
	tb.choose(0, "cooperate")
	if p := tb.open(); p.Seat != 2 {
		t.Fatalf("after sit_in the open prompt is seat %d's, want seat 1's", p.Seat-1)
	}
	var v struct {
		Strikes    int   `json:"strikes"`
		SittingOut []int `json:"sitting_out"`
	}
	if err := json.Unmarshal(tb.open().State.Bytes(), &v); err != nil || v.Strikes != 0 || len(v.SittingOut) != 0 {
		t.Fatalf("seat 1's state after sit_in: %+v %v", v, err)
	}
	if rep := Verify(tb.lines()[:0]); rep.OK {
		t.Fatal("an empty log verified")
	}
}

// TestAwayDeadlines: a prompt opened while its seat is away gets away_deadline_ms; a return
// restores the full deadline from the prompt's opening; a drop during the turn cuts it to 3 s from
// the drop; an accepted move marks the seat present.
func TestAwayDeadlines(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":1000000,"max_iterations":8}`))
	if err := tb.presence(1, true); err != nil {
		t.Fatal(err)
	}
	tb.choose(0, "cooperate")
	p := tb.open()
	opened := tb.now
	if got := p.Deadline.Sub(opened); got != 3e9 {
		t.Fatalf("an away seat's deadline is %v after its prompt, want 3s", got)
	}
	tb.now = opened.Add(2e9)
	if err := tb.presence(1, false); err != nil {
		t.Fatal(err)
	}
	if got := tb.open().Deadline.Sub(opened); got != 10e9 {
		t.Fatalf("after the return the deadline is %v after the prompt, want 10s", got)
	}
	tb.now = opened.Add(4e9)
	if err := tb.presence(1, true); err != nil {
		t.Fatal(err)
	}
	if got := tb.open().Deadline.Sub(opened); got != 7e9 {
		t.Fatalf("a drop at 4s leaves the deadline at %v, want 7s", got)
	}
	tb.now = opened
	tb.play(1, 5e9, `{"action":"defect"}`)
	if tb.m.seats[1].away {
		t.Fatal("a seat that moved is still away")
	}
	tb.choose(2, "cooperate")
	tb.choose(3, "cooperate")
	tb.choose(0, "cooperate")
	if got := tb.open().Deadline.Sub(tb.now); got != 10e9 {
		t.Fatalf("the next prompt's deadline %v, want 10s", got)
	}
	if rep := Verify(tb.lines()); rep.OK || rep.At != len(tb.lines()) {
		t.Fatalf("an unfinished log: %+v", rep)
	}
}
