package dilemma

import (
	"encoding/json"
	"testing"

	"arena/games"
	"arena/games/breakroom"
)

// TestHouseTitForTat: the house bot cooperates first in each pairing, then repeats its
// opponent's previous choice, reading the prompt's View or, for a prompt decoded from JSON, its
// state; it answers the same either way and never talks.
func TestHouseTitForTat(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":1000000,"max_iterations":4}`))
	// Seat 3 (paired with 0 in round 1) plays D, C, D, C; seat 0 is the house.
	want := []string{`{"action":"cooperate"}`, `{"action":"defect"}`, `{"action":"cooperate"}`, `{"action":"defect"}`}
	seat3 := []string{"defect", "cooperate", "defect", "cooperate"}
	for it := range 4 {
		p := tb.open()
		got := Engine{}.HouseAnswer(p, uint64(it))
		decoded := p
		decoded.View = nil
		raw, _ := json.Marshal(p)
		if err := json.Unmarshal(raw, &decoded); err != nil {
			t.Fatal(err)
		}
		if string(got) != want[it] || string((Engine{}).HouseAnswer(decoded, 99)) != want[it] {
			t.Fatalf("iteration %d: house answers %s (from the state: %s), want %s", it+1, got, Engine{}.HouseAnswer(decoded, 99), want[it])
		}
		tb.play(0, 1e9, string(got))
		tb.choose(1, "cooperate")
		tb.choose(2, "cooperate")
		tb.choose(3, seat3[it])
	}
	// Round 2: a new opponent, cooperate first again.
	if got := (Engine{}).HouseAnswer(tb.open(), 0); string(got) != `{"action":"cooperate"}` {
		t.Fatalf("a new pairing opens with %s", got)
	}
	if got := (Engine{}).HouseAnswer(games.Prompt{}, 0); got != nil {
		t.Fatalf("a prompt without actions gets %s", got)
	}
}

// TestHouseTableVerifies: a table of house bots plays to its end and its log verifies.
func TestHouseTableVerifies(t *testing.T) {
	for n := 3; n <= 6; n++ {
		tb := newTable(t, setupN(n, [32]byte{byte(n)}, ""))
		for tb.m.phase == phasePlaying {
			p := tb.open()
			tb.play(breakroom.WireSeat(p.Seat), 3e8, string(Engine{}.HouseAnswer(p, 0)))
		}
		if rep := Verify(tb.lines()); !rep.OK {
			t.Fatalf("%d house seats: %+v", n, rep)
		}
		for _, r := range tb.ofType("match_end")[0]["ranking"].([]any) {
			if e := r.(map[string]any); e["defected"] != 0.0 {
				t.Fatalf("tit-for-tat among itself defected: %v", e)
			}
		}
	}
}
