package diplomacy

import (
	"encoding/json"
	"strconv"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) breakroom.Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates a Diplomacy match from its log once it has ended (every line, the "reveal":
// "end" ones included: nothing stays secret after the end) and the seed its end line reveals
// (arena verify-log). The match is rebuilt from match_start and fed, for each open prompt, the
// input the log states: a send (message_private), a broadcast (message), done or the orders
// (action_private), or a timeout; a timeout before the full deadline means the seat was away, and
// a civil_disorder {on:false} means its key came back. Every line the re-simulation writes must
// equal the log's (as JCS), so an altered order shows at its phase's orders or adjudication line,
// an altered result, centre count, ranking or seed at its own line.
func Verify(lines [][]byte) breakroom.Report {
	v := &verifier{Verifier: breakroom.NewVerifier(GameID, lines)}
	v.SeatOptions = func(house, staff bool) any { return SeatOptions{House: house, Staff: staff} }
	v.Run(v)
	return v.Rep
}

type verifier struct {
	*breakroom.Verifier
	m *match
}

type lineFields struct {
	Round  *int            `json:"round"`
	Seat   *int            `json:"seat"`
	Turn   *int            `json:"turn"`
	On     *bool           `json:"on"`
	Action string          `json:"action"`
	Orders []string        `json:"orders"`
	To     []int           `json:"to"`
	Text   string          `json:"text"`
	Auto   json.RawMessage `json:"auto"`
	Reason string          `json:"reason"`
}

func (v *verifier) fields(i int) lineFields {
	var f lineFields
	v.Fields(i, &f)
	return f
}

// Begin builds the match as the engine does.
func (v *verifier) Begin(s games.Setup) (games.Match, error) {
	m, err := Engine{}.New(s, nil)
	if err == nil {
		v.m = m.(*match)
	}
	return m, err
}

// StartLine is the match's match_start event.
func (v *verifier) StartLine(start time.Time) games.Event {
	var st games.Step
	v.m.startLine(&st, start)
	return st.Events[0]
}

// Playing says the match has not ended.
func (v *verifier) Playing() bool { return v.m.phase == phasePlaying }

// Step feeds the re-simulation the input that resolves its open prompt, as the log's next line
// states it, and checks the lines it writes.
func (v *verifier) Step() {
	o := v.m.open
	i := v.Pos
	switch {
	case o == nil:
		v.Fail(i, nil, "the re-simulation has no open turn and has not ended")
		return
	case i >= len(v.Lines):
		v.Fail(i, nil, "the log stops before the match's end (seat %d's turn %d of round %d is open)", o.seat, o.turn, v.m.round)
		return
	case v.Errs[i] != nil:
		v.Fail(i, nil, "not a log line: %v", v.Errs[i])
		return
	}
	t, ok := v.At(i)
	if !ok {
		v.Fail(i, nil, "t %q is not an RFC 3339 instant", v.Parsed[i].T)
		return
	}
	if t.Before(o.opened) {
		v.Fail(i, nil, "t %s is before the open turn opened (%s): the log's instants go back", v.Parsed[i].T, stamp(o.opened))
		return
	}
	f := v.fields(i)
	mine := f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	var body map[string]any
	switch typ := v.Parsed[i].Type; {
	case typ == "match_abandoned":
		v.Expect(v.m.Abandon(t, f.Reason).Events)
		return
	case typ == "message_private" && mine && len(f.To) == 1:
		body = map[string]any{"action": ActionSend, "recipient": f.To[0], "message": f.Text}
	case typ == "message" && mine:
		body = map[string]any{"action": ActionBroadcast, "message": f.Text}
	case typ == "action_private" && mine && f.Action == ActionDone:
		body = map[string]any{"action": ActionDone}
	case typ == "action_private" && mine && f.Action == ActionOrders:
		orders := f.Orders
		if orders == nil {
			orders = []string{}
		}
		body = map[string]any{"action": ActionOrders, "orders": orders}
	case typ == "timeout_private" && mine:
		full := o.opened.Add(v.m.cfg.deadline(v.m.step == stepOrders, false))
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.deadline(false, true))
			if at.Before(o.opened) {
				at = o.opened
			}
			v.presence(o.seat, at, true)
		}
		v.comeBack(i, t)
		if t.Before(o.deadline) {
			v.Fail(i, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.Expect(v.m.Advance(t).Events)
		return
	default:
		v.Fail(i, nil, "want the resolution of seat %d's turn %d in round %d", o.seat, o.turn, v.m.round)
		return
	}
	v.present(o)
	v.comeBack(i, t)
	b, _ := json.Marshal(body)
	st, err := v.m.Act(t, games.Input{Seat: breakroom.HouseSeat(o.seat), Kind: "answer", Move: breakroom.MoveOf(v.m.round, o.turn), Body: b})
	if err != nil {
		v.Fail(i, nil, "the re-simulation refuses this move: %v", err)
		return
	}
	v.Expect(st.Events)
}

// present makes the open prompt's seat present from its opening (the full deadline).
func (v *verifier) present(o *openPrompt) {
	if v.m.seats[o.seat].away {
		v.presence(o.seat, o.opened, false)
	}
}

// comeBack tells the re-simulation that every seat back from civil disorder in the lines the
// step from line i writes came back before it.
func (v *verifier) comeBack(i int, t time.Time) {
	for j := i + 1; j < len(v.Lines) && v.Errs[j] == nil; j++ {
		switch v.Parsed[j].Type {
		case "action_private", "timeout_private", "message", "message_private", "match_end", "match_abandoned":
			return
		case "civil_disorder":
			if f := v.fields(j); f.On != nil && !*f.On && f.Seat != nil && *f.Seat >= 0 && *f.Seat < len(v.m.seats) {
				v.presence(*f.Seat, t, false)
			}
		}
	}
}

func (v *verifier) presence(seat int, at time.Time, away bool) {
	_, _ = v.m.Act(at, games.Input{Seat: breakroom.HouseSeat(seat), Kind: KindPresence,
		Body: json.RawMessage(`{"away":` + strconv.FormatBool(away) + `}`)})
}
