package auction

import (
	"encoding/json"
	"strconv"
	"time"

	"arena/games"
	"arena/games/breakroom"
)

// Report is the Auction's verify-log result (breakroom.Report).
type Report = breakroom.Report

// VerifyJSONL is Verify of a JSONL log: one line per non-blank line of log.
func VerifyJSONL(log []byte) Report { return Verify(breakroom.SplitLog(log)) }

// Verify re-simulates an Auction match from its public log, once it has ended (every line, the
// "reveal": "end" ones included: the Auction writes no line that stays secret) and the seed its
// end line reveals (arena verify-log; protocol "Match log": the re-simulation of a match, or of
// an abandoned one up to its cut). The match is rebuilt from match_start (match id, players,
// config, its t as the start) and played with the bids, passes, talk and instants the log
// states; every line the re-simulation writes must equal the log's (compared as JCS, so member
// order and spacing do not matter). What the log cannot state but the rules need is inferred: a
// timeout earlier than the full deadline means the seat was away (protocol "Reconnecting"), a
// sit_in means its key came back. The bids, the talk and the config are the re-simulation's
// inputs: an altered bid shows where its consequences do (at its lot's lot_result, or at a
// later refusal when it spent cash the seat did not have), the config at the first value,
// deadline or result it moves; talk has none. Any altered value, result, strike count, instant,
// ranking or seed shows at its own line. Lines after the end other than a paid match's money
// lines differ.
func Verify(lines [][]byte) Report {
	v := &verifier{Verifier: breakroom.NewVerifier(GameID, lines)}
	v.SeatOptions = func(house, staff bool) any { return SeatOptions{House: house, Staff: staff} }
	v.msgs = v.Talk()
	v.Run(v)
	return v.Rep
}

// verifier is the game's breakroom.Resimulation: its match, rebuilt from match_start, in the
// shared frame of a Break Room log verifier.
type verifier struct {
	*breakroom.Verifier
	m    *match
	msgs map[[3]int]string // (round, seat, turn) → held text
}

// lineFields are the members the re-simulation reads to choose its next input.
type lineFields struct {
	Round  *int            `json:"round"`
	Seat   *int            `json:"seat"`
	Turn   *int            `json:"turn"`
	Action string          `json:"action"`
	Amount json.RawMessage `json:"amount"`
	Auto   json.RawMessage `json:"auto"`
	Text   string          `json:"text"`
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
		v.Fail(i, nil, "the log stops before the match's end (seat %d's turn %d of lot %d is open)", o.seat, o.turn, v.m.round)
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
	if t.Before(o.opened) {
		// The log's instants are inputs; the line before this one is at or after the turn's
		// opening, and a log writer stamps in order.
		v.Fail(i, nil, "t %s is before the open turn opened (%s): the log's instants go back", v.Parsed[i].T, stamp(o.opened))
		return
	}
	f := v.fields(i)
	mine := f.Seat != nil && *f.Seat == o.seat && f.Turn != nil && *f.Turn == o.turn && f.Round != nil && *f.Round == v.m.round
	switch typ := v.Parsed[i].Type; {
	case typ == "match_abandoned" || typ == "message" && v.abandonAhead(i):
		j := i
		for v.Parsed[j].Type == "message" {
			j++
		}
		tj, ok := v.At(j)
		if !ok {
			v.Fail(j, nil, "t %q is not an RFC 3339 instant", v.Parsed[j].T)
			return
		}
		if tj.Before(o.opened) {
			v.Fail(j, nil, "t %s is before the open turn opened (%s): the log's instants go back", v.Parsed[j].T, stamp(o.opened))
			return
		}
		v.Expect(v.m.Abandon(tj, v.fields(j).Reason).Events)
	case typ == "action_private" && mine && len(f.Auto) == 0:
		v.present(o)
		v.comeBack(i, t)
		body := map[string]any{"action": f.Action}
		if len(f.Amount) > 0 {
			body["amount"] = f.Amount
		}
		if text, ok := v.msgs[[3]int{v.m.round, o.seat, o.turn}]; ok {
			body["message"] = text
		}
		b, _ := json.Marshal(body)
		st, err := v.m.Act(t, games.Input{Seat: breakroom.HouseSeat(o.seat), Kind: "answer", Move: breakroom.MoveOf(v.m.round, o.turn), Body: b})
		if err != nil {
			v.Fail(i, nil, "the re-simulation refuses this move: %v", err)
			return
		}
		v.Expect(st.Events)
	case typ == "timeout_private" && mine:
		full := o.opened.Add(v.m.cfg.turnDeadline())
		v.present(o)
		if t.Before(full) {
			at := t.Add(-v.m.cfg.awayDeadline())
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
	default:
		v.Fail(i, nil, "want the resolution of seat %d's turn %d in lot %d (its action_private or timeout_private)", o.seat, o.turn, v.m.round)
	}
}

// abandonAhead says the lines from i are held messages followed by match_abandoned.
func (v *verifier) abandonAhead(i int) bool {
	for ; i < len(v.Lines) && v.Errs[i] == nil; i++ {
		switch v.Parsed[i].Type {
		case "message":
			continue
		case "match_abandoned":
			return true
		}
		return false
	}
	return false
}

// present makes the open prompt's seat present from its opening (the full deadline).
func (v *verifier) present(o *openPrompt) {
	if v.m.seats[o.seat].away {
		v.presence(o.seat, o.opened, false)
	}
}

// comeBack tells the re-simulation that every seat the step from line i sits in came back
// before it.
func (v *verifier) comeBack(i int, t time.Time) {
	for j := i + 1; j < len(v.Lines) && v.Errs[j] == nil; j++ {
		switch v.Parsed[j].Type {
		case "action_private":
			if len(v.fields(j).Auto) == 0 {
				return
			}
		case "timeout_private", "match_end", "match_abandoned":
			return
		case "sit_in":
			if f := v.fields(j); f.Seat != nil && *f.Seat >= 0 && *f.Seat < len(v.m.seats) {
				v.presence(*f.Seat, t, false)
			}
		}
	}
}

func (v *verifier) presence(seat int, at time.Time, away bool) {
	_, _ = v.m.Act(at, games.Input{Seat: breakroom.HouseSeat(seat), Kind: KindPresence,
		Body: json.RawMessage(`{"away":` + strconv.FormatBool(away) + `}`)})
}
