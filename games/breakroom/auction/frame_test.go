package auction

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// yourTurn is the protocol's your_turn frame for p, as a door writes it.
func yourTurn(t *testing.T, matchID string, p games.Prompt, now time.Time) []byte {
	round, turn, ok := breakroom.RoundTurn(p.Move)
	if !ok {
		t.Fatalf("prompt move %+v is not a Break Room move", p.Move)
	}
	b, err := json.Marshal(map[string]any{
		"type": "your_turn", "v": 0, "match_id": matchID, "round": round, "turn": turn,
		"deadline_ms": p.Deadline.Sub(now).Milliseconds(), "visible_state": json.RawMessage(p.State.Bytes()),
		"legal_actions": p.Legal,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFrameBudget: at the largest table and config the rules allow (8 seats, 50 lots, cash and
// values of ten digits, one seat winning every lot so its holdings are longest), with every seat
// sending the longest message it may (280 four-byte code points) at every turn, every your_turn
// frame stays under 8 KB (J31): the talk keeps its newest entries, flagged truncated; the
// spectators' view and the seats' views too.
func TestFrameBudget(t *testing.T) {
	s := setupN(8, seq0(), `{"lots":50,"starting_cash":1000000000,"value_max":1000000000}`)
	s.Round = "m_" + strings.Repeat("x", 62)
	tb := newTable(t, s)
	long := strings.Repeat("🙂", 280)
	truncated := false
	for tb.m.phase == phasePlaying {
		p := tb.open()
		if f := yourTurn(t, s.Round, p, tb.now); len(f) >= breakroom.MaxFrame {
			t.Fatalf("your_turn frame of %d bytes", len(f))
		}
		var st struct {
			Talk      []map[string]any `json:"talk"`
			Truncated bool             `json:"truncated"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			t.Fatalf("state is not JSON: %v", err)
		}
		truncated = truncated || st.Truncated
		for v := 0; v <= 8; v++ {
			if n := tb.m.View(v).Len(); n > breakroom.StateBudget {
				t.Fatalf("viewer %d's view is %d bytes", v, n)
			}
		}
		seat := breakroom.WireSeat(p.Seat)
		amount := int64(19_000_000 + tb.m.round) // seat 7 wins every lot, with wide prices, all 50 within its cash
		if seat != 7 {
			amount = 1
		}
		tb.play(seat, time.Second, `{"action":"bid","amount":`+itoa(int(amount))+`,"message":"`+long+`"}`)
	}
	if !truncated {
		t.Fatal("the talk never needed cutting: the test does not reach J31")
	}
	if got := tb.m.seats[7].lotsWon; got != 50 {
		t.Fatalf("seat 7 won %d lots", got)
	}
}
