package inference

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// viewsOf is every viewer's view, the open prompts and the deadline, as bytes: what a refusal
// must not change.
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
// checks, and none changes the match: the views, the prompt and the deadline are as before, no
// line is written, and the right move is then taken. §2.10's hand 1 is at seat 2's turn 1
// (fold, call 4, raise 1..10).
func TestRefusals(t *testing.T) {
	s := setupN(3, seq0(), seq0(), `{"rounds":2}`)
	tb := newTable(t, s)
	tb.move(1, `{"action":"raise","amount":4}`)
	open := breakroom.MoveOf(1, 1)
	long := strings.Repeat("é", 281)
	body := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, c := range []struct {
		name string
		in   games.Input
		code string
	}{
		{"no seat", games.Input{Seat: 0, Kind: "answer", Move: open, Body: body(`{"action":"fold"}`)}, breakroom.CodeNotSeated},
		{"another table's seat", games.Input{Seat: 4, Kind: "answer", Move: open, Body: body(`{"action":"fold"}`)}, breakroom.CodeNotSeated},
		{"not your turn", games.Input{Seat: 1, Kind: "answer", Move: open, Body: body(`{"action":"fold"}`)}, breakroom.CodeNotYourTurn},
		{"already played", games.Input{Seat: 2, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: body(`{"action":"fold"}`)}, breakroom.CodeNotYourTurn},
		{"stale turn", games.Input{Seat: 3, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: body(`{"action":"fold"}`)}, breakroom.CodeStaleTurn},
		{"stale round", games.Input{Seat: 3, Kind: "answer", Move: breakroom.MoveOf(2, 1), Body: body(`{"action":"fold"}`)}, breakroom.CodeStaleTurn},
		{"no state id", games.Input{Seat: 3, Kind: "answer", Move: games.Move{Turn: 1}, Body: body(`{"action":"fold"}`)}, breakroom.CodeStaleTurn},
		{"not JSON", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":`)}, breakroom.CodeBadRequest},
		{"not an object", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`["fold"]`)}, breakroom.CodeBadRequest},
		{"null", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`null`)}, breakroom.CodeBadRequest},
		{"action a number", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":1}`)}, breakroom.CodeBadRequest},
		{"duplicate member", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"fold","action":"call"}`)}, breakroom.CodeBadRequest},
		{"unsafe integer", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":9007199254740993}`)}, breakroom.CodeBadRequest},
		{"no action", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"amount":4}`)}, breakroom.CodeIllegalMove},
		{"check facing a bet", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"check"}`)}, breakroom.CodeIllegalMove},
		{"unknown action", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"bet","amount":4}`)}, breakroom.CodeIllegalMove},
		{"upper case", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"FOLD"}`)}, breakroom.CodeIllegalMove},
		{"illegal before bad amount", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"check","amount":99}`)}, breakroom.CodeIllegalMove},
		{"raise without amount", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise"}`)}, breakroom.CodeBadAmount},
		{"raise 0", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":0}`)}, breakroom.CodeBadAmount},
		{"raise above max", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":11}`)}, breakroom.CodeBadAmount},
		{"raise a fraction", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":2.5}`)}, breakroom.CodeBadAmount},
		{"raise a string", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":"4"}`)}, breakroom.CodeBadAmount},
		{"raise null", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":null}`)}, breakroom.CodeBadAmount},
		{"call for another amount", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"call","amount":5}`)}, breakroom.CodeBadAmount},
		{"bad amount before bad message", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":0,"message":"` + long + `"}`)}, breakroom.CodeBadAmount},
		{"message too long", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"fold","message":"` + long + `"}`)}, breakroom.CodeBadMessage},
		{"message control", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"fold","message":"a\u0007b"}`)}, breakroom.CodeBadMessage},
		{"message a number", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"fold","message":7}`)}, breakroom.CodeBadMessage},
		{"another kind", games.Input{Seat: 3, Kind: "call", Move: open, Body: body(`{"action":"fold"}`)}, games.CodeBadRequest},
		{"presence unchanged", games.Input{Seat: 3, Kind: KindPresence, Body: body(`{"away":false}`)}, CodeUnchanged},
		{"presence bad body", games.Input{Seat: 3, Kind: KindPresence, Body: body(`{"away":"yes"}`)}, games.CodeBadRequest},
	} {
		before, seq := viewsOf(tb.m), tb.m.seq
		st, err := tb.m.Act(tb.now.Add(time.Second), c.in)
		var ge *games.Error
		if err == nil || !asGamesError(err, &ge) || ge.Code != c.code {
			t.Fatalf("%s: %v, want %s", c.name, err, c.code)
		}
		if len(st.Events) > 0 || len(st.Prompts) > 0 || tb.m.seq != seq || !bytes.Equal(viewsOf(tb.m), before) {
			t.Fatalf("%s: the refusal changed the match", c.name)
		}
	}
	// After its deadline the open turn is stale, even before Advance.
	p := tb.open()
	_, err := tb.m.Act(p.Deadline, games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"fold"}`)})
	var ge *games.Error
	if !asGamesError(err, &ge) || ge.Code != breakroom.CodeStaleTurn {
		t.Fatalf("a move at the deadline: %v", err)
	}
	// The right move is taken: a call with its amount.
	tb.move(2, `{"action":"call","amount":4,"extra":"ignored"}`)
	if a := tb.ofType("action"); len(a) != 2 || a[1]["action"] != "call" || a[1]["amount"] != 4.0 {
		t.Fatalf("actions %v", a)
	}
	// Once the match is over every move is match_over.
	tb.m.Abandon(tb.now, "test")
	_, err = tb.m.Act(tb.now, games.Input{Seat: 1, Kind: "answer", Move: breakroom.MoveOf(1, 2), Body: body(`{"action":"fold"}`)})
	if !asGamesError(err, &ge) || ge.Code != breakroom.CodeMatchOver {
		t.Fatalf("after the end: %v", err)
	}
}

