package werewolf

import (
	"encoding/json"
	"strconv"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// Report is Werewolf's verify-log result (breakroom.Report).
type Report = breakroom.Report

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates a Werewolf match from its log once it has ended (every line, the
// "reveal": "end" ones included: Werewolf writes no line that stays secret) and the seed its end
// line reveals (arena verify-log; protocol "Match log"). The match is rebuilt from match_start
// (match id, players, config, its t as the start) and played with the moves, talk and instants
// the log states: each open prompt is resolved by its seat's next line (action_private, action,
// a message or message_private with the action after it, timeout_private or timeout). Every
// line the re-simulation writes must equal the log's (compared as JCS). What the log cannot
// state but the rules need is inferred: a timeout earlier than the full deadline means the seat
// was away. The roles follow from the seed, so an altered role shows at its role_private line;
// an altered move at its own line or where its consequence does (an inspection's result, a kill,
// a vote's tally; talk, an input with no consequence, cannot be told from other talk); an
// altered instant, strike count, death, ranking or seed at its own line.
// Lines after the end other than a paid match's money lines differ.
func Verify(lines [][]byte) Report {
	v := &verifier{Verifier: breakroom.NewVerifier(GameID, lines)}
	v.SeatOptions = func(house, staff bool) any { return SeatOptions{House: house, Staff: staff} }
	v.Run(v)
	return v.Rep
}

// verifier is the game's breakroom.Resimulation: its match, rebuilt from match_start, in the
// shared frame of a Break Room log verifier.
type verifier struct {
	*breakroom.Verifier
	m *match
}

// lineFields are the members the re-simulation reads to choose its next input.
type lineFields struct {
	Round  *int            `json:"round"`
	Seat   *int            `json:"seat"`
	Turn   *int            `json:"turn"`
	Action string          `json:"action"`
	Target json.RawMessage `json:"target"`
	Auto   json.RawMessage `json:"auto"`
	Text   *string         `json:"text"`
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
	if o == nil {
		v.Fail(i, nil, "the re-simulation has no open turn and has not ended")
		return
	}
	if i >= len(v.Lines) {
		v.Fail(i, nil, "the log stops before the match's end (seat %d's turn %d of round %d is open)", o.seat, o.turn, v.m.round)
		return
	}
	if v.Errs[i] != nil {
		v.Fail(i, nil, "not a log line: %v", v.Errs[i])
		return
	}
	t, ok := v.At(i)
	if !ok {
		v.Fail(i, nil, "t %q is not an RFC 3339 instant", v.Parsed[i].T)
		return
	}
	f := v.fields(i)
	mine := func(f lineFields) bool {
		return f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	}
	switch typ := v.Parsed[i].Type; {
	case typ == "match_abandoned":
		v.Expect(v.m.Abandon(t, f.Reason).Events)
	case (typ == "message" || typ == "message_private") && mine(f) && f.Text != nil:
		// Talk comes just before its move's line, which names the action (and target): a log
		// without that line there fails at the line where it should be.
		a := v.fields(i + 1)
		if next := i + 1; next >= len(v.Lines) || v.Errs[next] != nil || !mine(a) || len(a.Auto) != 0 ||
			(v.Parsed[next].Type != "action" && v.Parsed[next].Type != "action_private") {
			v.Fail(next, nil, "want the line of seat %d's turn %d in round %d that carries the talk before it", o.seat, o.turn, v.m.round)
			return
		}
		v.move(i, t, a.Action, a.Target, *f.Text)
	case (typ == "action_private" || typ == "action") && mine(f) && len(f.Auto) == 0:
		v.move(i, t, f.Action, f.Target, "")
	case (typ == "timeout_private" || typ == "timeout") && mine(f):
		full := o.opened.Add(v.m.cfg.turnDeadline())
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.awayDeadline())
			if at.Before(o.opened) {
				at = o.opened
			}
			v.presence(o.seat, at, true)
		}
		if t.Before(o.deadline) {
			v.Fail(i, nil, "a timeout before the turn's deadline (%s)", stamp(o.deadline))
			return
		}
		v.Expect(v.m.Advance(t).Events)
	default:
		v.Fail(i, nil, "want the resolution of seat %d's turn %d in round %d (its move, talk or timeout line)", o.seat, o.turn, v.m.round)
	}
}

// move plays the open prompt's move as line i states it, at t.
func (v *verifier) move(i int, t time.Time, action string, target json.RawMessage, text string) {
	o := v.m.open
	v.present(o)
	body := map[string]any{"action": action}
	if len(target) > 0 {
		body["target"] = target
	}
	if text != "" {
		body["message"] = text
	}
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

func (v *verifier) presence(seat int, at time.Time, away bool) {
	_, _ = v.m.Act(at, games.Input{Seat: breakroom.HouseSeat(seat), Kind: KindPresence,
		Body: json.RawMessage(`{"away":` + strconv.FormatBool(away) + `}`)})
}
