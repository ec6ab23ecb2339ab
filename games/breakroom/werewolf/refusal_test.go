package werewolf

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// refuse sends in at the table's now + 1 ms and requires a refusal with code whose message
// holds detail, that changes nothing.
func refuse(t *testing.T, tb *table, in games.Input, code, detail string) {
	t.Helper()
	before := snapshot(tb.m)
	st, err := tb.m.Act(tb.now.Add(time.Millisecond), in)
	var ge *games.Error
	if !errors.As(err, &ge) || ge.Code != code || !strings.Contains(ge.Error(), detail) {
		t.Fatalf("%s %s: got %v (%d events), want %s naming %q", in.Kind, in.Body, err, len(st.Events), code, detail)
	}
	if snapshot(tb.m) != before {
		t.Fatalf("%s %s: the refusal changed the match", in.Kind, in.Body)
	}
}

// TestRefusals: every way §1.3 refuses a move, in its order, with the protocol's code, each
// changing nothing (the turn stays open and the same move is then accepted).
func TestRefusals(t *testing.T) {
	tb := newTable(t, setupN(5, seq0(), "")) // s0 villager, s1 seer, s2 doctor, s3 villager, s4 wolf
	ans := func(seat int, body string) games.Input {
		p := tb.open()
		return games.Input{Seat: breakroom.HouseSeat(seat), Kind: "answer", Move: p.Move, Body: json.RawMessage(body)}
	}
	// Night 1, seat 0 (villager) to play.
	refuse(t, tb, ans(7, `{"action":"sleep"}`), breakroom.CodeNotSeated, "not at this table")
	refuse(t, tb, ans(1, `{"action":"sleep"}`), breakroom.CodeNotYourTurn, "not seat 1's turn")
	in := ans(0, `{"action":"sleep"}`)
	in.Move = breakroom.MoveOf(1, 1)
	refuse(t, tb, in, breakroom.CodeStaleTurn, "not the open turn")
	in.Move = breakroom.MoveOf(2, 0)
	refuse(t, tb, in, breakroom.CodeStaleTurn, "not the open turn")
	for _, c := range []struct{ body, code, detail string }{
		{`[1]`, breakroom.CodeBadRequest, "not a JSON object"},
		{`{"action":5}`, breakroom.CodeBadRequest, "want a string"},
		{`{"action":"sleep","action":"kill"}`, breakroom.CodeBadRequest, ""},
		{`{}`, breakroom.CodeIllegalMove, "no action: legal are sleep"},
		{`{"action":"kill","target":4}`, breakroom.CodeIllegalMove, `"kill": legal are sleep`},
		{`{"action":"inspect","target":1}`, breakroom.CodeIllegalMove, "legal are sleep"},
		{`{"action":"sleep","message":"hello"}`, breakroom.CodeBadMessage, "sleep carries no message"},
		{`{"action":"sleep","message":3}`, breakroom.CodeBadMessage, "want a string"},
	} {
		refuse(t, tb, ans(0, c.body), c.code, c.detail)
	}
	tb.do(0, ActionSleep, -1)
	// Seat 1, the seer.
	for _, c := range []struct{ body, code, detail string }{
		{`{"action":"inspect"}`, breakroom.CodeIllegalMove, "inspect needs a target"},
		{`{"action":"inspect","target":null}`, breakroom.CodeIllegalMove, "inspect needs a target"},
		{`{"action":"inspect","target":1}`, breakroom.CodeIllegalMove, "may name [0 2 3 4]"},
		{`{"action":"inspect","target":"3"}`, breakroom.CodeIllegalMove, "may name"},
		{`{"action":"inspect","target":3.5}`, breakroom.CodeIllegalMove, "may name"},
		{`{"action":"inspect","target":9,"message":"x"}`, breakroom.CodeIllegalMove, "may name"}, // the target before the message
		{`{"action":"inspect","target":3,"message":"x"}`, breakroom.CodeBadMessage, "inspect carries no message"},
	} {
		refuse(t, tb, ans(1, c.body), c.code, c.detail)
	}
	tb.play(1, time.Second, `{"action":"inspect","target":3,"amount":5,"recipient":2}`) // unknown parameters are ignored
	tb.do(2, ActionProtect, 2)
	tb.do(3, ActionSleep, -1)
	// Seat 4, the wolf: talk allowed, at most 280 code points, no control characters.
	long := strings.Repeat("é", 281)
	for _, c := range []struct{ body, code, detail string }{
		{`{"action":"kill","target":4}`, breakroom.CodeIllegalMove, "may name [0 1 2 3]"},
		{`{"action":"kill","target":0,"message":"` + long + `"}`, breakroom.CodeBadMessage, "281 characters, at most 280"},
		{`{"action":"sleep","message":"a\u0000b"}`, breakroom.CodeBadMessage, "control character"},
	} {
		refuse(t, tb, ans(4, c.body), c.code, c.detail)
	}
	tb.play(4, time.Second, `{"action":"kill","target":0,"message":"`+strings.Repeat("é", 280)+`"}`)
	// Day: the dead seat 0 is never prompted; say needs words, pass takes none.
	refuse(t, tb, ans(0, `{"action":"pass"}`), breakroom.CodeNotYourTurn, "not seat 0's turn")
	for _, c := range []struct{ body, code, detail string }{
		{`{"action":"say"}`, breakroom.CodeBadMessage, "say needs a non-empty message"},
		{`{"action":"say","message":""}`, breakroom.CodeBadMessage, "say needs a non-empty message"},
		{`{"action":"say","message":null}`, breakroom.CodeBadMessage, "say needs a non-empty message"},
		{`{"action":"pass","message":"hm"}`, breakroom.CodeBadMessage, "pass carries no message"},
		{`{"action":"vote","target":4}`, breakroom.CodeIllegalMove, "legal are say, pass"},
	} {
		refuse(t, tb, ans(1, c.body), c.code, c.detail)
	}
	tb.play(1, time.Second, `{"action":"say","message":"line one\nline two"}`)
	for range 7 {
		tb.do(breakroom.WireSeat(tb.open().Seat), ActionPass, -1)
	}
	// Vote: no self, no dead seat, no message.
	for _, c := range []struct{ body, code, detail string }{
		{`{"action":"vote","target":1}`, breakroom.CodeIllegalMove, "may name [2 3 4]"},
		{`{"action":"vote","target":0}`, breakroom.CodeIllegalMove, "may name [2 3 4]"},
		{`{"action":"abstain","message":"no"}`, breakroom.CodeBadMessage, "abstain carries no message"},
	} {
		refuse(t, tb, ans(1, c.body), c.code, c.detail)
	}
	// After the deadline the move is stale; then the default is played.
	p := tb.open()
	tb.now = p.Deadline.Add(-time.Millisecond)
	refuse(t, tb, ans(1, `{"action":"abstain"}`), breakroom.CodeStaleTurn, "deadline has passed")
	// Other kinds and presences.
	refuse(t, tb, games.Input{Seat: 2, Kind: "lever", Body: json.RawMessage(`{}`)}, games.CodeBadRequest, "Werewolf takes answer and presence")
	refuse(t, tb, games.Input{Seat: 2, Kind: KindPresence, Body: json.RawMessage(`{"away":1}`)}, games.CodeBadRequest, "presence")
	refuse(t, tb, games.Input{Seat: 3, Kind: KindPresence, Body: json.RawMessage(`{"away":false}`)}, CodeUnchanged, "nothing to change")
	refuse(t, tb, games.Input{Seat: 9, Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)}, breakroom.CodeNotSeated, "not at this table")
	// The match over: match_over for every move.
	ab := tb.m.Abandon(tb.now, "test")
	tb.evs = append(tb.evs, ab.Events...)
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 2, Kind: "answer", Body: json.RawMessage(`{"action":"abstain"}`)}); !isCode(err, breakroom.CodeMatchOver) {
		t.Fatalf("after the end: %v", err)
	}
	if _, err := tb.m.Act(tb.now, games.Input{Seat: 2, Kind: KindPresence, Body: json.RawMessage(`{"away":true}`)}); !isCode(err, breakroom.CodeMatchOver) {
		t.Fatalf("presence after the end: %v", err)
	}
}

