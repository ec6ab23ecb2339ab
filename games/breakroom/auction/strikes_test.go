package auction

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

// TestThreeStrikes: three missed deadlines in a row and the seat sits out (§4.5, §1.5): each
// timeout passes for it in a sealed timeout_private with its strike count; sit_out is logged
// when the third lot closes, after its lot_result (not at the timeout, which would tell later
// seats it passed); the seat then passes automatically without a prompt or a turn number; an
// on-time move in between resets the count; a request of its key brings it back at the next
// lot's round_start (sit_in, strikes 0).
func TestThreeStrikes(t *testing.T) {
	tb := newTable(t, setupN(3, seq0(), `{"lots":6}`))
	// Seat 1 misses lots 1–3; seat 2 misses lots 1 and 2, bids in 3, misses 4.
	for lot := 1; lot <= 3; lot++ {
		tb.bid(0, 10)
		tb.expire(1)
		mark := len(tb.evs)
		if lot == 3 {
			tb.bid(2, 5)
		} else {
			tb.expire(2)
		}
		got := strings.Join(typesFrom(tb, mark), " ")
		want := "lot_result round_start deal_private deal_private deal_private"
		switch lot {
		case 1, 2:
			want = "timeout_private " + want
		case 3:
			want = "action_private lot_result sit_out round_start deal_private deal_private deal_private"
		}
		if got != want {
			t.Fatalf("lot %d closes with %s, want %s", lot, got, want)
		}
	}
	strikes := func(seat int) []float64 {
		var out []float64
		for _, p := range tb.ofType("timeout_private") {
			if p["seat"] == float64(seat) {
				if p["auto"] != "pass" || p["reveal"] != "end" {
					t.Fatalf("timeout line %v", p)
				}
				out = append(out, p["strikes"].(float64))
			}
		}
		return out
	}
	if got := strikes(1); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("seat 1's strikes %v, want 1 2 3", got)
	}
	so := tb.ofType("sit_out")
	if len(so) != 1 || so[0]["seat"] != 1.0 || so[0]["round"] != 3.0 {
		t.Fatalf("sit_out lines %v", so)
	}
	var v struct {
		Seats []struct {
			Seat   int
			Status string
		}
	}
	json.Unmarshal(tb.m.View(0).Bytes(), &v)
	if v.Seats[1].Status != "sitting_out" || v.Seats[0].Status != "active" {
		t.Fatalf("seats %+v", v.Seats)
	}
	// Lot 4: seat 1 passes automatically between seat 0 and seat 2, unprompted, no turn used.
	tb.bid(0, 10)
	if p := tb.open(); p.Seat != 3 || p.Move.Turn != 1 {
		t.Fatalf("after seat 0 the open prompt is seat %d's turn %d, want seat 2's turn 1", p.Seat-1, p.Move.Turn)
	}
	auto := tb.ofType("action_private")
	last := auto[len(auto)-1]
	if last["seat"] != 1.0 || last["auto"] != true || last["action"] != "pass" || last["turn"] != nil || last["round"] != 4.0 {
		t.Fatalf("seat 1's auto line %v", last)
	}
	if tb.evs[len(tb.evs)-1].Visibility != "private:2" {
		t.Fatalf("the auto line's visibility %s", tb.evs[len(tb.evs)-1].Visibility)
	}
	tb.expire(2) // seat 2's third miss, not in a row: strikes 1
	if got := strikes(2); got[len(got)-1] != 1 {
		t.Fatalf("seat 2's strikes after a move %v, want the count reset", got)
	}
	// Lot 5: seat 1's key makes a request; it sits in when lot 6 opens.
	tb.bid(0, 10)
	if err := tb.presence(1, false); err != nil {
		t.Fatalf("presence: %v", err)
	}
	if err := tb.presence(1, false); err == nil {
		t.Fatal("a second request changed something")
	}
	mark := len(tb.evs)
	tb.pass(2)
	if got := strings.Join(typesFrom(tb, mark), " "); got != "action_private lot_result round_start sit_in deal_private deal_private deal_private" {
		t.Fatalf("lot 5 closes with %s", got)
	}
	si := tb.ofType("sit_in")
	if len(si) != 1 || si[0]["seat"] != 1.0 || si[0]["round"] != 6.0 {
		t.Fatalf("sit_in lines %v", si)
	}
	tb.pass(0)
	p := tb.open()
	if p.Seat != 2 {
		t.Fatalf("after sit_in the open prompt is seat %d's, want seat 1's", p.Seat-1)
	}
	var st struct {
		Strikes int
		Seats   []struct{ Status string }
	}
	if err := json.Unmarshal(p.State.Bytes(), &st); err != nil || st.Strikes != 0 || st.Seats[1].Status != "active" {
		t.Fatalf("seat 1's state after sit_in: %+v %v", st, err)
	}
}

// TestAwayDeadlines: a prompt opened while its seat is away gets away_deadline_ms; a return
// restores the full deadline from the prompt's opening; a drop during the turn cuts it to 3 s
// from the drop; an accepted move marks the seat present.
func TestAwayDeadlines(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"lots":4}`))
	if err := tb.presence(1, true); err != nil {
		t.Fatal(err)
	}
	tb.pass(0)
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
	tb.play(1, 5e9, `{"action":"bid","amount":9}`)
	if tb.m.seats[1].away {
		t.Fatal("a seat that moved is still away")
	}
	tb.pass(2)
	tb.pass(3)
	tb.pass(0)
	if got := tb.open().Deadline.Sub(tb.now); got != 10e9 {
		t.Fatalf("the next prompt's deadline %v, want 10s", got)
	}
	if rep := Verify(tb.lines()); rep.OK || rep.At != len(tb.lines()) {
		t.Fatalf("an unfinished log: %+v", rep)
	}
}
