package breakroom

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"arena/games"
)

// codeOf is err's *games.Error code ("" for nil, "?" for another error).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	var ge *games.Error
	if !errors.As(err, &ge) {
		return "?"
	}
	return ge.Code
}

// TestReadPresence: the refusals come in order (match_over, then not_seated, then bad_request
// for any body but {"away": true|false}), and an accepted input gives its wire seat and away.
func TestReadPresence(t *testing.T) {
	for _, c := range []struct {
		over  bool
		seat  int
		body  string
		code  string
		wire  int
		isOff bool
	}{
		{false, 1, `{"away":true}`, "", 0, true},
		{false, 3, `{"away":false}`, "", 2, false},
		{true, 1, `{"away":true}`, CodeMatchOver, 0, false},
		{true, 9, `nope`, CodeMatchOver, 0, false},
		{false, 0, `{"away":true}`, CodeNotSeated, 0, false},
		{false, 4, `{"away":true}`, CodeNotSeated, 0, false},
		{false, 4, `nope`, CodeNotSeated, 0, false},
		{false, 1, `{}`, games.CodeBadRequest, 0, false},
		{false, 1, `{"away":null}`, games.CodeBadRequest, 0, false},
		{false, 1, `{"away":1}`, games.CodeBadRequest, 0, false},
		{false, 1, `{"away":true,"x":1}`, games.CodeBadRequest, 0, false},
		{false, 1, `{"away":true,"away":false}`, games.CodeBadRequest, 0, false},
		{false, 1, `[true]`, games.CodeBadRequest, 0, false},
		{false, 1, ``, games.CodeBadRequest, 0, false},
	} {
		seat, away, err := ReadPresence(c.over, 3, games.Input{Seat: c.seat, Kind: "presence", Body: json.RawMessage(c.body)})
		if codeOf(err) != c.code || err == nil && (seat != c.wire || away != c.isOff) {
			t.Errorf("over %v, seat %d, body %s: seat %d away %v err %v; want code %q seat %d away %v",
				c.over, c.seat, c.body, seat, away, err, c.code, c.wire, c.isOff)
		}
	}
}

// FuzzReadPresence: any body is read or refused with bad_request, never a panic; an accepted
// body is a JSON object whose away is the answer.
func FuzzReadPresence(f *testing.F) {
	for _, s := range []string{`{"away":true}`, `{"away":false}`, `{}`, `{"away":null}`, `{"away":true,"x":1}`, ` {"away" : false} `, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, away, err := ReadPresence(false, 1, games.Input{Seat: 1, Body: raw})
		if err != nil {
			if codeOf(err) != games.CodeBadRequest {
				t.Fatalf("%q: refused with %v, want bad_request", raw, err)
			}
			return
		}
		var b struct{ Away *bool }
		if json.Unmarshal(raw, &b) != nil || b.Away == nil || *b.Away != away {
			t.Fatalf("%q: accepted as away %v", raw, away)
		}
	})
}

// TestPresence: away brings an open prompt's deadline down to now + the away deadline (never
// up), back takes it up to its opening + the turn deadline (never down) and makes a seat that
// sits out returning (not where Returning is nil); a moved or kept open prompt is redelivered
// with the deadline and answered with PresenceReply; nothing to change is unchanged and writes
// nothing.
func TestPresence(t *testing.T) {
	opened := time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)
	const awayD, turnD = 3 * time.Second, 10 * time.Second
	type want struct {
		code      string
		away      bool
		returning bool
		deadline  time.Time // the open prompt's deadline after (zero: no open prompt)
	}
	for _, c := range []struct {
		name      string
		now       time.Time
		awayIn    bool // the input
		away      bool // the seat before
		returning *bool
		out       bool
		deadline  time.Time // zero: no open prompt
		want      want
	}{
		{"away, prompt open", opened.Add(2 * time.Second), true, false, new(bool), false, opened.Add(turnD),
			want{"", true, false, opened.Add(5 * time.Second)}},
		{"away, the prompt ends sooner already", opened.Add(9 * time.Second), true, false, new(bool), false, opened.Add(turnD),
			want{"", true, false, opened.Add(turnD)}},
		{"away again, nothing sooner", opened.Add(9 * time.Second), true, true, new(bool), false, opened.Add(turnD),
			want{CodeUnchanged, true, false, opened.Add(turnD)}},
		{"away, no prompt", opened, true, false, new(bool), false, time.Time{}, want{"", true, false, time.Time{}}},
		{"away again, no prompt", opened, true, true, new(bool), false, time.Time{}, want{CodeUnchanged, true, false, time.Time{}}},
		{"back, prompt cut short", opened.Add(4 * time.Second), false, true, new(bool), false, opened.Add(5 * time.Second),
			want{"", false, false, opened.Add(turnD)}},
		{"back while there: the deadline restored", opened.Add(4 * time.Second), false, false, new(bool), false, opened.Add(5 * time.Second),
			want{"", false, false, opened.Add(turnD)}},
		{"back, nothing to change", opened, false, false, new(bool), false, opened.Add(turnD), want{CodeUnchanged, false, false, opened.Add(turnD)}},
		{"back, sitting out: returning", opened, false, false, new(bool), true, time.Time{}, want{"", false, true, time.Time{}}},
		{"back, returning already", opened, false, false, ptr(true), true, time.Time{}, want{CodeUnchanged, false, true, time.Time{}}},
		{"back, out where leaving is final", opened, false, false, nil, true, time.Time{}, want{CodeUnchanged, false, false, time.Time{}}},
	} {
		away := c.away
		s := PresenceSeat{Away: &away, Returning: c.returning, Out: c.out}
		var tp *PresenceTurn
		deadline := c.deadline
		prompt := games.Prompt{Seat: 2, Deadline: deadline}
		if !deadline.IsZero() {
			tp = &PresenceTurn{Prompt: &prompt, Deadline: &deadline, Opened: opened}
		}
		step, err := Presence(c.now, 1, c.awayIn, s, tp, awayD, turnD)
		returning := c.returning != nil && *c.returning
		if codeOf(err) != c.want.code || away != c.want.away || returning != c.want.returning || !deadline.Equal(c.want.deadline) {
			t.Errorf("%s: err %v, away %v, returning %v, deadline %v; want %+v", c.name, err, away, returning, deadline, c.want)
			continue
		}
		var reply PresenceReply
		switch {
		case err != nil || tp == nil:
			if len(step.Prompts) != 0 || step.Reply != nil || len(step.Events) != 0 {
				t.Errorf("%s: step %+v, want none", c.name, step)
			}
		case len(step.Prompts) != 1 || !step.Prompts[0].Deadline.Equal(c.want.deadline) || step.Prompts[0].Seat != 2 ||
			json.Unmarshal(step.Reply, &reply) != nil || !reply.Deadline.Equal(c.want.deadline) || len(step.Events) != 0:
			t.Errorf("%s: step %+v (reply %s), want the prompt again with deadline %v", c.name, step, step.Reply, c.want.deadline)
		}
	}
}

func ptr[T any](v T) *T { return &v }
