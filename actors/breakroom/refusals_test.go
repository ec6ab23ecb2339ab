package breakroom

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom/wire"
)

func codeOf(err error) string {
	var ge *games.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	if err != nil {
		return "not a games.Error: " + err.Error()
	}
	return ""
}

// TestRefusals: a join for an unknown game (naming the games), a paid join, and, at a running
// match, a move out of turn, for another turn, for another match, of an illegal action or with a
// bad message, and feedback before the end each get their protocol code and change nothing: the
// seat's turn stays open and its right move is then taken.
func TestRefusals(t *testing.T) {
	h := newHarness(t, shortDilemma(3, 3))
	ctx := context.Background()
	a := newAgent(h, "Ada")
	if _, err := h.room.Join(ctx, JoinRequest{Game: "chess", Key: a.key, Via: ViaHTTP}); codeOf(err) != "unknown_game" || !strings.Contains(err.Error(), "dilemma") {
		t.Fatalf("unknown game: %v", err)
	}
	stake := int64(10)
	if _, err := h.room.Join(ctx, JoinRequest{Game: "dilemma", Key: a.key, Via: ViaHTTP, StakeSats: &stake}); codeOf(err) != "payments_disabled" {
		t.Fatalf("paid join: %v", err)
	}
	agents := []*agent{a, newAgent(h, "Bea"), newAgent(h, "Cy")}
	tokens := make([]string, len(agents))
	for i, ag := range agents {
		tokens[i] = ag.join(ViaHTTP).Conn
	}
	var match string
	for i := range agents {
		for {
			m, err := h.room.JoinStatus(ctx, tokens[i], time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := m.(wire.Seated); ok {
				match = s.MatchID
				break
			}
		}
	}
	// Find the seat whose move is open (the first prompt reaches the room just after the seats).
	var turn, other int = -1, -1
	var open wire.State
	for deadline := time.Now().Add(10 * time.Second); turn < 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for i := range agents {
			st, err := h.room.State(ctx, tokens[i], match, 0)
			if err != nil {
				t.Fatal(err)
			}
			switch st.Status {
			case wire.StatusYourTurn:
				turn, open = i, st
			case wire.StatusWaiting:
				other = i
				if string(st.LegalActions) != "[]" || !strings.Contains(string(st.VisibleState), `"game":"dilemma"`) {
					t.Errorf("waiting state %s %s", st.LegalActions, st.VisibleState)
				}
			}
		}
	}
	if turn < 0 || other < 0 {
		t.Fatal("no open move, or nobody waiting")
	}
	coop := json.RawMessage(`{"action":"cooperate"}`)
	for name, tc := range map[string]struct {
		who  int
		m    wire.Move
		code string
	}{
		"not your turn": {other, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: coop}, "not_your_turn"},
		"stale turn":    {turn, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn + 1, Body: coop}, "stale_turn"},
		"stale round":   {turn, wire.Move{MatchID: match, Round: open.Round + 5, Turn: open.Turn, Body: coop}, "stale_turn"},
		"huge round":    {turn, wire.Move{MatchID: match, Round: 1 << 40, Turn: open.Turn, Body: coop}, "stale_turn"},
		"other match":   {turn, wire.Move{MatchID: "T-404", Round: open.Round, Turn: open.Turn, Body: coop}, "unknown_match"},
		"illegal":       {turn, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: json.RawMessage(`{"action":"fold"}`)}, "illegal_move"},
		"no action":     {turn, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: json.RawMessage(`{}`)}, "illegal_move"},
		"bad message":   {turn, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: json.RawMessage(`{"action":"defect","message":"a\u0007"}`)}, "bad_message"},
		"long message":  {turn, wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: json.RawMessage(`{"action":"defect","message":"` + strings.Repeat("x", 281) + `"}`)}, "bad_message"},
	} {
		if err := h.room.Move(ctx, tokens[tc.who], &tc.m); codeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	if _, err := h.room.Feedback(ctx, tokens[turn], &wire.Feedback{MatchID: match, Text: "early"}); codeOf(err) != "match_running" {
		t.Errorf("feedback before the end: %v", err)
	}
	if _, err := h.room.State(ctx, "no-such-token", match, 0); codeOf(err) != "unauthorized" {
		t.Errorf("unknown token: %v", err)
	}
	// Nothing was used up: the seat's move is still open, and taken.
	st, err := h.room.State(ctx, tokens[turn], match, 0)
	if err != nil || st.Status != wire.StatusYourTurn || st.Round != open.Round || st.Turn != open.Turn {
		t.Fatalf("after the refusals: %+v %v", st, err)
	}
	if err := h.room.Move(ctx, tokens[turn], &wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: coop}); err != nil {
		t.Fatal(err)
	}
	if err := h.room.Move(ctx, tokens[turn], &wire.Move{MatchID: match, Round: open.Round, Turn: open.Turn, Body: coop}); codeOf(err) == "" {
		t.Fatal("the same move was taken twice")
	}
}
