package auction

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// TestRefusals: each refusal code of §1.3 for the move that earns it, in the order the server
// checks, and none changes the match: the views, the prompt, the deadline and the log are as
// before, and the right move is then taken.
func TestRefusals(t *testing.T) {
	tb := newTable(t, setupN(4, seq0(), `{"lots":3}`))
	tb.bid(0, 30) // seat 1's turn 1 of lot 1 is open; it holds 200
	open := breakroom.MoveOf(1, 1)
	long := strings.Repeat("é", 281)
	body := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, c := range []struct {
		name string
		in   games.Input
		code string
	}{
		{"no seat", games.Input{Seat: 0, Kind: "answer", Move: open, Body: body(`{"action":"pass"}`)}, breakroom.CodeNotSeated},
		{"another table's seat", games.Input{Seat: 5, Kind: "answer", Move: open, Body: body(`{"action":"pass"}`)}, breakroom.CodeNotSeated},
		{"not your turn", games.Input{Seat: 3, Kind: "answer", Move: open, Body: body(`{"action":"pass"}`)}, breakroom.CodeNotYourTurn},
		{"already played", games.Input{Seat: 1, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: body(`{"action":"pass"}`)}, breakroom.CodeNotYourTurn},
		{"stale turn", games.Input{Seat: 2, Kind: "answer", Move: breakroom.MoveOf(1, 0), Body: body(`{"action":"pass"}`)}, breakroom.CodeStaleTurn},
		{"stale round", games.Input{Seat: 2, Kind: "answer", Move: breakroom.MoveOf(2, 1), Body: body(`{"action":"pass"}`)}, breakroom.CodeStaleTurn},
		{"no state id", games.Input{Seat: 2, Kind: "answer", Move: games.Move{Turn: 1}, Body: body(`{"action":"pass"}`)}, breakroom.CodeStaleTurn},
		{"not JSON", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":`)}, breakroom.CodeBadRequest},
		{"not an object", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`["bid"]`)}, breakroom.CodeBadRequest},
		{"null", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`null`)}, breakroom.CodeBadRequest},
		{"action a number", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":1}`)}, breakroom.CodeBadRequest},
		{"duplicate member", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":3,"amount":4}`)}, breakroom.CodeBadRequest},
		{"folded member", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"pass","Action":"bid"}`)}, breakroom.CodeBadRequest},
		{"no action", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"amount":5}`)}, breakroom.CodeIllegalMove},
		{"unknown action", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"raise","amount":4}`)}, breakroom.CodeIllegalMove},
		{"upper case", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"BID","amount":4}`)}, breakroom.CodeIllegalMove},
		{"illegal before bad amount", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"fold","amount":-1}`)}, breakroom.CodeIllegalMove},
		{"no amount", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid"}`)}, breakroom.CodeBadAmount},
		{"null amount", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":null}`)}, breakroom.CodeBadAmount},
		{"zero", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":0}`)}, breakroom.CodeBadAmount},
		{"negative", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":-5}`)}, breakroom.CodeBadAmount},
		{"above cash", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":201}`)}, breakroom.CodeBadAmount},
		{"fraction", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":12.5}`)}, breakroom.CodeBadAmount},
		{"exponent", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":1e1}`)}, breakroom.CodeBadAmount},
		{"integral fraction", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":12.0}`)}, breakroom.CodeBadAmount},
		{"minus zero", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":-0}`)}, breakroom.CodeBadAmount},
		{"unsafe integer", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":9007199254740993}`)}, breakroom.CodeBadRequest},
		{"string amount", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":"12"}`)}, breakroom.CodeBadAmount},
		{"bad amount before bad message", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":0,"message":"` + long + `"}`)}, breakroom.CodeBadAmount},
		{"message too long", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"bid","amount":3,"message":"` + long + `"}`)}, breakroom.CodeBadMessage},
		{"message control", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"pass","message":"a\u0007b"}`)}, breakroom.CodeBadMessage},
		{"message tab", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"pass","message":"a\tb"}`)}, breakroom.CodeBadMessage},
		{"message a number", games.Input{Seat: 2, Kind: "answer", Move: open, Body: body(`{"action":"pass","message":5}`)}, breakroom.CodeBadMessage},
		{"unknown kind", games.Input{Seat: 2, Kind: "veto", Move: open, Body: body(`{}`)}, games.CodeBadRequest},
		{"bad presence", games.Input{Seat: 2, Kind: KindPresence, Body: body(`{"away":"yes"}`)}, games.CodeBadRequest},
		{"presence unchanged", games.Input{Seat: 2, Kind: KindPresence, Body: body(`{"away":false}`)}, CodeUnchanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(tb.m)
			st, err := tb.m.Act(tb.now.Add(time.Second), c.in)
			ge, ok := err.(*games.Error)
			if !ok || ge.Code != c.code || ge.Msg == "" {
				t.Fatalf("Act: %v, want %s", err, c.code)
			}
			if len(st.Events)+len(st.Prompts) > 0 {
				t.Fatalf("a refusal's step is not empty: %+v", st)
			}
			if !bytes.Equal(before, snapshot(tb.m)) {
				t.Fatalf("the refusal changed the match")
			}
		})
	}
	// Exactly 280 code points, "\n", a bid of all its cash and unknown parameters are fine.
	ok := strings.Repeat("é", 279) + `\n`
	tb.play(1, time.Second, `{"action":"bid","amount":200,"message":"`+ok+`","target":3,"type":"move","v":0,"match_id":"m_test","round":1,"turn":1}`)
	// A pass's amount is an unknown parameter there: ignored.
	tb.play(2, time.Second, `{"action":"pass","amount":-4}`)
	tb.pass(3)
	// Seat 1 spent all its cash: only pass is offered to it, and bid is illegal_move.
	tb.pass(0)
	p := tb.open()
	if p.Seat != 2 || len(p.Legal) != 1 || p.Legal[0].Name != ActionPass {
		t.Fatalf("the broke seat's prompt %+v", p)
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 2, Kind: "answer", Move: p.Move, Body: body(`{"action":"bid","amount":1}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeIllegalMove {
		t.Fatalf("a bid with no cash: %v, want illegal_move", err)
	}
	// Past its deadline a move is stale, though the deadline has not been applied yet.
	if _, err := tb.m.Act(p.Deadline, games.Input{Seat: p.Seat, Kind: "answer", Move: p.Move, Body: body(`{"action":"pass"}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeStaleTurn {
		t.Fatalf("a move at its deadline: %v, want stale_turn", err)
	}
	// Once the match is over every move is match_over.
	for tb.m.phase == phasePlaying {
		tb.expire(breakroom.WireSeat(tb.open().Seat))
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 1, Kind: "answer", Move: open, Body: body(`{"action":"pass"}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeMatchOver {
		t.Fatalf("a move after the end: %v, want match_over", err)
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 1, Kind: KindPresence, Body: body(`{"away":true}`)}); err == nil || err.(*games.Error).Code != breakroom.CodeMatchOver {
		t.Fatalf("a presence after the end: %v, want match_over", err)
	}
}

// FuzzParseMove: the move decoder never panics, refuses with a *games.Error only, and what it
// accepts is a legal action: a pass, or a bid of an integer amount within 1..cash, with a
// message within the rules.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{`{"action":"pass"}`, `{"action":"bid","amount":45}`, `{"action":"bid","amount":45,"message":"hi"}`,
		`{"action":"bid","amount":1e2}`, `{"action":"bid","amount":-0}`, `{"action":"bid","amount":9223372036854775808}`,
		`{"action":"x"}`, `{}`, `[]`, `null`, `{"action":"pass","message":"a\u0000"}`, `{"action":"bid","amount":1e999}`, "\xff"} {
		f.Add([]byte(s), int64(200))
	}
	f.Add([]byte(`{"action":"bid","amount":1}`), int64(0))
	f.Fuzz(func(t *testing.T, body []byte, cash int64) {
		if cash < 0 {
			cash = -cash
		}
		mv, err := ParseMove(body, cash, 280)
		if err != nil {
			if _, ok := err.(*games.Error); !ok {
				t.Fatalf("refusal %v is not a *games.Error", err)
			}
			return
		}
		switch {
		case mv.Action == ActionPass && mv.Amount == 0:
		case mv.Action == ActionBid && mv.Amount >= 1 && mv.Amount <= cash:
		default:
			t.Fatalf("accepted %+v with cash %d", mv, cash)
		}
		if breakroom.CheckMessage(mv.Message, 280) != nil {
			t.Fatalf("accepted message %q", mv.Message)
		}
	})
}
