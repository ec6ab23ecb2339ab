package auction

import (
	"encoding/json"
	"testing"

	"arena/games"
)

// TestHouseBid: the house bids value × (seats − 1) / seats rounded down, at least 1, at most its
// cash, and passes with no cash.
func TestHouseBid(t *testing.T) {
	for _, c := range []struct {
		value, cash int64
		seats       int
		want        int64
	}{
		{83, 200, 5, 66}, {59, 200, 3, 39}, {1, 200, 5, 1}, {2, 200, 3, 1}, {100, 30, 5, 30},
		{100, 0, 5, 0}, {99, 200, 8, 86}, {1_000_000_000, 1_000_000_000, 8, 875_000_000},
	} {
		if got := HouseBid(c.value, c.cash, c.seats); got != c.want {
			t.Errorf("HouseBid(%d, %d, %d) = %d, want %d", c.value, c.cash, c.seats, got, c.want)
		}
	}
}

// TestHouseAnswers: the house answers every prompt of a match with HouseBid of the prompt's
// value, reading the prompt's View or, for a prompt decoded from JSON, its state, the same
// either way; it passes once broke and never talks.
func TestHouseAnswers(t *testing.T) {
	tb := newTable(t, setupN(3, seq0(), `{"lots":8,"starting_cash":60}`))
	passes := 0
	for tb.m.phase == phasePlaying {
		p := tb.open()
		s := int(p.Seat - 1)
		got := Engine{}.HouseAnswer(p, 7)
		decoded := p
		decoded.View = nil
		raw, _ := json.Marshal(p)
		if err := json.Unmarshal(raw, &decoded); err != nil {
			t.Fatal(err)
		}
		fromState := Engine{}.HouseAnswer(decoded, 99)
		bid := HouseBid(tb.m.values[tb.m.round-1][s], tb.m.seats[s].cash, 3)
		want := `{"action":"pass"}`
		if bid > 0 {
			want = `{"action":"bid","amount":` + itoa(int(bid)) + `}`
		} else {
			passes++
		}
		if string(got) != want || string(fromState) != want {
			t.Fatalf("lot %d seat %d: house answers %s (from the state %s), want %s", tb.m.round, s, got, fromState, want)
		}
		tb.play(s, 1e9, string(got))
	}
	if passes == 0 {
		t.Fatal("no house seat ran out of cash: the test does not reach the pass")
	}
	if (Engine{}).HouseAnswer(games.Prompt{Seat: 1}, 0) != nil {
		t.Fatal("an answer to a prompt with no legal actions")
	}
}