// FuzzParseMove: no body panics the move decoder; an accepted move is one of the prompt's
// actions, a raise within its bounds, and a message within the limit.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`{"action":"raise","amount":4}`, `{"action":"call"}`, `{"action":"call","amount":4}`,
		`{"action":"fold","message":"hi"}`, `{"action":"check"}`, `{"action":"raise","amount":1e3}`, `[]`, `null`, `{"action":"raise","amount":-0}`} {
		f.Add([]byte(s))
	}
	facing := []games.Action{
		{Name: ActionFold, Bounds: []byte(`{"max_message_chars":280}`)},
		{Name: ActionCall, Bounds: []byte(`{"amount":4,"max_message_chars":280}`)},
		{Name: ActionRaise, Bounds: []byte(`{"max":10,"max_message_chars":280,"min":1}`)},
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		mv, err := ParseMove(body, facing, 280)
		if err != nil {
			var ge *games.Error
			if !asGamesError(err, &ge) {
				t.Fatalf("%q: error %v is not a *games.Error", body, err)
			}
			switch ge.Code {
			case breakroom.CodeBadRequest, breakroom.CodeIllegalMove, breakroom.CodeBadAmount, breakroom.CodeBadMessage:
			default:
				t.Fatalf("%q: code %s", body, ge.Code)
			}
			return
		}
		switch mv.Action {
		case ActionFold, ActionCall:
			if mv.Amount != 0 {
				t.Fatalf("%q: %+v", body, mv)
			}
		case ActionRaise:
			if mv.Amount < 1 || mv.Amount > 10 {
				t.Fatalf("%q: raise amount %d", body, mv.Amount)
			}
		default:
			t.Fatalf("%q: action %q accepted", body, mv.Action)
		}
		if breakroom.CheckMessage(mv.Text, 280) != nil {
			t.Fatalf("%q: message %q accepted", body, mv.Text)
		}
	})
}
