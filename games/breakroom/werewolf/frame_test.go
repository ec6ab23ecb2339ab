package werewolf

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

// TestFrameBudget: with every seat of an eight-seat table saying the longest message it may (280
// four-byte code points) in five discussion passes, over every round, every your_turn frame
// stays under 8 KB (J31): talk_today keeps its newest entries, flagged truncated; every view too.
func TestFrameBudget(t *testing.T) {
	s := setupN(8, seq0(), `{"discussion_rounds":5,"max_rounds":20}`)
	s.Round = "m_" + strings.Repeat("x", 62)
	tb := newTable(t, s)
	long := strings.Repeat("🙂", 280)
	truncated, newest := false, -1
	for tb.m.phase == phasePlaying {
		p := tb.open()
		if f := yourTurn(t, s.Round, p, tb.now); len(f) >= breakroom.MaxFrame {
			t.Fatalf("your_turn frame of %d bytes", len(f))
		}
		var st struct {
			Talk      []map[string]any `json:"talk_today"`
			Truncated bool             `json:"truncated"`
		}
		if err := json.Unmarshal(p.State.Bytes(), &st); err != nil {
			t.Fatalf("state is not JSON: %v", err)
		}
		if st.Truncated {
			truncated = true
			if got := st.Talk[len(st.Talk)-1]; got["turn"] != float64(newest) {
				t.Fatalf("the truncated talk does not end with the newest message (turn %d): %v", newest, got["turn"])
			}
		}
		for v := 0; v <= 8; v++ {
			if n := tb.m.View(v).Len(); n > breakroom.StateBudget {
				t.Fatalf("view %d is %d bytes", v, n)
			}
		}
		seat := breakroom.WireSeat(p.Seat)
		switch tb.m.stage {
		case PhaseDiscussion:
			_, turn, _ := breakroom.RoundTurn(p.Move)
			tb.say(seat, long)
			newest = turn
		case PhaseNight:
			tb.play(seat, time.Second, string(lastAction(p)))
		default:
			tb.do(seat, ActionAbstain, -1)
		}
	}
	if !truncated {
		t.Fatal("the talk never needed truncating: the test does not reach the budget")
	}
}

// lastAction is p's quiet action (sleep at night) as a body.
func lastAction(p games.Prompt) []byte {
	return []byte(`{"action":"` + p.Legal[len(p.Legal)-1].Name + `"}`)
}
