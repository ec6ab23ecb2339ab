package dilemma

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// viewsOf is every viewer's view and the open prompts, as bytes: what a refusal must not change.
func viewsOf(m *match) []byte {
	var b []byte
	for v := 0; v <= len(m.seats); v++ {
		b = append(append(b, m.View(v).Bytes()...), '\n')
	}
	for _, p := range m.Prompts() {
		pj, _ := json.Marshal(p)
		b = append(b, pj...)
	}
	dl, ok := m.Deadline()
	return append(b, []byte(dl.String()+strings.Repeat("!", map[bool]int{true: 1}[ok]))...)
}

// TestRefusals: each refusal code of §1.3 for the move that earns it, in the order the server
// checks, and none changes the match: the views, the prompt and the deadline are as before, and
// the right move is then taken.
func TestRefusals(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"stop_one_in":2}`))
	tb.choose(0, "cooperate") // seat 1's turn 1 of round 1 is open
	open := breakroom.MoveOf(1, 1)
	long := strings.Repeat("é", 281)
	for _, c := range []struct {
		name string
		in   games.Input
		code string
	}{
		{"no seat", games.Input{Seat: 0, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeNotSeated},
		{"another table's seat", games.Input{Seat: 5, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeNotSeated},
		{"not your turn", games.Input{Seat: 3, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeNotYourTurn},
		{"already played", games.Input{Seat: 1, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeNotYourTurn},
		{"stale turn", games.Input{Seat: 2, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeStaleTurn},
		{"stale round", games.Input{Seat: 2, Kind: "answer", Move: breakroom.MoveOf(2, 1), Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeStaleTurn},
		{"no state id", games.Input{Seat: 2, Kind: "answer", Move: games.Move{Turn: 1}, Body: json.RawMessage(`{"action":"defect"}`)}, breakroom.CodeStaleTurn},
		{"not JSON", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":`)}, breakroom.CodeBadRequest},
		{"not an object", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`["defect"]`)}, breakroom.CodeBadRequest},
		{"null", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`null`)}, breakroom.CodeBadRequest},
		{"action a number", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":1}`)}, breakroom.CodeBadRequest},
		{"duplicate member", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","action":"cooperate"}`)}, breakroom.CodeBadRequest},
		{"folded member", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","Action":"cooperate"}`)}, breakroom.CodeBadRequest},
		{"no action", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"message":"hi"}`)}, breakroom.CodeIllegalMove},
		{"unknown action", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"raise","amount":4}`)}, breakroom.CodeIllegalMove},
		{"upper case", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"DEFECT"}`)}, breakroom.CodeIllegalMove},
		{"illegal before bad message", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"fold","message":"` + long + `"}`)}, breakroom.CodeIllegalMove},
		{"message too long", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","message":"` + long + `"}`)}, breakroom.CodeBadMessage},
		{"message control", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","message":"a\u0007b"}`)}, breakroom.CodeBadMessage},
		{"message tab", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","message":"a\tb"}`)}, breakroom.CodeBadMessage},
		{"message C1", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","message":"a\u0085b"}`)}, breakroom.CodeBadMessage},
		{"illegal before a message of another type", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"fold","message":5}`)}, breakroom.CodeIllegalMove},
		{"message a number", games.Input{Seat: 2, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect","message":5}`)}, breakroom.CodeBadMessage},
		{"unknown kind", games.Input{Seat: 2, Kind: "veto", Move: open, Body: json.RawMessage(`{}`)}, games.CodeBadRequest},
		{"bad presence", games.Input{Seat: 2, Kind: KindPresence, Body: json.RawMessage(`{"away":"yes"}`)}, games.CodeBadRequest},
		{"presence unchanged", games.Input{Seat: 2, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)}, CodeUnchanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := viewsOf(tb.m)
			st, err := tb.m.Act(tb.now.Add(time.Second), c.in)
			ge, ok := err.(*games.Error)
			if !ok || ge.Code != c.code || ge.Msg == "" {
				t.Fatalf("Act: %v, want %s", err, c.code)
			}
			if len(st.Events)+len(st.Prompts) > 0 {
				t.Fatalf("a refusal's step is not empty: %+v", st)
			}
			if !bytes.Equal(before, viewsOf(tb.m)) {
				t.Fatalf("the refusal changed the match")
			}
		})
	}
	// Exactly 280 code points, "\n" and an unknown parameter are fine; the turn is still open.
	ok := strings.Repeat("é", 279) + "\n"
	tb.play(1, time.Second, `{"action":"defect","message":"`+strings.ReplaceAll(ok, "\n", `\n`)+`","amount":3,"type":"move","v":0,"match_id":"m_test","round":1,"turn":1}`)
	// Past its deadline a move is stale, though the deadline has not been applied yet.
	p := tb.open()
	if _, err := tb.m.Act(p.Deadline, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: json.RawMessage(`{"action":"defect"}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeStaleTurn {
		t.Fatalf("a move at its deadline: %v, want stale_turn", err)
	}
	// Once the match is over every move is match_over.
	for tb.m.phase == phasePlaying {
		tb.expire(breakroom.WireSeat(tb.open().Seat))
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 1, Kind: "answer", Move: open, Body: json.RawMessage(`{"action":"defect"}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeMatchOver {
		t.Fatalf("a move after the end: %v, want match_over", err)
	}
}

// FuzzParseMove: the move decoder never panics, and what it accepts is a legal action with a
// message within the rules.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`{"action":"cooperate"}`, `{"action":"defect","message":"hi"}`, `{"action":"defect","message":null}`,
		`{"action":"x"}`, `{}`, `[]`, `null`, `{"action":"defect","message":"a\u0000"}`, `{"action":"cooperate","amount":1e999}`, "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		action, text, err := ParseMove(body, 280)
		if err != nil {
			if _, ok := err.(*games.Error); !ok {
				t.Fatalf("refusal %v is not a *games.Error", err)
			}
			return
		}
		if action != ActionCooperate && action != ActionDefect {
			t.Fatalf("accepted action %q", action)
		}
		if breakroom.CheckMessage(text, 280) != nil {
			t.Fatalf("accepted message %q", text)
		}
	})
}