func isCode(err error, code string) bool {
	var ge *games.Error
	return errors.As(err, &ge) && ge.Code == code
}

// TestSetupRefusals: New refuses a table the rules do not define, or a config out of bounds.
func TestSetupRefusals(t *testing.T) {
	for _, c := range []struct {
		n      int
		opts   string
		detail string
	}{
		{4, "", "4 seats, want 5 to 8"},
		{9, "", "9 seats"},
		{5, `{"roles":{"wolf":2,"seer":1,"doctor":1,"villager":2}}`, "deal 6 seats"},
		{6, `{"roles":{"wolf":3,"seer":1,"doctor":1,"villager":1}}`, "fewer than the other seats"},
		{5, `{"roles":{"wolf":0,"seer":1,"doctor":1,"villager":3}}`, "at least 1 wolf"},
		{5, `{"roles":{"wolf":1,"seer":2,"doctor":1,"villager":1}}`, "at most 1 seer"},
		{5, `{"max_rounds":0}`, "max_rounds 0"},
		{5, `{"discussion_rounds":9}`, "discussion_rounds 9"},
		{5, `{"strikes_limit":0}`, "strikes_limit 0"},
		{5, `{"max_message_chars":281}`, "max_message_chars 281"},
		{5, `{"turn_deadline_ms":0}`, "turn_deadline_ms 0"},
		{5, `{"turn_deadline_ms":5000,"away_deadline_ms":6000}`, "away_deadline_ms 6000"},
		{5, `{"wolves":3}`, "unknown"},
		{5, `[]`, ""},
	} {
		_, err := Engine{}.New(setupN(c.n, seq0(), c.opts), nil)
		if !isCode(err, games.CodeBadRequest) || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%d seats %s: %v, want bad_request naming %q", c.n, c.opts, err, c.detail)
		}
	}
	s := setupN(5, seq0(), "")
	s.Seats[1].Agent = s.Seats[0].Agent
	if _, err := (Engine{}).New(s, nil); !isCode(err, games.CodeBadRequest) {
		t.Errorf("a key seated twice: %v", err)
	}
	// A turn shorter than the away deadline makes the away deadline the turn's.
	m, err := Engine{}.New(setupN(5, seq0(), `{"turn_deadline_ms":1000}`), nil)
	if err != nil || m.(*match).cfg.AwayDeadlineMS != 1000 {
		t.Fatalf("short turn: %v %+v", err, m)
	}
}
