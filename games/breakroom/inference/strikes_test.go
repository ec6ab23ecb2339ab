package inference

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

// TestThreeStrikes: three missed deadlines in a row and the seat sits out (§2.5, §1.5): each
// timeout is a public line with the default (check when free, else fold) and the strike count;
// sit_out follows the third at once; the rest of the hand plays the seat automatically (an
// action line with auto, no turn); from the next hand it is not dealt in and its credits are
// frozen; a request of its key brings it back at the next hand's start (sit_in, strikes 0) and
// it is dealt in again. An on-time move resets the count.
func TestThreeStrikes(t *testing.T) {
	tb := newTable(t, setupN(3, seq0(), seq0(), `{"rounds":10}`))
	// Hand 1 (dealer 0): seat 1 acts first. Seat 1 misses (check), seat 2 checks, seat 0 raises,
	// seat 1 misses (fold), seat 2 calls.
	tb.expire(1)
	tb.move(2, `{"action":"check"}`)
	tb.move(0, `{"action":"raise","amount":2}`)
	tb.expire(1)
	tb.move(2, `{"action":"call"}`)
	to := tb.ofType("timeout")
	if got, _ := json.Marshal(to); string(got) != `[{"amount":0,"auto":"check","round":1,"seat":1,"strikes":1,"turn":0},`+
		`{"amount":0,"auto":"fold","round":1,"seat":1,"strikes":2,"turn":3}]` {
		t.Fatalf("timeouts %s", got)
	}
	// Hand 2 (dealer 1): seat 2 first. Seat 2 raises, seat 0 calls, seat 1 misses a third time:
	// fold, then sit_out at once.
	tb.move(2, `{"action":"raise","amount":1}`)
	tb.move(0, `{"action":"call"}`)
	mark := len(tb.evs)
	tb.expire(1)
	if got := strings.Join(typesFrom(tb, mark), " "); !strings.HasPrefix(got, "timeout sit_out showdown round_start") {
		t.Fatalf("the third miss writes %s", got)
	}
	credits := tb.m.seats[1].credits
	// Hand 3: seat 1 is not dealt in.
	rs := tb.ofType("round_start")
	if got, _ := json.Marshal(rs[2]); string(got) != `{"dealer":2,"round":3,"seats":[0,2]}` {
		t.Fatalf("hand 3 starts %s", got)
	}
	var v struct {
		Seats []struct {
			Status string `json:"status"`
		} `json:"seats"`
	}
	json.Unmarshal(tb.m.View(0).Bytes(), &v)
	if v.Seats[1].Status != "sitting_out" {
		t.Fatalf("seat 1's status %q", v.Seats[1].Status)
	}
	for tb.m.round == 3 {
		p := tb.open()
		if p.Seat == 2 {
			t.Fatal("seat 1 is prompted while it sits out")
		}
		tb.move(p.Seat-1, `{"action":"`+p.Legal[0].Name+`"}`)
	}
	if tb.m.seats[1].credits != credits {
		t.Fatalf("seat 1's frozen credits moved: %d → %d", credits, tb.m.seats[1].credits)
	}
	// Its key comes back during hand 4: sit_in at hand 5's start, strikes 0, dealt in.
	if err := tb.presence(1, false); err != nil {
		t.Fatal(err)
	}
	if err := tb.presence(1, false); err == nil {
		t.Fatal("a second return changed something")
	}
	mark = len(tb.evs)
	for tb.m.round == 4 {
		p := tb.open()
		tb.move(p.Seat-1, `{"action":"`+p.Legal[0].Name+`"}`)
	}
	got := typesFrom(tb, mark)
	at := -1
	for i, typ := range got {
		if typ == "round_start" {
			at = i
			break
		}
	}
	if at < 1 || got[at-1] != "sit_in" {
		t.Fatalf("hand 5 opens with %v, want sit_in then round_start", got)
	}
	if si := tb.ofType("sit_in"); len(si) != 1 || si[0]["round"] != 5.0 || si[0]["seat"] != 1.0 {
		t.Fatalf("sit_in lines %v", si)
	}
	if s := tb.m.seats[1]; s.strikes != 0 || s.sittingOut || !s.dealt {
		t.Fatalf("seat 1 after sit_in: %+v", s)
	}
}

// TestSitOutMidHandIsAutoPlayed: a seat whose third miss comes while the hand goes on is played
// automatically for the rest of it (the default, logged as an action with auto and no turn),
// unprompted.
func TestSitOutMidHandIsAutoPlayed(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), seq0(), `{"rounds":5,"strikes_limit":1}`))
	// Hand 1 (dealer 0): seat 1 misses (check; one strike is the limit: sit_out), seat 2 raises,
	// seat 3 calls, seat 0 calls; seat 1 faces the raise and is auto-folded.
	tb.expire(1)
	tb.move(2, `{"action":"raise","amount":3}`)
	tb.move(3, `{"action":"call"}`)
	mark := len(tb.evs)
	tb.move(0, `{"action":"call"}`)
	got := typesFrom(tb, mark)
	if len(got) < 3 || got[0] != "action" || got[1] != "action" || got[2] != "showdown" {
		t.Fatalf("after seat 0's call: %v", got)
	}
	var auto map[string]any
	json.Unmarshal(tb.evs[mark+1].Payload, &auto)
	if auto["seat"] != 1.0 || auto["action"] != "fold" || auto["auto"] != true || auto["turn"] != nil {
		t.Fatalf("seat 1's automatic play %v", auto)
	}
}
