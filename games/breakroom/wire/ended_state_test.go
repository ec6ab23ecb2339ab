package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"arena/games/breakroom"
	"arena/games/canon"
)

// TestEndedStateFitsWithAFullVisibleState: a game fills visible_state up to
// breakroom.StateBudget (a chatty table's talk, J31), and an ended state carries match_end beside
// it ("HTTP fallback": "when ended it also carries match_end"). Together they are over a frame,
// and the agent must still get its match_end: the stale visible_state gives way to its game and
// rules_version, flagged truncated, never the whole answer to an internal error.
func TestEndedStateFitsWithAFullVisibleState(t *testing.T) {
	var talk []string
	for i := 0; ; i++ {
		next := append(talk, strings.Repeat("x", 270)+fmt.Sprint(i))
		b, _ := canon.Marshal(map[string]any{"game": "dilemma", "rules_version": "dilemma-0.1", "talk": next})
		if len(b) > breakroom.StateBudget {
			break
		}
		talk = next
	}
	vs, _ := canon.Marshal(map[string]any{"game": "dilemma", "rules_version": "dilemma-0.1", "talk": talk})
	end := &MatchEnd{MatchID: "m_0123456789abcdef", YourRank: 2, ReplayURL: "https://breakroom.lol/r/m_0123456789abcdef",
		NostrPost: NostrPost{Kind: 1, Content: strings.Repeat("p", 300), Tags: [][]string{{"t", "breakroom"}}},
		Feedback:  FeedbackInvite{Prompt: strings.Repeat("q", 250), MaxChars: 2000, OpenUntil: "2026-12-03T08:00:00.000Z", WS: json.RawMessage(`{"type":"feedback"}`), HTTP: "POST …"}}
	for s := 0; s < 6; s++ {
		end.Ranking = append(end.Ranking, Rank{Rank: s + 1, Seat: s, Pubkey: strings.Repeat("a", 64), Name: "Agent", Fields: json.RawMessage(`{"points":12,"score":2.5}`)})
	}
	b, err := Encode(State{MatchID: end.MatchID, Status: StatusEnded, Round: 3, Turn: 40, VisibleState: vs, MatchEnd: end})
	if err != nil {
		t.Fatalf("an ended state: %v", err)
	}
	var got struct {
		VisibleState map[string]any `json:"visible_state"`
		MatchEnd     *MatchEnd      `json:"match_end"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.MatchEnd == nil || got.MatchEnd.YourRank != 2 || len(got.MatchEnd.Ranking) != 6 ||
		got.VisibleState["game"] != "dilemma" || got.VisibleState["rules_version"] != "dilemma-0.1" || got.VisibleState["truncated"] != true {
		t.Fatalf("ended state %.300s", b)
	}
	// One that fits keeps its visible_state whole.
	small, _ := canon.Marshal(map[string]any{"game": "dilemma", "rules_version": "dilemma-0.1", "talk": talk[:2]})
	b, err = Encode(State{MatchID: end.MatchID, Status: StatusEnded, VisibleState: small, MatchEnd: end})
	if err != nil || !strings.Contains(string(b), string(small)) {
		t.Fatalf("a state that fits: %v %.300s", err, b)
	}
}

// TestEndedStateOverAFrameEvenCut: a match_end too large for any frame is still refused (logged
// by the door as a bug), not looped on.
func TestEndedStateOverAFrameEvenCut(t *testing.T) {
	end := &MatchEnd{MatchID: "m_1", NostrPost: NostrPost{Content: strings.Repeat("p", MaxFrame)}}
	if _, err := Encode(State{MatchID: "m_1", Status: StatusEnded, VisibleState: json.RawMessage(`{"game":"dilemma"}`), MatchEnd: end}); err == nil {
		t.Fatal("a state over a frame even with its visible_state cut was encoded")
	}
}
